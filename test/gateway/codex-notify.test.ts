// Codex's turn-complete notifier end to end: POST /api/v1/codex/notify over real HTTP (its answers and refusals,
// the hook token opening it, the audit row), `warden setup codex` writing the notify program, and that program,
// run as Codex runs it (the JSON as its last argument), reaching the route through both hook scripts.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parse } from 'smol-toml';
import { AuditReader } from '../../src/audit/reader.js';
import { HookTokens } from '../../src/connectors/hook-tokens.js';
import { authHeaders, runCli, spawnGateway, startInProcess, type InProcessGateway } from '../helpers/gateway.js';
import { EPHEMERAL_CONFIG, tempHome } from '../helpers/home.js';

const TOKEN = 'codex-notify-token';
const NODE_SCRIPT = fileURLToPath(new URL('../../hooks/warden-hook.mjs', import.meta.url));
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers are probed field by field
type Json = Record<string, any>;

const notification = (message: string, turn: string) => ({
  type: 'agent-turn-complete', 'thread-id': 'thread-7', 'turn-id': turn, cwd: '/home/me/app',
  'input-messages': ['fix the tests'], 'last-assistant-message': message,
});

describe('POST /api/v1/codex/notify', () => {
  let gw: InProcessGateway;
  const rows = () => {
    const reader = new AuditReader(join(gw.home.dir, 'audit.db'));
    try {
      return [...reader.events()].filter((e) => e.connector === 'codex');
    } finally {
      reader.close();
    }
  };
  const post = (path: string, body: unknown, token = TOKEN) =>
    fetch(`${gw.gateway.sidecarUrl}${path}`, { method: 'POST', headers: authHeaders(token), body: JSON.stringify(body) });

  before(async () => {
    gw = await startInProcess(undefined, { WARDEN_GATEWAY_TOKEN: TOKEN });
  });
  after(() => gw.close());

  it('judges the last assistant message, records it for the thread and answers the hook response', async () => {
    const response = await post('/api/v1/codex/notify', notification('All 12 tests pass now.', 'turn-1'));
    assert.equal(response.status, 200);
    const body = (await response.json()) as Json;
    assert.equal(body.action, 'allow');
    assert.deepEqual(body.native, { exit_code: 0 });
    const row = rows().find((r) => r.session_id === 'thread-7')!;
    assert.equal(row.action, 'hook-response-allow');
    assert.equal((row.structured as Json).event, 'agent-turn-complete');

    const leak = await post('/api/v1/codex/notify', notification(`Here is the key: ghp_${'Zq7'.repeat(12)}`, 'turn-2'));
    const leaked = (await leak.json()) as Json;
    assert.notEqual(leaked.action, 'allow', 'a secret in the answer is flagged');
    assert.ok(leaked.evaluation_id);
  });

  it('refuses another payload type, a connector without a notifier and a missing token', async () => {
    assert.equal((await post('/api/v1/codex/notify', { type: 'approval-requested' })).status, 400);
    const cursor = await post('/api/v1/cursor/notify', notification('x', 't'));
    assert.equal(cursor.status, 404);
    assert.equal(((await cursor.json()) as Json).code, 'WARDEN_ERR_HOOK_UNKNOWN_CONNECTOR');
    const anonymous = await fetch(`${gw.gateway.sidecarUrl}/api/v1/codex/notify`, {
      method: 'POST', headers: { 'x-warden-client': 't', 'content-type': 'application/json' }, body: JSON.stringify(notification('x', 't')),
    });
    assert.equal(anonymous.status, 401);
  });

  it("the codex hook token opens it over loopback; another connector's does not", async () => {
    const codexToken = HookTokens.issue(gw.gateway.settings.paths.hooksDir, 'codex');
    const cursorToken = HookTokens.issue(gw.gateway.settings.paths.hooksDir, 'cursor');
    await gw.gateway.restart();
    assert.equal((await post('/api/v1/codex/notify', notification('done', 'turn-3'), codexToken)).status, 200);
    assert.equal((await post('/api/v1/codex/notify', notification('done', 'turn-4'), cursorToken)).status, 401);
  });
});

describe('the notifier `warden setup codex` installs', () => {
  it('reaches the route as Codex runs it (the JSON as the last argument), through both hook scripts', async () => {
    // A real CLI gateway: setup signals it (SIGHUP) to load the codex hook token it issues.
    const home = tempHome(EPHEMERAL_CONFIG, { WARDEN_GATEWAY_TOKEN: TOKEN });
    const user = mkdtempSync(join(tmpdir(), 'warden-notify-user-'));
    try {
      const gateway = await spawnGateway(home.env);
      const env = { ...home.env, HOME: user };
      const setup = await runCli(['setup', 'codex'], env);
      assert.equal(setup.code, 0, setup.stderr);
      const config = parse(readFileSync(join(user, '.codex', 'config.toml'), 'utf8')) as { notify: string[] };
      assert.equal(config.notify.at(-1), '--notify');
      // The sh command where curl exists (what setup wrote here), and the Node one it falls back to.
      const runs = [config.notify, [process.execPath, NODE_SCRIPT, ...config.notify.slice(config.notify.indexOf('codex'))]];
      for (const [i, argv] of runs.entries()) {
        const proc = spawn(argv[0]!, [...argv.slice(1), JSON.stringify(notification('Done.', `turn-run-${i}`))], { env, stdio: 'ignore' });
        const [code] = (await once(proc, 'exit')) as [number];
        assert.equal(code, 0, argv.join(' '));
      }
      await gateway.terminate();
      const reader = new AuditReader(join(home.dir, 'audit.db'));
      const turns = [...reader.events()].filter((e) => e.connector === 'codex' && (e.structured as Json | undefined)?.event === 'agent-turn-complete');
      reader.close();
      assert.equal(turns.length, 2, 'both runs of the installed notifier are recorded');
    } finally {
      rmSync(user, { recursive: true, force: true });
      home.remove();
    }
  });
});
