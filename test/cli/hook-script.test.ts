// The shipped hook script (hooks/warden-hook.mjs) as agents run it: a real subprocess with the event on stdin,
// against a stub sidecar that answers fixed native answers, and against the real gateway.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { HookTokens } from '../../src/connectors/hook-tokens.js';
import { agentFor } from '../../src/connectors/setup/install.js';
import { installOpencodePlugin } from '../../src/connectors/setup/opencode-plugin.js';
import { runCli, spawnGateway } from '../helpers/gateway.js';
import { tempHome } from '../helpers/home.js';
import { writeHookSettings } from '../helpers/hook-settings.js';
import { StubSidecar } from '../helpers/stub-sidecar.js';

const SCRIPT = fileURLToPath(new URL('../../hooks/warden-hook.mjs', import.meta.url));
const DOWN = 'http://127.0.0.1:9'; // the discard port: nothing listens there, so connecting is refused at once
const PRE_TOOL = { hook_event_name: 'PreToolUse', session_id: 's-1', cwd: '/work', tool_name: 'Bash', tool_input: { command: 'ls -la secret-dir' } };

type Json = Record<string, unknown>;
/** Runs the hook script as an agent does: event on stdin, answer on stdout/stderr and in the exit code. */
async function runHook(args: string[], input: string, env: NodeJS.ProcessEnv = process.env) {
  const started = performance.now();
  const proc = spawn(process.execPath, [SCRIPT, ...args], { env, stdio: 'pipe' });
  const out = { stdout: '', stderr: '' };
  proc.stdout.on('data', (c: Buffer) => (out.stdout += c.toString()));
  proc.stderr.on('data', (c: Buffer) => (out.stderr += c.toString()));
  proc.stdin.on('error', () => {}); // the script may stop reading an oversized event
  proc.stdin.end(input);
  const [code] = (await once(proc, 'exit')) as [number | null];
  return { code, ...out, ms: performance.now() - started };
}

