// The sh hook command (hooks/warden-hook.sh, what setup installs where curl exists) as agents run it: a real /bin/sh
// and curl subprocess, compared byte for byte with the Node script (hooks/warden-hook.mjs) for the same event,
// against a stub sidecar (edge cases, failures) and against the real gateway (every action, several agents).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { HookTokens } from '../../src/connectors/hook-tokens.js';
import type { NativeHookAnswer } from '../../src/connectors/hook-event.js';
import { findCurl } from '../../src/connectors/setup/hook-command.js';
import { hookCurlrc } from '../../src/connectors/setup/hook-curlrc.js';
import { runCli, spawnGateway } from '../helpers/gateway.js';
import { tempHome } from '../helpers/home.js';
import { writeHookSettings } from '../helpers/hook-settings.js';
import { StubSidecar } from '../helpers/stub-sidecar.js';

const SH_SCRIPT = fileURLToPath(new URL('../../hooks/warden-hook.sh', import.meta.url));
const NODE_SCRIPT = fileURLToPath(new URL('../../hooks/warden-hook.mjs', import.meta.url));
const DOWN = 'http://127.0.0.1:9'; // the discard port: nothing listens there, so connecting is refused at once
const PRE_TOOL = { hook_event_name: 'PreToolUse', session_id: 's-1', cwd: '/work', tool_name: 'Bash', tool_input: { command: 'ls -la secret-dir' } };
const CURL = findCurl();
if (!CURL) throw new Error('these tests need curl >= 7.68 on PATH (scripts/bootstrap.sh installs it)');

