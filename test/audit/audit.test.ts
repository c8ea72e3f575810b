import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { openAuditDatabase } from '../../src/audit/database.js';
import { AUDIT_MIGRATIONS } from '../../src/audit/migrations.js';
import { AuditReader } from '../../src/audit/reader.js';
import { AuditStore } from '../../src/audit/store.js';
import { authHeaders, runCli, startInProcess, type InProcessGateway } from '../helpers/gateway.js';
import { tempHome } from '../helpers/home.js';
import { join } from 'node:path';

const TOKEN = 'audit-test-token';

describe('audit routes', () => {
  let gw: InProcessGateway;
  before(async () => {
    gw = await startInProcess(undefined, { WARDEN_GATEWAY_TOKEN: TOKEN });
  });
  after(() => gw.close());

  const append = async (event: Record<string, unknown>) => {
    const response = await fetch(`${gw.url}/audit/event`, { method: 'POST', headers: authHeaders(TOKEN), body: JSON.stringify(event) });
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { status: 'ok' });
  };
  const alerts = async (query = '') => {
    const response = await fetch(`${gw.url}/alerts${query}`, { headers: authHeaders(TOKEN) });
    return { status: response.status, body: (await response.json()) as { alerts: { action: string; severity: string }[] } };
  };

  it('stores every field of an event and shows finding rows as alerts, newest first', async () => {
    const event = {
      action: 'inspect-tool-block', target: 'Bash', actor: 'agent', severity: 'HIGH', details: 'rm -rf /',
      structured: { rule_ids: ['CMD-1'] }, connector: 'claudecode', session_id: 's1', trace_id: 't1', evaluation_id: 'e1',
      timestamp: '2026-01-02T03:04:05.000Z',
    };
    await append(event);
    await append({ action: 'informational', severity: 'INFO' });
    await append({ action: 'second-alert', severity: 'LOW' });
    const { body } = await alerts();
    assert.deepEqual(body.alerts.slice(0, 2).map((a) => a.action), ['second-alert', 'inspect-tool-block']);
    assert.ok(!body.alerts.some((a) => a.action === 'informational'), 'INFO events are not alerts');
    const { id, ...stored } = body.alerts[1] as unknown as { id: string };
    assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, 'a time-ordered UUIDv7');
    assert.deepEqual(stored, event);
  });

  it('defaults the alerts page to 50 (also for limit=0) and caps it at 500', async () => {
    for (let i = 0; i < 120; i++) {
      const batch = Array.from({ length: 5 }, (_, j) => append({ action: `alert-${i * 5 + j}`, severity: 'MEDIUM' }));
      await Promise.all(batch);
    }
    assert.equal((await alerts()).body.alerts.length, 50);
    assert.equal((await alerts('?limit=7')).body.alerts.length, 7);
    assert.equal((await alerts('?limit=1000')).body.alerts.length, 500);
    assert.equal((await alerts('?limit=0')).body.alerts.length, 50, 'limit=0 means the default, as on the other list routes');
    assert.equal((await alerts('?limit=abc')).status, 400);
  });
});

