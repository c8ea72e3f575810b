// Runtime control over real HTTP: the shutdown route's refusals (another address, another pid, another data
// directory) in process, and its success against the real CLI gateway, which exits 0 after answering (after a
// restart a connector change asked for, which prints a new ready line); the canary,
// the watchdog's recovery record, the destination-test recorder (loopback and the exact client marker) and the CLI
// events, each with its audit row.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { once } from 'node:events';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AuditReader } from '../../src/audit/reader.js';
import { dataDirIdentity } from '../../src/config/data-dir-identity.js';
import { authHeaders, spawnGateway, startInProcess, type InProcessGateway } from '../helpers/gateway.js';
import { EPHEMERAL_CONFIG, tempHome } from '../helpers/home.js';

const TOKEN = 'runtime-control-token';
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers are probed field by field
type Json = Record<string, any>;

/** This machine's first non-loopback IPv4 address: requests to it from here arrive from a non-loopback address. */
function remoteAddress(): string {
  const found = Object.values(networkInterfaces()).flat().find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
  assert.ok(found, 'this test needs a non-loopback IPv4 address on the machine');
  return found;
}

async function post(base: string, path: string, body?: unknown, headers: Record<string, string> = authHeaders(TOKEN)): Promise<{ status: number; json: Json }> {
  const response = await fetch(`${base}${path}`, { method: 'POST', headers, body: body === undefined ? '' : JSON.stringify(body) });
  return { status: response.status, json: (await response.json()) as Json };
}

const auditRows = (home: string) => {
  const reader = new AuditReader(join(home, 'audit.db'));
  try {
    return [...reader.events()];
  } finally {
    reader.close();
  }
};

describe('runtime control routes', () => {
  let gw: InProcessGateway;
  let remote: string;
  before(async () => {
    // Bound to every address, so a request to this machine's LAN address arrives from a non-loopback one.
    gw = await startInProcess(EPHEMERAL_CONFIG.replace('api_port: 0', 'api_port: 0\n  api_bind: 0.0.0.0'), { WARDEN_GATEWAY_TOKEN: TOKEN });
    remote = `http://${remoteAddress()}:${new URL(gw.url).port}`;
  });
  after(() => gw.close());

  it('GET /status reports the data directory identity the shutdown route asks for', async () => {
    const status = (await (await fetch(`${gw.url}/status`, { headers: authHeaders(TOKEN) })).json()) as Json;
    assert.match(status.runtime.data_dir_id, /^[0-9a-f]{32}$/);
    assert.equal(status.runtime.data_dir_id, dataDirIdentity(gw.home.dir));
    const other = tempHome();
    try {
      assert.notEqual(dataDirIdentity(other.dir), status.runtime.data_dir_id);
    } finally {
      other.remove();
    }
  });

  it('shutdown is refused from a non-loopback address, for another pid and for another data directory', async () => {
    const id = dataDirIdentity(gw.home.dir);
    const fromLan = await post(remote, '/api/v1/admin/shutdown', { pid: process.pid, data_dir_id: id });
    assert.equal(fromLan.status, 403);
    assert.equal(fromLan.json.code, 'WARDEN_ERR_RUNTIME_LOOPBACK_ONLY');
    const wrongPid = await post(gw.url, '/api/v1/admin/shutdown', { pid: process.pid + 1, data_dir_id: id });
    assert.equal(wrongPid.status, 409);
    assert.equal(wrongPid.json.code, 'WARDEN_ERR_RUNTIME_PID_MISMATCH');
    const wrongDir = await post(gw.url, '/api/v1/admin/shutdown', { pid: process.pid, data_dir_id: '0'.repeat(32) });
    assert.equal(wrongDir.status, 409);
    assert.equal(wrongDir.json.code, 'WARDEN_ERR_RUNTIME_DATA_DIR_MISMATCH');
    assert.equal((await post(gw.url, '/api/v1/admin/shutdown', { pid: process.pid })).status, 400);
    assert.equal((await post(gw.url, '/api/v1/admin/shutdown')).status, 400, 'the body is required');
    const noToken = await post(gw.url, '/api/v1/admin/shutdown', { pid: process.pid, data_dir_id: id }, { 'x-warden-client': 't', 'content-type': 'application/json' });
    assert.equal(noToken.status, 401);
    assert.equal((await fetch(`${gw.url}/health`)).status, 200, 'still running');
  });

  it('the canary answers its trace id and records it', async () => {
    const { status, json } = await post(gw.url, '/api/v1/telemetry/canary');
    assert.equal(status, 200);
    assert.match(json.trace_id, /^[0-9a-f]{32}$/);
    assert.match(json.span_id, /^[0-9a-f]{16}$/);
    const named = await post(gw.url, '/api/v1/telemetry/canary', { name: 'deploy-check' });
    assert.equal(named.status, 200);
    const row = auditRows(gw.home.dir).find((r) => r.trace_id === named.json.trace_id)!;
    assert.equal(row.action, 'telemetry-canary');
    assert.deepEqual(row.structured, { span_id: named.json.span_id, name: 'deploy-check' });
    assert.equal((await post(gw.url, '/api/v1/telemetry/canary', { name: 'x', extra: 1 })).status, 400);
  });

  it('the watchdog recovery is recorded over loopback only, with or without a body', async () => {
    assert.equal((await post(gw.url, '/api/v1/watchdog/recovery')).status, 200);
    const withBody = await post(gw.url, '/api/v1/watchdog/recovery', { component: 'sidecar', reason: 'health check recovered', downtime_ms: 4200 });
    assert.deepEqual(withBody, { status: 200, json: { status: 'ok' } });
    const fromLan = await post(remote, '/api/v1/watchdog/recovery');
    assert.equal(fromLan.status, 403);
    assert.equal(fromLan.json.code, 'WARDEN_ERR_RUNTIME_LOOPBACK_ONLY');
    assert.equal((await post(gw.url, '/api/v1/watchdog/recovery', { downtime_ms: -5 })).status, 400);
    const rows = auditRows(gw.home.dir).filter((r) => r.action === 'watchdog-recovery');
    assert.equal(rows.length, 2);
    assert.ok(rows.some((r) => (r.structured as Json).downtime_ms === 4200));
  });

  it('destination-test activity: loopback and exactly one X-Warden-Client: python-cli', async () => {
    const path = '/api/v1/observability/destination-test/activity';
    const started = { phase: 'started', destination: 'soc-splunk', probe_id: 'probe-1', mode: 'handshake' };
    const finished = { ...started, phase: 'finished', result: 'failed', failure_class: 'timeout', latency_ms: 5000 };
    const cli = authHeaders(TOKEN, { 'x-warden-client': 'python-cli' });
    assert.deepEqual(await post(gw.url, path, started, cli), { status: 200, json: { status: 'ok' } });
    assert.equal((await post(gw.url, path, finished, cli)).status, 200);
    for (const marker of ['test', 'Python-CLI', 'python-cli2']) {
      const refused = await post(gw.url, path, started, authHeaders(TOKEN, { 'x-warden-client': marker }));
      assert.equal(refused.status, 403, marker);
      assert.equal(refused.json.code, 'WARDEN_ERR_RUNTIME_CLIENT_MARKER');
    }
    const twice = new Headers(authHeaders(TOKEN));
    twice.set('x-warden-client', 'python-cli');
    twice.append('x-warden-client', 'python-cli');
    assert.equal((await fetch(`${gw.url}${path}`, { method: 'POST', headers: twice, body: JSON.stringify(started) })).status, 403, 'a repeated header is not the exact marker');
    assert.equal((await post(remote, path, started, cli)).status, 403, 'loopback only');
    const contradictory = await post(gw.url, path, { ...started, result: 'succeeded' }, cli);
    assert.equal(contradictory.status, 400);
    assert.equal(contradictory.json.code, 'WARDEN_ERR_RUNTIME_ACTIVITY_INVALID');
    assert.equal((await post(gw.url, path, { ...finished, result: 'succeeded' }, cli)).status, 400, 'a failure class without a failure');
    const rows = auditRows(gw.home.dir).filter((r) => r.action.startsWith('observability-destination-test'));
    assert.deepEqual(rows.map((r) => r.action), ['observability-destination-test-started', 'observability-destination-test-finished']);
    assert.equal(rows[1]!.target, 'soc-splunk');
  });

  it('CLI events are validated and each recorded', async () => {
    const events = [
      { event: 'command.started', command: 'setup codex', session_id: 'cli-1' },
      { event: 'command.finished', command: 'setup codex', outcome: 'ok', exit_code: 0, duration_ms: 812.5, attributes: { 'connector.name': 'codex', dry_run: false } },
    ];
    assert.deepEqual(await post(gw.url, '/api/v1/observability/cli', { events }), { status: 200, json: { status: 'ok', accepted: 2 } });
    const rows = auditRows(gw.home.dir).filter((r) => r.action.startsWith('cli-'));
    assert.deepEqual(rows.map((r) => r.action), ['cli-command.started', 'cli-command.finished']);
    assert.equal((rows[1]!.structured as Json).attributes['connector.name'], 'codex');
    for (const bad of [{ events: [] }, { events: [{ event: 'Bad Name', command: 'x' }] }, { events: Array(101).fill(events[0]) }, { events: [{ ...events[1], exit_code: 300 }] }]) {
      assert.equal((await post(gw.url, '/api/v1/observability/cli', bad)).status, 400);
    }
  });
});