/** A sidecar stand-in: answers whatever `reply` says and records what it was sent. */
describe('hook script against a stub sidecar', () => {
  const stub = new StubSidecar({ status: 200, body: '{}' });
  let sidecar = '';
  let home = '';
  let token = '';
  const settings = (connector: string, extra: Json = {}) => writeHookSettings(home, connector, { sidecar, ...extra });
  const hook = (input: unknown, connector = 'claudecode', event = 'PreToolUse') =>
    runHook([connector, '--home', home, '--event', event], typeof input === 'string' ? input : JSON.stringify(input));
  const lastFailure = () => JSON.parse(readFileSync(join(home, 'hook-failures.jsonl'), 'utf8').trim().split('\n').at(-1)!) as Json;

  before(async () => {
    sidecar = await stub.start();
    home = mkdtempSync(join(tmpdir(), 'warden-hook-'));
    for (const connector of ['claudecode', 'copilot', 'cursor', 'geminicli', 'codex', 'opencode', 'antigravity']) {
      const issued = HookTokens.issue(join(home, 'hooks'), connector);
      if (connector === 'claudecode') token = issued;
      settings(connector);
    }
  });
  after(() => {
    stub.stop();
    rmSync(home, { recursive: true, force: true });
  });

  it('allow: posts the event with the hook token and exits 0 with no output', async () => {
    stub.seen = [];
    stub.answer({ exit_code: 0 });
    const run = await hook(PRE_TOOL);
    assert.deepEqual([run.code, run.stdout, run.stderr], [0, '', '']);
    const { url, headers, body } = stub.seen[0]!;
    assert.deepEqual([url, headers.authorization, headers['x-warden-client'], headers['content-type']], [
      '/api/v1/claudecode/hook', `Bearer ${token}`, 'warden-hook', 'application/json',
    ]);
    assert.deepEqual(JSON.parse(body), PRE_TOOL);
  });

  it('block and alert: prints native stderr, native stdout as JSON, and exits with the native code', async () => {
    stub.answer({ stderr: 'Blocked by Warden policy: rule X', exit_code: 2 });
    const blocked = await hook(PRE_TOOL);
    assert.deepEqual([blocked.code, blocked.stdout, blocked.stderr], [2, '', 'Blocked by Warden policy: rule X\n']);
    stub.answer({ stdout: { systemMessage: 'Warden flagged this' }, exit_code: 0 });
    const alerted = await hook(PRE_TOOL);
    assert.deepEqual([alerted.code, JSON.parse(alerted.stdout)], [0, { systemMessage: 'Warden flagged this' }]);
  });

  it("names the event for payloads that name none (Copilot), and reads it from the last argument (Codex's notify)", async () => {
    stub.seen = [];
    stub.answer({ exit_code: 0 });
    await hook({ toolName: 'bash', toolArgs: '{"command":"ls"}' }, 'copilot', 'preToolUse');
    assert.deepEqual([stub.seen[0]!.url, (JSON.parse(stub.seen[0]!.body) as Json).hook_event_name], ['/api/v1/copilot/hook', 'preToolUse']);
    const notify = { type: 'agent-turn-complete', 'thread-id': 't-1', 'last-assistant-message': 'done' };
    const proc = spawn(process.execPath, [SCRIPT, 'codex', '--home', home, JSON.stringify(notify)], { stdio: ['ignore', 'pipe', 'pipe'] });
    assert.deepEqual(await once(proc, 'exit'), [0, null]);
    assert.deepEqual(JSON.parse(stub.seen[1]!.body), notify);
  });

  it('5xx and unreadable answers apply the fail mode (closed: the native block)', async () => {
    stub.reply = { status: 503, body: '{"error":"down"}' };
    const failed = await hook(PRE_TOOL);
    assert.deepEqual([failed.code, /HTTP 503.*fail closed, so it is blocked/.test(failed.stderr)], [2, true], failed.stderr);
    stub.answer({ exit_code: 'two' });
    const unreadable = await hook(PRE_TOOL);
    assert.deepEqual([unreadable.code, /unreadable answer/.test(unreadable.stderr)], [2, true], unreadable.stderr);
  });

  it('a refused call (401) is reported on stderr and applies the fail mode', async () => {
    stub.reply = { status: 401, body: '{"error":"invalid gateway token"}' };
    const closed = await hook(PRE_TOOL);
    assert.equal(closed.code, 2);
    assert.match(closed.stderr, /HTTP 401: invalid gateway token/);
    settings('claudecode', { fail_mode: 'open' });
    const open = await hook(PRE_TOOL);
    assert.deepEqual([open.code, open.stdout], [0, '']);
    assert.match(open.stderr, /HTTP 401: invalid gateway token.*fail open/);
    settings('claudecode');
  });

  it('times out a sidecar that never answers (total timeout from the settings file); refuses oversized events', async () => {
    stub.reply = 'hang';
    settings('claudecode', { total_timeout_ms: 300 });
    const run = await hook(PRE_TOOL);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /no answer within 300 ms/);
    assert.ok(run.ms < 3000, `took ${run.ms} ms`);
    settings('claudecode');
    stub.seen = [];
    const huge = await hook(`{"hook_event_name":"PreToolUse","tool_input":{"command":"${'a'.repeat(8 * 1024 * 1024)}"}}`);
    assert.deepEqual([huge.code, /event larger than 8 MiB/.test(huge.stderr), stub.seen.length], [2, true, 0], 'an event over 8 MiB is not sent');
  });

  it('opencode plugin: runs the script for each event and applies block, toast and output replacement', async () => {
    type Hook = (input: Record<string, unknown>, output: Record<string, unknown>) => Promise<void>;
    const file = join(home, 'warden-opencode-plugin.mjs');
    writeFileSync(file, installOpencodePlugin(undefined, [], { connector: 'opencode', home, failMode: 'closed' }));
    const { WardenPlugin } = (await import(pathToFileURL(file).href)) as { WardenPlugin: (ctx: unknown) => Promise<Record<string, Hook>> };
    const toasts: unknown[] = [];
    const hooks = await WardenPlugin({ client: { tui: { showToast: async (t: unknown) => toasts.push(t) } }, directory: '/work' });
    const call = { tool: 'bash', sessionID: 's-1', callID: 'c-1' };
    stub.seen = [];
    stub.answer({ stdout: { decision: 'block', reason: 'Blocked by Warden: rm -rf' }, exit_code: 0 });
    await assert.rejects(hooks['tool.execute.before']!(call, { args: { command: 'rm -rf /' } }), /Blocked by Warden: rm -rf/);
    assert.equal(stub.seen[0]!.url, '/api/v1/opencode/hook');
    assert.deepEqual(JSON.parse(stub.seen[0]!.body), {
      event: 'tool.execute.before', sessionID: 's-1', callID: 'c-1', tool: 'bash', args: { command: 'rm -rf /' }, directory: '/work', hook_event_name: 'tool.execute.before',
    });
    stub.answer({ stdout: { toast: { variant: 'warning', message: 'careful' } }, exit_code: 0 });
    await hooks['tool.execute.before']!(call, { args: { command: 'ls' } });
    assert.deepEqual(toasts, [{ body: { variant: 'warning', message: 'careful' } }]);
    stub.answer({ stdout: { decision: 'block', reason: '[output withheld by Warden]' }, exit_code: 0 });
    const result = { title: 'bash', output: 'AKIA... secret', metadata: {} };
    await hooks['tool.execute.after']!(call, result);
    assert.equal(result.output, '[output withheld by Warden]');
  });

  it('sidecar down: fails closed with the native block and logs the decision without token or content', async () => {
    settings('claudecode', { sidecar: DOWN });
    const run = await hook(PRE_TOOL);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /ECONNREFUSED.*fail closed, so it is blocked/);
    const entry = lastFailure();
    assert.ok(!Number.isNaN(Date.parse(entry.time as string)));
    assert.deepEqual({ ...entry, time: 0 }, {
      time: 0, connector: 'claudecode', event: 'PreToolUse', reason: `sidecar unreachable at ${DOWN}: ECONNREFUSED`, fail_mode: 'closed', outcome: 'blocked',
    });
    const log = readFileSync(join(home, 'hook-failures.jsonl'), 'utf8');
    assert.ok(!log.includes(token) && !log.includes('secret-dir'), 'no token, no event content');
    assert.equal(statSync(join(home, 'hook-failures.jsonl')).mode & 0o777, 0o600);
    settings('claudecode', { sidecar: DOWN, fail_mode: 'open' });
    const open = await hook(PRE_TOOL);
    assert.deepEqual([open.code, open.stdout, open.stderr], [0, '', ''], '--fail-mode open: exit 0, no output');
    assert.deepEqual([lastFailure().fail_mode, lastFailure().outcome], ['open', 'allowed']);
    settings('claudecode');
  });

  it("sidecar down: each agent's own block when closed; events that cannot block pass with a warning", async () => {
    const cases: [string, string, number, Json | undefined][] = [
      ['copilot', 'preToolUse', 0, { permissionDecision: 'deny' }],
      ['cursor', 'beforeShellExecution', 2, { permission: 'deny', continue: false }],
      ['geminicli', 'BeforeTool', 2, undefined],
      ['antigravity', 'PreToolUse', 0, { decision: 'deny' }],
    ];
    for (const [connector, event, code, stdout] of cases) {
      settings(connector, { sidecar: DOWN });
      const run = await hook({}, connector, event);
      assert.equal(run.code, code, connector);
      assert.match(stdout ? run.stdout : run.stderr, /fail closed/, connector);
      const answer = (stdout ? JSON.parse(run.stdout) : {}) as Json;
      for (const [key, value] of Object.entries(stdout ?? {})) assert.equal(answer[key], value, `${connector} ${key}`);
    }
    settings('claudecode', { sidecar: DOWN });
    const stop = await hook({ hook_event_name: 'Stop' }, 'claudecode', 'Stop');
    assert.equal(stop.code, 0);
    assert.match(stop.stderr, /cannot be blocked, so it proceeds/);
    assert.equal(lastFailure().outcome, 'allowed');
    settings('claudecode');
  });
  it('settings without a fail-closed answer (an older setup): every event is a gate, refused with exit 2 and the rerun hint', async () => {
    settings('copilot', { sidecar: DOWN, fail_closed: undefined });
    for (const event of ['preToolUse', 'postToolUse']) {
      const run = await hook({}, 'copilot', event);
      assert.deepEqual([run.code, run.stdout], [2, ''], `${event}: not Copilot's own refusal (stdout, exit 0), and no pass`);
      assert.match(run.stderr, new RegExp(`^Warden could not check this ${event} event \\(sidecar unreachable at ${DOWN}: ECONNREFUSED\\); hooks fail closed, so it is blocked\\. Is the gateway running\\? Try \`warden status\`\\. Its hook settings hold no valid fail-closed answer: run \`warden setup copilot\` again\\.\n$`));
      assert.deepEqual([lastFailure().event, lastFailure().outcome], [event, 'blocked']);
    }
    stub.reply = { status: 401, body: '{"error":"invalid gateway token"}' };
    settings('copilot', { fail_closed: undefined });
    const refused = await hook({}, 'copilot', 'preToolUse');
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /\(HTTP 401: invalid gateway token\)\); hooks fail closed, so it is blocked\. Its hook settings hold no valid fail-closed answer: run `warden setup copilot` again\.\n$/, 'one rerun hint');
    settings('copilot', { sidecar: DOWN, fail_closed: undefined, fail_mode: 'open' });
    const open = await hook({}, 'copilot', 'preToolUse');
    assert.deepEqual([open.code, open.stdout, open.stderr], [0, '', ''], 'open stays open');
    settings('copilot');
  });

  it('a malformed fail-closed answer is treated as absent', async () => {
    const written = settings('copilot', { sidecar: DOWN, fail_closed: undefined });
    const absent = await hook({}, 'copilot', 'preToolUse');
    const { gates, refusal } = agentFor('copilot').failClosed;
    const malformed: [string, unknown][] = [
      ['not an object', [gates, refusal]],
      ['gates not an array', { gates: 'preToolUse', refusal }],
      ['no gates', { gates: [], refusal }],
      ['a gate that is no event name', { gates: [...gates, 'pre tool'], refusal }],
      ['a gate that is no string', { gates: [...gates, 7], refusal }],
      ['no refusal', { gates }],
      ['exit code over 255', { gates, refusal: { ...refusal, exit_code: 256 } }],
      ['exit code a string', { gates, refusal: { ...refusal, exit_code: '0' } }],
      ['stdout an array', { gates, refusal: { ...refusal, stdout: ['deny'] } }],
      ['stderr no string', { gates, refusal: { ...refusal, stderr: { text: 'denied' } } }],
    ];
    for (const [what, failClosed] of malformed) {
      settings('copilot', { ...written, fail_closed: failClosed });
      const run = await hook({}, 'copilot', 'preToolUse');
      assert.deepEqual([run.code, run.stdout, run.stderr], [absent.code, absent.stdout, absent.stderr], what);
    }
    settings('copilot', { ...written, fail_closed: { gates, refusal } });
    const wellFormed = await hook({}, 'copilot', 'preToolUse');
    assert.deepEqual([wellFormed.code, (JSON.parse(wellFormed.stdout) as Json).permissionDecision], [0, 'deny'], 'the same entry, well formed');
    settings('copilot');
  });
});

