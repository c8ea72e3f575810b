// Alert dispositions over real HTTP and the real CLI: the preview changes nothing, apply records one audit row per
// alert changed and stores the disposition (GET /alerts shows it), repeats change nothing, filters select, and
// `warden alerts --ack ID` acknowledges through the running gateway. Plus the upgrade of a version 2 audit.db.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { after, before, describe, it } from 'node:test';
import { AUDIT_MIGRATIONS } from '../../src/audit/migrations.js';
import { AuditReader } from '../../src/audit/reader.js';
import { AuditStore } from '../../src/audit/store.js';
import { authHeaders, runCli, startInProcess, type InProcessGateway } from '../helpers/gateway.js';
import { EPHEMERAL_CONFIG, tempHome } from '../helpers/home.js';

const TOKEN = 'alerts-disposition-token';
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers are probed field by field
type Json = Record<string, any>;

describe('POST /api/v1/alerts/disposition and GET /alerts', () => {
  let gw: InProcessGateway;
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${gw.url}${path}`, { method, headers: authHeaders(TOKEN), ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return { status: response.status, json: (await response.json()) as Json };
  };
  const alerts = async () => (await call('GET', '/alerts?limit=500')).json.alerts as Json[];
  const dispositionRows = () => {
    const reader = new AuditReader(join(gw.home.dir, 'audit.db'));
    try {
      return [...reader.events()].filter((e) => e.action === 'alert-disposition');
    } finally {
      reader.close();
    }
  };

  before(async () => {
    gw = await startInProcess(EPHEMERAL_CONFIG, { WARDEN_GATEWAY_TOKEN: TOKEN });
    for (const [action, severity, connector] of [['alert-a', 'HIGH', 'codex'], ['alert-b', 'MEDIUM', 'codex'], ['alert-c', 'LOW', 'cursor'], ['not-an-alert', 'INFO', 'codex']]) {
      assert.equal((await call('POST', '/audit/event', { action, severity, connector })).status, 200);
    }
  });
  after(() => gw.close());

  it('a preview answers what would change and changes nothing', async () => {
    const [c, , a] = await alerts();
    const { status, json } = await call('POST', '/api/v1/alerts/disposition', { alert_ids: [a!.id, c!.id, 'no-such-id'], disposition: 'acknowledged', note: 'looking' });
    assert.equal(status, 200);
    assert.equal(json.applied, false);
    assert.equal(json.matched, 2);
    assert.deepEqual(json.changes.map((ch: Json) => ch.action), ['alert-a', 'alert-c']);
    assert.deepEqual(json.not_found, ['no-such-id']);
    assert.ok((await alerts()).every((x) => x.disposition === undefined), 'no disposition stored');
    assert.equal(dispositionRows().length, 0, 'no audit row');
  });

  it('apply stores the disposition, records an audit row per alert, and a repeat changes nothing', async () => {
    const a = (await alerts()).find((x) => x.action === 'alert-a')!;
    const applied = await call('POST', '/api/v1/alerts/disposition', { alert_ids: [a.id], disposition: 'false_positive', note: 'test fixture', apply: true });
    assert.equal(applied.json.applied, true);
    assert.equal(applied.json.changes.length, 1);
    const listed = (await alerts()).find((x) => x.id === a.id)!;
    assert.equal(listed.disposition.status, 'false_positive');
    assert.equal(listed.disposition.note, 'test fixture');
    assert.equal(listed.disposition.actor, 'test');
    const rows = dispositionRows();
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.target, a.id);
    assert.equal(rows[0]!.severity, 'INFO', 'a disposition is not itself an alert');
    assert.deepEqual(rows[0]!.structured, { alert_id: a.id, disposition: 'false_positive', previous: null, note: 'test fixture' });
    const again = await call('POST', '/api/v1/alerts/disposition', { alert_ids: [a.id], disposition: 'false_positive', note: 'test fixture', apply: true });
    assert.deepEqual([again.json.changes, again.json.unchanged], [[], [a.id]]);
    assert.equal(dispositionRows().length, 1);
  });

  it('a filter selects alerts (never non-alert rows); the previous disposition is recorded', async () => {
    const preview = await call('POST', '/api/v1/alerts/disposition', { filter: { connector: 'codex' }, disposition: 'resolved' });
    assert.deepEqual(preview.json.changes.map((c: Json) => [c.action, c.previous ?? null]), [['alert-a', 'false_positive'], ['alert-b', null]]);
    const open = await call('POST', '/api/v1/alerts/disposition', { filter: { disposition: 'none', severity: ['LOW', 'MEDIUM'] }, disposition: 'resolved', apply: true });
    assert.deepEqual(open.json.changes.map((c: Json) => c.action).sort(), ['alert-b', 'alert-c']);
    assert.equal((await alerts()).filter((x) => x.disposition?.status === 'resolved').length, 2);
  });

  it('refuses both or neither of alert_ids and filter, and an unknown disposition', async () => {
    for (const body of [{ disposition: 'resolved' }, { alert_ids: ['x'], filter: {}, disposition: 'resolved' }]) {
      const { status, json } = await call('POST', '/api/v1/alerts/disposition', body);
      assert.equal(status, 400);
      assert.equal(json.code, 'WARDEN_ERR_AUDIT_DISPOSITION_TARGET');
    }
    assert.equal((await call('POST', '/api/v1/alerts/disposition', { alert_ids: ['x'], disposition: 'ignored' })).status, 400);
    assert.equal((await call('POST', '/api/v1/alerts/disposition', { alert_ids: [], disposition: 'resolved' })).status, 400);
  });

  it('`warden alerts` lists and `warden alerts --ack ID` acknowledges through the running gateway', async () => {
    const env = { ...gw.home.env, WARDEN_GATEWAY_TOKEN: TOKEN };
    await call('POST', '/audit/event', { action: 'alert-cli', severity: 'CRITICAL' });
    const target = (await alerts()).find((x) => x.action === 'alert-cli')!;
    const list = await runCli(['alerts'], env);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, new RegExp(`CRITICAL\\s+open\\s+alert-cli.*\\[${target.id}\\]`));
    const ack = await runCli(['alerts', '--ack', target.id, '--note', 'on it'], env);
    assert.equal(ack.code, 0, ack.stderr);
    assert.equal(ack.stdout, `acknowledged alert ${target.id}\n`);
    const after = (await alerts()).find((x) => x.id === target.id)!;
    assert.deepEqual([after.disposition.status, after.disposition.note, after.disposition.actor], ['acknowledged', 'on it', 'warden-cli']);
    assert.match((await runCli(['alerts', '--ack', target.id, '--note', 'on it'], env)).stdout, /already acknowledged/);
    const missing = await runCli(['alerts', '--ack', 'no-such-alert'], env);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /no alert with id no-such-alert/);
  });
});

describe('audit.db version 2 upgrade', () => {
  it('gains the dispositions table; existing alerts keep their rows and can be disposed of', async () => {
    const home = tempHome();
    try {
      const path = join(home.dir, 'audit.db');
      const v2 = new Database(path);
      v2.exec(AUDIT_MIGRATIONS[0]!);
      v2.exec(AUDIT_MIGRATIONS[1]!);
      v2.pragma('user_version = 2');
      v2.prepare('INSERT INTO audit_events (id, timestamp, action, severity) VALUES (?, ?, ?, ?)').run('old-alert', '2026-01-01T00:00:00.000Z', 'old', 'HIGH');
      v2.close();
      const store = new AuditStore(path);
      const plan = store.applyDisposition({ alertIds: ['old-alert'], disposition: 'resolved', note: '' });
      assert.equal(plan.changes.length, 1);
      const [alert] = await store.recentAlerts(1);
      assert.equal(alert!.disposition!.status, 'resolved');
      await store.close();
      const reader = new AuditReader(path);
      assert.equal(reader.schemaVersion(), AUDIT_MIGRATIONS.length);
      reader.close();
    } finally {
      home.remove();
    }
  });
});