type Json = Record<string, unknown>;
interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs a hook command as an agent does: event on stdin (or none), answer on stdout/stderr and in the exit code. */
async function run(argv: string[], input: string | undefined, env: NodeJS.ProcessEnv = process.env, whileRunning?: () => void): Promise<Run> {
  const started = performance.now();
  const proc = spawn(argv[0]!, argv.slice(1), { env, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
  const out = { stdout: Buffer.alloc(0), stderr: Buffer.alloc(0) };
  proc.stdout!.on('data', (c: Buffer) => (out.stdout = Buffer.concat([out.stdout, c])));
  proc.stderr!.on('data', (c: Buffer) => (out.stderr = Buffer.concat([out.stderr, c])));
  if (input !== undefined) {
    proc.stdin!.on('error', () => {});
    proc.stdin!.end(input);
  }
  const timer = whileRunning && setTimeout(whileRunning, 150);
  const [code] = (await once(proc, 'exit')) as [number | null];
  clearTimeout(timer);
  return { code, stdout: out.stdout.toString('latin1'), stderr: out.stderr.toString('latin1'), ms: performance.now() - started };
}

const shHook = (args: string[]) => ['/bin/sh', SH_SCRIPT, ...args];
const nodeHook = (args: string[]) => [process.execPath, NODE_SCRIPT, ...args];
const answerOf = (r: Run): Json => ({ code: r.code, stdout: r.stdout, stderr: r.stderr });

/** A sidecar stand-in: answers `reply` (in the native text form when asked with ?native=1) and records requests. */
describe('sh hook command against a stub sidecar', () => {
  const stub = new StubSidecar();
  let sidecar = '';
  let home = '';
  let token = '';
  /** Both scripts' settings, as setup writes them: the JSON settings file and the curlrc derived from it. */
  const settings = (connector: string, extra: Json = {}) => {
    const values = writeHookSettings(home, connector, { sidecar, ...extra });
    const connectorToken = readFileSync(values.token_file, 'utf8').trim();
    writeFileSync(join(home, 'hooks', `${connector}.curlrc`), hookCurlrc(values, connectorToken, { sh: '/bin/sh', curl: CURL }), { mode: 0o600 });
  };
  const args = (connector = 'claudecode', event = 'PreToolUse') => [connector, '--home', home, '--event', event];
  const both = async (input: unknown, connector = 'claudecode', event = 'PreToolUse') => {
    const text = typeof input === 'string' ? input : JSON.stringify(input);
    return { sh: await run(shHook(args(connector, event)), text), node: await run(nodeHook(args(connector, event)), text) };
  };
  const lastFailure = () => JSON.parse(readFileSync(join(home, 'hook-failures.jsonl'), 'utf8').trim().split('\n').at(-1)!) as Json;

  before(async () => {
    sidecar = await stub.start();
    home = mkdtempSync(join(tmpdir(), 'warden-hook-sh-'));
    for (const connector of ['claudecode', 'codex', 'cursor', 'copilot']) {
      const issued = HookTokens.issue(join(home, 'hooks'), connector);
      if (connector === 'claudecode') token = issued;
      settings(connector);
    }
  });
  after(() => {
    stub.stop();
    rmSync(home, { recursive: true, force: true });
  });

  it('posts the event with the token from the curlrc and the event name, asking for the native text form', async () => {
    stub.seen = [];
    stub.reply = { native: { exit_code: 0 } };
    const { sh } = await both(PRE_TOOL);
    assert.deepEqual(answerOf(sh), { code: 0, stdout: '', stderr: '' });
    const { url, headers, body } = stub.seen[0]!;
    assert.deepEqual([url, headers.authorization, headers['x-warden-client'], headers['content-type']], [
      '/api/v1/claudecode/hook?native=1&event=PreToolUse', `Bearer ${token}`, 'warden-hook', 'application/json',
    ]);
    assert.deepEqual(JSON.parse(body), PRE_TOOL);
  });

  it('prints stdout, stderr (newlines, non-ASCII) and the exit code byte for byte as the Node script does', async () => {
    const answers: NativeHookAnswer[] = [
      { exit_code: 0 },
      { stderr: 'Blocked by Warden policy: rule X', exit_code: 2 },
      { stderr: 'line one\nligne deux: é — ✓ 🛡\n\n', exit_code: 2 },
      { stdout: { systemMessage: 'Warden flagged this: «quoted»\nnext line', n: 1 }, exit_code: 0 },
      { stdout: { continue: false, permission: 'deny' }, stderr: 'both\tstreams, a backslash \\0101 and a NUL \u0000.', exit_code: 255 },
      { stdout: { big: 'x'.repeat(200_000) }, exit_code: 0 },
    ];
    for (const native of answers) {
      stub.reply = { native };
      const { sh, node } = await both(PRE_TOOL);
      assert.deepEqual(answerOf(sh), answerOf(node), JSON.stringify(native).slice(0, 80));
      assert.equal(sh.code, native.exit_code);
    }
  });

  it("reads the event from the last argument (Codex's notify) and names the event for payloads that name none", async () => {
    stub.seen = [];
    stub.reply = { native: { exit_code: 0 } };
    const notify = { type: 'agent-turn-complete', 'thread-id': 't-1', 'last-assistant-message': 'done «ok»' };
    const notified = await run(shHook(['codex', '--home', home, JSON.stringify(notify)]), undefined);
    assert.deepEqual([notified.code, notified.stdout, notified.stderr], [0, '', '']);
    assert.deepEqual([stub.seen[0]!.url, JSON.parse(stub.seen[0]!.body)], ['/api/v1/codex/hook?native=1', notify]);
    await run(shHook(args('copilot', 'preToolUse')), JSON.stringify({ toolName: 'bash', toolArgs: '{"command":"ls"}' }));
    assert.equal(stub.seen[1]!.url, '/api/v1/copilot/hook?native=1&event=preToolUse', 'the route names the event (tested on the real gateway below)');
  });

  it('a refused call (401) is reported with the sidecar\'s words, through the Node fail mode, in both modes', async () => {
    stub.reply = { status: 401, body: '{"error":"invalid gateway token"}' };
    const closed = await both(PRE_TOOL);
    assert.deepEqual(answerOf(closed.sh), answerOf(closed.node));
    assert.equal(closed.sh.code, 2);
    assert.match(closed.sh.stderr, /HTTP 401: invalid gateway token.*fail closed, so it is blocked\. Run `warden setup claudecode` again/);
    settings('claudecode', { fail_mode: 'open' });
    const open = await both(PRE_TOOL);
    assert.deepEqual(answerOf(open.sh), answerOf(open.node));
    assert.deepEqual([open.sh.code, open.sh.stdout], [0, '']);
    assert.match(open.sh.stderr, /HTTP 401: invalid gateway token.*fail open/);
    settings('claudecode');
  });

  it('5xx and unreadable answers apply the fail mode as the Node script does; a JSON answer (older sidecar) is printed', async () => {
    stub.reply = { status: 503, body: '{"error":"down"}' };
    const failed = await both(PRE_TOOL);
    assert.deepEqual(answerOf(failed.sh), answerOf(failed.node));
    assert.match(failed.sh.stderr, /HTTP 503.*fail closed, so it is blocked/);
    assert.deepEqual([lastFailure().reason, lastFailure().outcome], ['sidecar failed (HTTP 503)', 'blocked']);
    stub.reply = { status: 200, body: 'garbage' };
    const unreadable = await run(shHook(args()), JSON.stringify(PRE_TOOL));
    assert.deepEqual([unreadable.code, /unreadable answer from the sidecar \(HTTP 200\).*blocked/.test(unreadable.stderr)], [2, true], unreadable.stderr);
    stub.reply = { status: 200, body: JSON.stringify({ action: 'alert', native: { stdout: { systemMessage: 'old' }, exit_code: 0 } }) };
    const older = await run(shHook(args()), JSON.stringify(PRE_TOOL));
    assert.deepEqual([older.code, older.stdout, older.stderr], [0, '{"systemMessage":"old"}\n', '']);
  });

  it('sidecar down: the native block (per agent) and a hook-failures.jsonl line without token or content', async () => {
    settings('claudecode', { sidecar: DOWN });
    const down = await run(shHook(args()), JSON.stringify(PRE_TOOL));
    assert.equal(down.code, 2);
    assert.match(down.stderr, /sidecar unreachable at http:\/\/127\.0\.0\.1:9: cannot connect\); hooks fail closed, so it is blocked\. Is the gateway running\?/);
    assert.deepEqual({ ...lastFailure(), time: 0 }, {
      time: 0, connector: 'claudecode', event: 'PreToolUse', reason: `sidecar unreachable at ${DOWN}: cannot connect`, fail_mode: 'closed', outcome: 'blocked',
    });
    const log = readFileSync(join(home, 'hook-failures.jsonl'), 'utf8');
    assert.ok(!log.includes(token) && !log.includes('secret-dir'), 'no token, no event content');
    const stop = await run(shHook(args('claudecode', 'Stop')), '{"hook_event_name":"Stop"}');
    assert.deepEqual([stop.code, /cannot be blocked, so it proceeds/.test(stop.stderr)], [0, true]);
    settings('cursor', { sidecar: DOWN });
    const cursor = await run(shHook(args('cursor', 'beforeShellExecution')), '{}');
    assert.deepEqual([cursor.code, (JSON.parse(cursor.stdout) as Json).permission], [2, 'deny']);
    settings('codex', { sidecar: DOWN });
    const notify = await run(shHook(['codex', '--home', home, '{"type":"agent-turn-complete"}']), undefined);
    assert.deepEqual([notify.code, lastFailure().event, lastFailure().outcome], [0, 'agent-turn-complete', 'allowed'], 'notify is not a gate');
    for (const connector of ['claudecode', 'cursor', 'codex']) settings(connector);
  });

  it('times out a sidecar that never answers, and the token is in no process\'s arguments meanwhile', async () => {
    stub.reply = 'hang';
    settings('claudecode', { total_timeout_ms: 700 });
    const argvs: string[] = [];
    const scan = () => {
      for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
        try {
          argvs.push(readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' '));
        } catch {
          // the process ended meanwhile
        }
      }
    };
    const hung = await run(shHook(args()), JSON.stringify(PRE_TOOL), process.env, scan);
    assert.equal(hung.code, 2);
    assert.match(hung.stderr, /no answer within 700 ms\); hooks fail closed/);
    assert.ok(hung.ms < 5000, `took ${hung.ms} ms`);
    const curls = argvs.filter((a) => a.includes('/api/v1/claudecode/hook'));
    assert.ok(curls.some((a) => a.startsWith(CURL)), `curl was running: ${curls.join('\n')}`);
    assert.deepEqual(argvs.filter((a) => a.includes(token)), [], 'no argv holds the token');
    settings('claudecode');
  });

  it('without its curlrc (an older setup) it runs the Node script instead, which asks with JSON', async () => {
    rmSync(join(home, 'hooks', 'claudecode.curlrc'));
    stub.seen = [];
    stub.reply = { native: { stderr: 'from node', exit_code: 2 } };
    const fallback = await run(shHook(args()), JSON.stringify(PRE_TOOL));
    assert.deepEqual([fallback.code, fallback.stderr, stub.seen[0]!.url], [2, 'from node\n', '/api/v1/claudecode/hook']);
    settings('claudecode');
  });
});

