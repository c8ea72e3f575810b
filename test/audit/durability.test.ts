// "Acknowledged means committed": a route that answers has its audit row committed, one bad row never takes
// other rows with it, and `kill -9` under load loses nothing that was acknowledged. Rows are read back from
// audit.db through a separate read-only connection, without asking the gateway to flush first.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { AuditReader } from '../../src/audit/reader.js';
import { AuditStore } from '../../src/audit/store.js';
import { authHeaders, spawnGateway, startInProcess, type InProcessGateway } from '../helpers/gateway.js';
import { tempHome } from '../helpers/home.js';
import { join } from 'node:path';

const TOKEN = 'durability-test-token';

/** A JSON text of `levels` nested objects, written by hand: JSON.stringify would itself overflow the stack. */
const deeplyNested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

function storedEvents(path: string) {
  const reader = new AuditReader(path);
  try {
    return [...reader.events()];
  } finally {
    reader.close();
  }
}

describe('audit rows are committed before the answer', () => {
  let gw: InProcessGateway;
  let auditDb: string;
  before(async () => {
    gw = await startInProcess(undefined, { WARDEN_GATEWAY_TOKEN: TOKEN });
    auditDb = gw.gateway.settings.paths.auditDb;
  });
  after(() => gw.close());
  const post = (path: string, body: unknown) =>
    fetch(`${gw.url}${path}`, { method: 'POST', headers: authHeaders(TOKEN), body: typeof body === 'string' ? body : JSON.stringify(body) });

  it('has the row of every answered /audit/event, inspect and hook call on disk when the answer arrives', async () => {
    for (let i = 0; i < 5; i++) {
      assert.equal((await post('/audit/event', { action: 'acked', target: `event-${i}` })).status, 200);
      assert.ok(storedEvents(auditDb).some((e) => e.target === `event-${i}`), `event-${i} committed before its answer`);
      assert.equal((await post('/api/v1/inspect/tool', { tool: 'Bash', args: { command: 'ls' }, session_id: `inspect-${i}` })).status, 200);
      assert.ok(storedEvents(auditDb).some((e) => e.session_id === `inspect-${i}`), `inspect-${i} committed before its verdict`);
      const hook = { hook_event_name: 'PreToolUse', session_id: `hook-${i}`, tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: '/tmp' };
      assert.equal((await post('/api/v1/claudecode/hook', hook)).status, 200);
      assert.ok(storedEvents(auditDb).some((e) => e.session_id === `hook-${i}`), `hook-${i} committed before its verdict`);
      assert.equal((await post('/scan/result', { skill_name: `skill-${i}`, is_safe: true, max_severity: 'NONE' })).status, 200);
      assert.ok(storedEvents(auditDb).some((e) => e.target === `skill-${i}`), `scan result ${i} committed before its answer`);
    }
  });

  it('refuses an over-deep structured field with 400 and a code, and commits the rows sent beside it', async () => {
    const good = Array.from({ length: 30 }, (_, i) => post('/audit/event', { action: 'beside-bad-row', target: `good-${i}` }));
    const bad = post('/audit/event', `{"action":"bad","structured":${deeplyNested(100_000)}}`);
    const badResult = post('/scan/result', `{"skill_name":"bad","is_safe":false,"max_severity":"HIGH","extra":${deeplyNested(100_000)}}`);
    const [badAnswer, badResultAnswer, ...goodAnswers] = await Promise.all([bad, badResult, ...good]);
    for (const answer of [badAnswer!, badResultAnswer!]) {
      assert.equal(answer.status, 400);
      const body = (await answer.json()) as { error: string; code: string };
      assert.equal(body.code, 'WARDEN_ERR_AUDIT_ROW_INVALID');
      assert.match(body.error, /nested more than 32 levels/);
    }
    assert.deepEqual(goodAnswers.map((a) => a.status), Array(30).fill(200));
    const stored = new Set(storedEvents(auditDb).map((e) => e.target));
    for (let i = 0; i < 30; i++) assert.ok(stored.has(`good-${i}`), `good-${i} kept`);
  });

  it('answers 503 with a code for a row the database refuses, and commits the others of its group', async () => {
    const db = new Database(auditDb);
    db.exec(`CREATE TRIGGER poison BEFORE INSERT ON audit_events WHEN NEW.action = 'poison'
             BEGIN SELECT RAISE(ABORT, 'poisoned row'); END`);
    db.close();
    const answers = await Promise.all([
      ...Array.from({ length: 20 }, (_, i) => post('/audit/event', { action: 'beside-poison', target: `neighbour-${i}` })),
      post('/audit/event', { action: 'poison' }),
    ]);
    const poisoned = answers.pop()!;
    assert.equal(poisoned.status, 503);
    assert.deepEqual(await poisoned.json(), { error: 'audit write failed: poisoned row', code: 'WARDEN_ERR_AUDIT_WRITE_FAILED' });
    assert.deepEqual(answers.map((a) => a.status), Array(20).fill(200));
    const stored = new Set(storedEvents(auditDb).map((e) => e.target));
    for (let i = 0; i < 20; i++) assert.ok(stored.has(`neighbour-${i}`), `neighbour-${i} kept`);
    const health = (await (await fetch(`${gw.url}/health`)).json()) as { subsystems: { audit: { state: string } } };
    assert.equal(health.subsystems.audit.state, 'degraded');
  });

  it('stores secrets in caller-supplied text redacted, as verdict evidence is', async () => {
    const pat = `ghp_${'Zq7'.repeat(12)}`;
    const anthropic = `sk-ant-api03-${'x9Y_'.repeat(20)}AA`;
    assert.equal((await post('/audit/event', {
      action: 'redaction-check', target: `clone with ${pat}`, details: `the token is ${pat}`,
      structured: { nested: { list: [`key=${anthropic}`] }, [pat]: 'as a key' },
    })).status, 200);
    assert.equal((await post('/scan/result', {
      skill_name: 'redaction-skill', is_safe: false, max_severity: 'HIGH', findings: [{ snippet: `export GITHUB_TOKEN=${pat}` }],
    })).status, 200);
    const rows = storedEvents(auditDb).filter((e) => e.action === 'redaction-check' || e.target === 'redaction-skill');
    assert.equal(rows.length, 2);
    const text = JSON.stringify(rows);
    assert.doesNotMatch(text, /ghp_Zq7/, 'the GitHub token is not stored');
    assert.doesNotMatch(text, /sk-ant-api03-x9Y/, 'the Anthropic key is not stored');
    assert.match(rows[0]!.details!, /^the token is <redacted len=40 sha=[0-9a-f]{8}>$/);
    assert.match(text, /key=<redacted len=\d+ sha=[0-9a-f]{8}>/);
  });
});