describe('audit store', () => {
  const home = tempHome();
  after(() => home.remove());
  let files = 0;
  /** A fresh audit.db path for each test. */
  const freshPath = () => join(home.dir, `audit-${++files}.db`);

  it('refuses a database written by a newer schema', () => {
    const path = freshPath();
    const db = openAuditDatabase(path);
    db.pragma('user_version = 99');
    db.close();
    assert.throws(() => new AuditStore(path), /schema version 99 is newer/);
    assert.throws(() => new AuditReader(path), /schema version 99 is newer/);
  });

  it('moves the rows of a version 1 database, ids and order kept, to the sequence-keyed table', async () => {
    const path = freshPath();
    const v1 = new Database(path);
    v1.exec(AUDIT_MIGRATIONS[0]!);
    v1.pragma('user_version = 1');
    const insert = v1.prepare('INSERT INTO audit_events (id, timestamp, action, severity) VALUES (?, ?, ?, ?)');
    // Inserted out of id order: the rowid order (the order they were recorded) is what must survive.
    insert.run('id-b', '2026-01-01T00:00:00.000Z', 'first', 'HIGH');
    insert.run('id-a', '2026-01-01T00:00:01.000Z', 'second', 'INFO');
    v1.close();
    const store = new AuditStore(path);
    store.append({ action: 'third', severity: 'LOW' });
    assert.deepEqual((await store.recentAlerts(5)).map((e) => e.action), ['third', 'first'], 'alerts view, newest first');
    await store.close();
    const reader = new AuditReader(path);
    assert.equal(reader.schemaVersion(), AUDIT_MIGRATIONS.length);
    assert.deepEqual([...reader.events()].map((e) => [e.id.length > 10 ? 'new' : e.id, e.action]), [['id-b', 'first'], ['id-a', 'second'], ['new', 'third']]);
    reader.close();
  });

  it('keeps queued rows when closed right after appending', async () => {
    const path = freshPath();
    const store = new AuditStore(path);
    for (let i = 0; i < 2500; i++) store.append({ action: `row-${i}` });
    await store.close();
    const reader = new AuditReader(path);
    assert.equal(reader.count(), 2500);
    assert.deepEqual([...reader.events({ limit: 2 })].map((e) => e.action), ['row-2498', 'row-2499']);
    const all = [...reader.events()];
    assert.deepEqual(all.map((e) => e.action), Array.from({ length: 2500 }, (_, i) => `row-${i}`), 'every row, in append order');
    assert.equal(new Set(all.map((e) => e.id)).size, 2500, 'distinct ids');
    reader.close();
  });

  it('writes events and egress records appended in between with their own or the append time', async () => {
    const path = freshPath();
    const store = new AuditStore(path);
    const before = new Date().toISOString();
    for (let i = 0; i < 70; i++) {
      store.append({ action: `event-${i}`, structured: { i }, ...(i === 5 ? { timestamp: '2026-01-02T03:04:05.000Z' } : {}) });
      if (i % 3 === 0) store.appendEgress({ hostname: `host-${i}.example`, source: 'ts', blocked: i % 2 === 0 });
    }
    await store.close();
    const reader = new AuditReader(path);
    const events = [...reader.events()];
    assert.deepEqual(events.map((e) => e.action), Array.from({ length: 70 }, (_, i) => `event-${i}`));
    assert.deepEqual(events.map((e) => (e.structured as { i: number }).i), Array.from({ length: 70 }, (_, i) => i));
    assert.equal(events[5]!.timestamp, '2026-01-02T03:04:05.000Z', 'a given timestamp is kept');
    assert.ok(events[6]!.timestamp >= before, `append time recorded: ${events[6]!.timestamp}`);
    const egress = reader.egress();
    assert.deepEqual(egress.map((r) => r.hostname), Array.from({ length: 24 }, (_, k) => `host-${k * 3}.example`));
    assert.deepEqual(egress.slice(0, 2).map((r) => r.blocked), [true, false]);
    reader.close();
  });
});

describe('audit write failures', () => {
  it('reports a batch the writer cannot commit, and keeps writing later batches', async () => {
    const home = tempHome();
    const errors: Error[] = [];
    const store = new AuditStore(join(home.dir, 'audit.db'), (err) => errors.push(err));
    try {
      store.append({ action: null as unknown as string }); // violates NOT NULL in the database
      await assert.rejects(store.flush(), /audit write failed: NOT NULL constraint failed: audit_events\.action/);
      assert.equal(errors.length, 1);
      store.append({ action: 'after-failure', severity: 'HIGH' });
      assert.deepEqual((await store.recentAlerts(5)).map((e) => e.action), ['after-failure']);
    } finally {
      await store.close();
      home.remove();
    }
  });
});

describe('warden audit export', () => {
  it('round-trips events to JSON Lines, oldest first, with --limit and -o', async () => {
    const gw = await startInProcess(undefined, { WARDEN_GATEWAY_TOKEN: TOKEN });
    try {
      for (let i = 0; i < 5; i++) {
        await fetch(`${gw.url}/audit/event`, {
          method: 'POST', headers: authHeaders(TOKEN),
          body: JSON.stringify({ action: `e${i}`, severity: 'LOW', structured: { n: i, text: 'line\nbreak "quoted"' } }),
        });
      }
      const all = await runCli(['audit', 'export'], gw.home.env);
      assert.equal(all.code, 0, all.stderr);
      const lines = all.stdout.trim().split('\n').map((l) => JSON.parse(l) as { action: string; structured: { n: number; text: string } });
      assert.deepEqual(lines.map((l) => l.action), ['e0', 'e1', 'e2', 'e3', 'e4']);
      assert.equal(lines[2]!.structured.text, 'line\nbreak "quoted"');

      const out = join(gw.home.dir, 'export.jsonl');
      const limited = await runCli(['audit', 'export', '-o', out, '--limit', '2'], gw.home.env);
      assert.equal(limited.code, 0, limited.stderr);
      assert.match(limited.stderr, /exported 2 events/);
      const { readFileSync } = await import('node:fs');
      assert.deepEqual(readFileSync(out, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { action: string }).action), ['e3', 'e4']);

      const bad = await runCli(['audit', 'export', '--limit', '0'], gw.home.env);
      assert.equal(bad.code, 1);
      assert.match(bad.stderr, /positive integer/);
    } finally {
      await gw.close();
    }
  });
});