describe('restart and shutdown requested through the API, against the real CLI gateway', () => {
  it('a connector change restarts it (a new ready line); a shutdown answers 202, then it drains, records it and exits 0', async () => {
    const home = tempHome(EPHEMERAL_CONFIG, { WARDEN_GATEWAY_TOKEN: TOKEN });
    try {
      const gateway = await spawnGateway(home.env);
      const exited = once(gateway.proc, 'exit');
      const readyAgain = new Promise<string>((resolve) => {
        gateway.proc.stdout.on('data', (chunk: Buffer) => {
          const match = /^ready sidecar=(\S+) proxy=\S+$/m.exec(chunk.toString());
          if (match) resolve(match[1]!);
        });
      });
      const patched = await fetch(`${gateway.sidecar}/v1/guardrail/config`, { method: 'PATCH', headers: authHeaders(TOKEN), body: JSON.stringify({ connector: 'codex' }) });
      assert.equal(patched.status, 202);
      const sidecar = await readyAgain;
      assert.notEqual(sidecar, gateway.sidecar, 'rebound on a new ephemeral port');
      const status = (await (await fetch(`${sidecar}/status`, { headers: authHeaders(TOKEN) })).json()) as Json;
      assert.equal(status.connector_mode.connector, 'codex');
      assert.equal(status.runtime.pid, gateway.proc.pid);
      const answer = await post(sidecar, '/api/v1/admin/shutdown', { pid: status.runtime.pid, data_dir_id: status.runtime.data_dir_id });
      assert.deepEqual(answer, { status: 202, json: { status: 'shutting_down', pid: gateway.proc.pid } });
      const [code] = (await exited) as [number | null];
      assert.equal(code, 0);
      assert.equal(existsSync(join(home.dir, 'gateway.json')), false, 'the process record is removed');
      assert.ok(auditRows(home.dir).some((r) => r.action === 'admin-shutdown'), 'the request is in the audit trail');
    } finally {
      home.remove();
    }
  });
});