describe('sh hook command against the real gateway', () => {
  // Events per agent as recorded (test/connectors/payloads), with the command under test put in.
  const agents: Record<string, { event: string; payload: (command: string, session: string) => Json }> = {
    claudecode: { event: 'PreToolUse', payload: (command, session) => ({ ...PRE_TOOL, session_id: session, tool_input: { command } }) },
    cursor: { event: 'beforeShellExecution', payload: (command, session) => ({ conversation_id: session, hook_event_name: 'beforeShellExecution', command, cwd: '/work' }) },
    geminicli: { event: 'BeforeTool', payload: (command, session) => ({ session_id: session, cwd: '/work', hook_event_name: 'BeforeTool', tool_name: 'run_shell_command', tool_input: { command } }) },
    copilot: { event: 'preToolUse', payload: (command, session) => ({ sessionId: session, cwd: '/work', toolName: 'bash', toolArgs: JSON.stringify({ command }) }) },
  };
  // With HILT on, the default pack answers each action for one of these (checked through the JSON answer below).
  const commands = { allow: 'ls -la', alert: 'echo hi > /etc/hosts', confirm: 'chmod 777 /etc/passwd', block: 'git push --force origin main' };

  it('gives byte-identical answers to the Node script for allow, alert, confirm and block on four agents', async () => {
    const home = tempHome('config_version: 9\ngateway:\n  api_port: 0\n  log_level: warn\nguardrail:\n  port: 0\n  hilt_enabled: true\n');
    const userHome = mkdtempSync(join(tmpdir(), 'warden-user-'));
    const env = { ...home.env, HOME: userHome };
    const gw = await spawnGateway(env);
    try {
      for (const agent of Object.keys(agents)) {
        const setup = await runCli(['setup', agent], env);
        assert.match(setup.stdout, /hook command: \/bin\/sh hooks\/warden-hook\.sh/, setup.stderr);
      }
      // Setup's SIGHUP rebinds the ephemeral listeners: the running gateway's address is in gateway.json now.
      const { sidecar } = JSON.parse(readFileSync(join(home.dir, 'gateway.json'), 'utf8')) as { sidecar: string };
      const installed = JSON.stringify(JSON.parse(readFileSync(join(userHome, '.claude', 'settings.json'), 'utf8')));
      assert.ok(installed.includes(`"/bin/sh ${SH_SCRIPT} claudecode --home ${home.dir} --event PreToolUse"`), installed.slice(0, 400));
      let session = 0;
      for (const [agent, { event, payload }] of Object.entries(agents)) {
        const outputs = new Set<string>();
        for (const [action, command] of Object.entries(commands)) {
          const token = readFileSync(join(home.dir, 'hooks', `${agent}.token`), 'utf8').trim();
          const json = await fetch(`${sidecar}/api/v1/${agent}/hook?event=${event}`, {
            method: 'POST', headers: { authorization: `Bearer ${token}`, 'x-warden-client': 'test', 'content-type': 'application/json' },
            body: JSON.stringify(payload(command, `s-${++session}`)),
          });
          assert.equal(((await json.json()) as Json).action, action, `${agent} ${command}`);
          const args = [agent, '--home', home.dir, '--event', event];
          const sh = await run(shHook(args), JSON.stringify(payload(command, `s-${++session}`)), env);
          const node = await run(nodeHook(args), JSON.stringify(payload(command, `s-${++session}`)), env);
          assert.deepEqual(answerOf(sh), answerOf(node), `${agent} ${action}`);
          outputs.add(JSON.stringify(answerOf(sh)));
        }
        assert.ok(outputs.size >= 3, `${agent}: the actions answer differently (${[...outputs].join(' / ')})`);
      }
      // The sidecar reads at most 1 MiB: a larger event is refused (413) and falls under the fail mode.
      const big = JSON.stringify(agents.claudecode!.payload(`echo ${'a'.repeat(2 * 1024 * 1024)}`, 's-big'));
      const oversized = await run(shHook(['claudecode', '--home', home.dir, '--event', 'PreToolUse']), big, env);
      assert.equal(oversized.code, 2, oversized.stderr);
      assert.match(oversized.stderr, /(HTTP 413|connection closed).*fail closed, so it is blocked/);
      const failures = readFileSync(join(home.dir, 'hook-failures.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Json);
      assert.deepEqual([failures.length, failures[0]!.outcome], [1, 'blocked']);
      assert.equal(await gw.terminate(), 0);
      const down = await run(shHook(['claudecode', '--home', home.dir, '--event', 'PreToolUse']), JSON.stringify(PRE_TOOL), env);
      assert.equal(down.code, 2, 'the gateway is gone: fail closed');
    } finally {
      await gw.terminate();
      home.remove();
      rmSync(userHome, { recursive: true, force: true });
    }
  });
});
