// `warden sandbox …` as a user runs it: the real CLI subprocess (dist/) against a gateway with a sandbox
// manager (in process, with the in-test ports), real bubblewrap underneath.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { EPHEMERAL_CONFIG, tempHome } from '../helpers/home.js';
import { runCli, startInProcess, type InProcessGateway } from '../helpers/gateway.js';
import { FixedPolicy, MemoryWorkspace } from './fixtures.js';

const TOKEN = 'sandbox-cli-test-token-0123456789';

describe('warden sandbox', () => {
  let gw: InProcessGateway;
  let work: string;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    const policy = new FixedPolicy();
    const workspace = new MemoryWorkspace();
    gw = await startInProcess(`${EPHEMERAL_CONFIG}openshell:\n  enabled: true\n`, { WARDEN_GATEWAY_TOKEN: TOKEN }, { sandboxPorts: () => ({ policy, workspace }) });
    work = mkdtempSync(join(tmpdir(), 'warden-sbcli-'));
    env = { ...gw.home.env, WARDEN_GATEWAY_TOKEN: TOKEN };
  });
  after(async () => {
    await gw.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('create, ls, show, stop, logs, rm', async () => {
    const dir = join(work, 'proj');
    mkdirSync(dir);
    const created = await runCli(['sandbox', 'create', 'shell', '--name', 'clibox', '--project', dir, '--env', 'GREETING=hi'], env);
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout, /^clibox: ready \(shell, session 1\)/);
    const listed = await runCli(['sandbox', 'ls'], env);
    assert.match(listed.stdout, /^clibox\s+ready\s+shell\s+/m);
    const shown = JSON.parse((await runCli(['sandbox', 'show', 'clibox', '--json'], env)).stdout) as { name: string; project: string };
    assert.deepEqual([shown.name, shown.project], ['clibox', dir]);
    const noLog = await runCli(['sandbox', 'logs', 'clibox'], env);
    assert.equal(noLog.code, 1);
    assert.equal(noLog.stderr.trim().split('\n').length, 1, 'one line for an operator error');
    assert.match(noLog.stderr, /no run log was kept for clibox \(WARDEN_ERR_SANDBOX_NOT_FOUND\)/);
    assert.equal((await runCli(['sandbox', 'stop', 'clibox'], env)).code, 0);
    const logs = await runCli(['sandbox', 'logs', 'clibox'], env);
    assert.equal(logs.code, 0, logs.stderr);
    assert.match(logs.stdout, /warden: sandbox clibox ready/);
    assert.equal((await runCli(['sandbox', 'rm', 'clibox'], env)).stdout, 'deleted clibox\n');
  });

  it('run: creates a sandbox for the current folder and attaches the terminal', async () => {
    const dir = join(work, 'runhere');
    mkdirSync(dir);
    const { spawn } = await import('node:child_process');
    const { CLI } = await import('../helpers/gateway.js');
    const child = spawn(process.execPath, [CLI, 'sandbox', 'run', 'shell', '--rm', '--no-snapshot', '--', '/bin/sh', '-c', 'pwd; echo "$HOME"; echo made > made.txt'], {
      cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    assert.equal(code, 0, stderr);
    assert.equal(stdout, `${dir}\n/home/sandbox\n`);
    assert.equal(readFileSync(join(dir, 'made.txt'), 'utf8'), 'made\n');
    assert.match((await runCli(['sandbox', 'ls'], env)).stdout, /^no sandboxes$/m, '--rm deleted it');
  });

  it('image build, ls and rm; a connector without a harness package is not buildable', async () => {
    const built = await runCli(['sandbox', 'image', 'build', 'shell'], env);
    assert.match(built.stdout, /^shell sha256:[0-9a-f]{64} /);
    assert.match((await runCli(['sandbox', 'image', 'ls'], env)).stdout, /^shell\s+sha256:/);
    const connector = await runCli(['sandbox', 'image', 'build', 'cursor'], env);
    assert.equal(connector.code, 1);
    assert.match(connector.stderr, /not buildable: its connector names no harness package.*WARDEN_ERR_SANDBOX_IMAGE_UNAVAILABLE/);
    assert.equal((await runCli(['sandbox', 'image', 'rm', 'shell'], env)).stdout, 'removed shell\n');
  });

  it('legacy-cleanup removes the standalone marker and keeps the rest of config.yaml', async () => {
    const legacy = tempHome(`${EPHEMERAL_CONFIG}# keep me\nopenshell:\n  mode: standalone\n`);
    try {
      const cleaned = await runCli(['sandbox', 'legacy-cleanup'], legacy.env);
      assert.equal(cleaned.code, 0, cleaned.stderr);
      assert.match(cleaned.stdout, /removed openshell\.mode: standalone/);
      const text = readFileSync(join(legacy.dir, 'config.yaml'), 'utf8');
      assert.doesNotMatch(text, /standalone/);
      assert.match(text, /# keep me/);
      assert.match((await runCli(['sandbox', 'legacy-cleanup'], legacy.env)).stdout, /nothing to clean up/);
    } finally {
      legacy.remove();
    }
  });
});