describe('audit store group commit', () => {
  const home = tempHome();
  after(() => home.remove());

  it('settles each append with its own row: a refused row rejects, its neighbours in the batch resolve', async () => {
    const path = join(home.dir, 'group.db');
    const errors: Error[] = [];
    const store = new AuditStore(path, (err) => errors.push(err));
    const db = new Database(path);
    db.exec(`CREATE TRIGGER poison BEFORE INSERT ON audit_events WHEN NEW.action = 'poison' BEGIN SELECT RAISE(ABORT, 'no'); END`);
    db.close();
    // Appended in one tick: one group.
    const first = store.append({ action: 'first' });
    const poison = store.append({ action: 'poison' });
    const last = store.append({ action: 'last' });
    await assert.rejects(poison, { code: 'WARDEN_ERR_AUDIT_WRITE_FAILED' });
    await Promise.all([first, last]);
    assert.equal(errors.length, 1);
    await store.close();
    assert.deepEqual(storedEvents(path).map((e) => e.action), ['first', 'last']);
  });

  it('refuses a row it cannot serialise when it is appended, not when its batch commits', async () => {
    const store = new AuditStore(join(home.dir, 'refuse.db'));
    const neighbour = store.append({ action: 'neighbour' });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    assert.throws(() => store.append({ action: 'cyclic', structured: cyclic }), { code: 'WARDEN_ERR_AUDIT_ROW_INVALID' });
    assert.throws(() => store.append({ action: 'huge', structured: { text: 'x'.repeat(300 * 1024) } }), /at most 262144 are stored/);
    await neighbour;
    await store.close();
    assert.deepEqual(storedEvents(join(home.dir, 'refuse.db')).map((e) => e.action), ['neighbour']);
  });
});

describe('kill -9 under load', () => {
  it('loses no row whose request was answered', async () => {
    const home = tempHome(undefined, { WARDEN_GATEWAY_TOKEN: TOKEN, WARDEN_LOG_LEVEL: 'silent' });
    after(() => home.remove());
    const gateway = await spawnGateway(home.env);
    const acknowledged: string[] = [];
    let stop = false;
    let counter = 0;
    const send = async (): Promise<void> => {
      const id = `row-${counter++}`;
      const kind = counter % 3;
      const [path, body] = kind === 0
        ? ['/audit/event', { action: 'load', target: id }]
        : kind === 1
          ? ['/api/v1/inspect/tool', { tool: 'Bash', args: { command: `echo ${id}` }, session_id: id }]
          : ['/api/v1/claudecode/hook', { hook_event_name: 'PreToolUse', session_id: id, tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: '/tmp' }];
      const response = await fetch(`${gateway.sidecar}${path}`, { method: 'POST', headers: authHeaders(TOKEN), body: JSON.stringify(body) });
      await response.arrayBuffer();
      if (response.status === 200) acknowledged.push(id);
    };
    const client = async () => {
      while (!stop) await send().catch(() => {}); // after the kill, requests fail: not acknowledged
    };
    const clients = Array.from({ length: 16 }, client);
    while (acknowledged.length < 1500) await new Promise((r) => setTimeout(r, 20));
    gateway.proc.kill('SIGKILL');
    stop = true;
    await Promise.all(clients);
    const stored = new Set(storedEvents(join(home.dir, 'audit.db')).flatMap((e) => [e.target, e.session_id]));
    const lost = acknowledged.filter((id) => !stored.has(id));
    assert.ok(acknowledged.length >= 1500);
    assert.deepEqual(lost, [], `${lost.length} of ${acknowledged.length} acknowledged rows lost`);
  });
});