describe('hook script against the real gateway', () => {
  it('setup issues the token and reloads the running gateway; the script allows ls and blocks rm -rf /', async (t) => {
    const home = tempHome();
    const userHome = mkdtempSync(join(tmpdir(), 'warden-user-'));
    const env = { ...home.env, HOME: userHome };
    const gw = await spawnGateway(env);
    try {
      const setup = await runCli(['setup', 'claudecode'], env);
      assert.equal(setup.code, 0, setup.stderr);
      assert.match(setup.stdout, /gateway \(pid \d+\) reloaded \(SIGHUP\) and accepts the new hook token/);
      const args = ['claudecode', '--home', home.dir, '--event', 'PreToolUse'];
      const allowed = await runHook(args, JSON.stringify({ ...PRE_TOOL, tool_input: { command: 'ls -la' } }), env);
      assert.deepEqual([allowed.code, allowed.stdout, allowed.stderr], [0, '', '']);
      t.diagnostic(`allow round trip, including Node start: ${allowed.ms.toFixed(0)} ms`);
      const blocked = await runHook(args, JSON.stringify({ ...PRE_TOOL, tool_input: { command: 'rm -rf / --no-preserve-root' } }), env);
      assert.equal(blocked.code, 0, blocked.stderr);
      const answer = JSON.parse(blocked.stdout) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } };
      assert.equal(answer.hookSpecificOutput.permissionDecision, 'deny');
      assert.match(answer.hookSpecificOutput.permissionDecisionReason, /Warden/);
      assert.equal(await gw.terminate(), 0);
      const down = await runHook(args, JSON.stringify(PRE_TOOL), env);
      assert.equal(down.code, 2, 'the gateway is gone: fail closed');
    } finally {
      await gw.terminate();
      home.remove();
      rmSync(userHome, { recursive: true, force: true });
    }
  });
});
