// The escape checklist, run INSIDE a real bubblewrap sandbox of the `shell` harness: each item is something a
// harness must not be able to do. Every check first shows the same action works from the host, so a test
// that passes proves the sandbox refused it (not that the action was impossible anyway).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect, type Server } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadSettings } from '../../src/config/settings.js';
import { createSandboxService, type SandboxService } from '../../src/sandbox/service.js';
import type { SandboxManager } from '../../src/sandbox/manager/manager.js';
import { tempHome, type TempHome } from '../helpers/home.js';
import { eventually } from '../helpers/eventually.js';
import { FixedPolicy, MemoryWorkspace } from './fixtures.js';

describe('escape checklist inside a sandbox', () => {
  let home: TempHome;
  let service: SandboxService;
  let manager: SandboxManager;
  let work: string;
  let projectDir: string;
  const sh = async (script: string) => manager.exec('esc', ['/bin/sh', '-c', script]);

  before(async () => {
    home = tempHome('config_version: 9\nopenshell:\n  enabled: true\n');
    work = mkdtempSync(join(tmpdir(), 'warden-escape-'));
    projectDir = join(work, 'project');
    mkdirSync(projectDir);
    const { config } = loadSettings({ env: home.env });
    service = await createSandboxService({ config, home: home.dir, policy: new FixedPolicy(), workspace: new MemoryWorkspace() });
    assert.equal(service.state, 'running', service.reason ?? '');
    manager = service.manager!;
    await manager.create({ harness: 'shell', project: projectDir, name: 'esc', no_snapshot: true });
  });
  after(async () => {
    await service.close();
    home.remove();
    rmSync(work, { recursive: true, force: true });
  });

  it('runs the harness with no capabilities, in the project, with its own home', async () => {
    const out = await sh('grep CapEff /proc/self/status; pwd; echo "$HOME"; echo ok > inside.txt');
    assert.equal(out.code, 0, out.stderr.toString());
    assert.match(out.stdout.toString(), /CapEff:\s+0+\n/);
    assert.ok(out.stdout.toString().includes(`${projectDir}\n/home/sandbox\n`), out.stdout.toString());
    assert.equal(readFileSync(join(projectDir, 'inside.txt'), 'utf8'), 'ok\n', 'the project is mounted read-write');
  });

  it('cannot read ~/.ssh or another home folder', async () => {
    const otherHome = join(work, 'home-of-someone');
    mkdirSync(join(otherHome, '.ssh'), { recursive: true });
    writeFileSync(join(otherHome, '.ssh', 'id_ed25519'), 'PRIVATE KEY');
    assert.equal(readFileSync(join(otherHome, '.ssh', 'id_ed25519'), 'utf8'), 'PRIVATE KEY', 'readable from the host');
    for (const path of [join(otherHome, '.ssh', 'id_ed25519'), join(homedir(), '.ssh'), homedir(), '/etc/shadow', '/home/sandbox/../../root']) {
      const out = await sh(`cat '${path}' 2>&1 || ls -a '${path}' 2>&1; test -e '${path}' && echo VISIBLE`);
      assert.ok(!out.stdout.toString().includes('VISIBLE'), `${path} is visible: ${out.stdout.toString()}`);
      assert.ok(!out.stdout.toString().includes('PRIVATE KEY'));
    }
    const homes = await sh('ls -A /home');
    assert.equal(homes.stdout.toString().trim(), 'sandbox', 'only the sandbox\'s own home exists');
  });

  it('cannot write outside the project', async () => {
    const outside = join(work, 'outside');
    mkdirSync(outside);
    const marker = `warden-escape-${process.pid}-${Date.now()}`;
    for (const target of [join(outside, 'pwned'), '/usr/pwned', join(homedir(), marker), `/etc/${marker}`]) {
      const out = await sh(`echo pwned > '${target}'`);
      assert.notEqual(out.code, 0, `wrote ${target}`);
    }
    assert.deepEqual(readdirSync(outside), []);
    assert.equal(existsSync(`/etc/${marker}`), false);
    // /tmp inside is the sandbox's own: a write there never reaches the host's /tmp.
    assert.equal((await sh(`echo x > /tmp/${marker} && cat /tmp/${marker}`)).code, 0);
    assert.equal(existsSync(join('/tmp', marker)), false);
    assert.equal(existsSync(join(tmpdir(), marker)), false);
  });

  it('cannot see host processes', async () => {
    const out = await sh('ls /proc | grep -E "^[0-9]+$"');
    const pids = out.stdout.toString().trim().split('\n').map(Number);
    assert.ok(pids.length > 0 && pids.length < 10, `pids inside: ${pids.join(' ')}`);
    assert.ok(!pids.includes(process.pid) || process.pid < 10, 'the gateway is not visible');
    const ps = await sh('cat /proc/*/cmdline 2>/dev/null | tr "\\0" " "');
    assert.ok(!ps.stdout.toString().includes('node'), `host processes visible: ${ps.stdout.toString()}`);
  });

  it('cannot reach a TCP port on the host\'s 127.0.0.1', async () => {
    let connections = 0;
    const server: Server = createServer((socket) => {
      connections++;
      socket.end('hello from the host\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      await new Promise<void>((resolve, reject) => connect(port, '127.0.0.1', resolve).on('error', reject).on('connect', function (this: { end(): void }) { this.end(); }));
      const before = connections;
      const probe = `require('net').connect(${port},'127.0.0.1').on('connect',()=>{console.log('CONNECTED');process.exit(0)}).on('error',e=>{console.log(e.code);process.exit(3)})`;
      const out = await manager.exec('esc', [process.execPath, '-e', probe]);
      assert.equal(out.code, 3, `${out.stdout.toString()}${out.stderr.toString()}`);
      assert.match(out.stdout.toString(), /ECONNREFUSED|ENETUNREACH/);
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(connections, before, 'the host server saw no connection from the sandbox');
    } finally {
      server.close();
    }
  });

  it('cannot open the Docker socket or any other host socket', async () => {
    const socketPath = join(work, 'docker.sock');
    const server = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    try {
      await new Promise<void>((resolve, reject) => connect(socketPath, resolve).on('error', reject).on('connect', function (this: { end(): void }) { this.end(); }));
      for (const path of [socketPath, '/var/run/docker.sock', '/run/docker.sock', '/tmp/.X11-unix']) {
        const out = await sh(`test -e '${path}' && echo VISIBLE; exit 0`);
        assert.equal(out.stdout.toString(), '', `${path} visible inside`);
      }
    } finally {
      server.close();
    }
  });

  it('cannot keep a process alive after the sandbox is deleted', async () => {
    const marker = String(80000 + (process.pid % 10000));
    manager.execDetached('esc', ['/bin/sh', '-c', `nohup setsid sleep ${marker} >/dev/null 2>&1 & echo started`]);
    const find = () => readdirSync('/proc').filter((pid) => /^\d+$/.test(pid)).filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8') === `sleep\0${marker}\0`;
      } catch {
        return false;
      }
    });
    await eventually(() => find().length > 0, 'the detached process to start', 2000);
    assert.equal(find().length, 1, 'the detached process runs (seen from the host)');
    const deleted = await manager.remove('esc');
    assert.equal(deleted.deleted, true);
    await eventually(() => find().length === 0, 'the detached process to end', 2000);
    assert.deepEqual(find(), [], 'nothing of the sandbox survives its deletion');
    assert.throws(() => manager.get('esc'), /no sandbox named esc/);
  });
});
