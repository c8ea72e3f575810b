// Unauthenticated traffic cannot fill the audit trail: refused proxy requests are tallied into one
// `proxy-auth-failed` row per client network and minute, with the count and redacted client details.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AuditReader } from '../../src/audit/reader.js';
import type { NewAuditEvent } from '../../src/audit/store.js';
import { AuthFailureTally } from '../../src/proxy/auth-failures.js';
import { startInProcess } from '../helpers/gateway.js';

describe('refused proxy requests in the audit trail', () => {
  test('300 refused requests from one client leave one row with their count, and no credential', async () => {
    const gw = await startInProcess();
    const proxy = gw.gateway.proxyUrl;
    const auditDb = gw.gateway.settings.paths.auditDb;
    try {
      for (let round = 0; round < 30; round++) {
        const answers = await Promise.all(Array.from({ length: 10 }, (_, i) =>
          fetch(`${proxy}/v1/chat/completions`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-warden-auth': `Bearer wrong-${round}-${i}`, 'user-agent': 'OpenAI/JS 6.1.0 extra' },
            body: '{"model":"m","messages":[]}',
          })));
        assert.deepEqual(answers.map((a) => a.status), Array(10).fill(401));
      }
    } finally {
      await gw.gateway.stop(); // the minute's tally is written when the gateway stops
    }
    const reader = new AuditReader(auditDb);
    const rows = [...reader.events()].filter((e) => e.action === 'proxy-auth-failed');
    reader.close();
    gw.home.remove();
    // A minute boundary may fall inside the loop: then the count is split over two rows.
    assert.ok(rows.length === 1 || rows.length === 2, `${rows.length} rows`);
    const structured = rows.map((r) => r.structured as { client_ip: string; count: number; user_agents: string[]; reasons: Record<string, number>; paths: string[] });
    assert.equal(structured.reduce((sum, s) => sum + s.count, 0), 300);
    assert.equal(rows[0]!.target, '127.0.0.0/24');
    assert.deepEqual(structured[0]!.user_agents, ['OpenAI/JS']);
    assert.deepEqual(structured[0]!.paths, ['/v1/chat/completions']);
    assert.match(Object.keys(structured[0]!.reasons)[0]!, /invalid gateway token/);
    assert.doesNotMatch(JSON.stringify(rows), /wrong-/, 'the presented credentials are not recorded');
  });

  test('a row per network and minute, written when the minute is over; networks beyond the bound share one row', () => {
    const written: NewAuditEvent[] = [];
    let now = Date.UTC(2026, 10, 25, 12, 0, 5);
    const tally = new AuthFailureTally((event) => written.push(event), () => now);
    const refuse = (network: string, reason = 'invalid gateway token') => tally.count({ network, reason, path: '/v1/models', userAgent: 'curl/8.5.0' });
    refuse('192.0.2.0/24');
    refuse('192.0.2.0/24', 'no credential');
    refuse('198.51.100.0/24');
    assert.equal(written.length, 0, 'nothing is written while the minute lasts');
    now += 60_000;
    refuse('192.0.2.0/24');
    const counts = (rows: NewAuditEvent[]) => rows.map((r) => [r.target, (r.structured as { count: number }).count]);
    assert.deepEqual(counts(written), [['192.0.2.0/24', 2], ['198.51.100.0/24', 1]]);
    assert.deepEqual((written[0]!.structured as { reasons: object }).reasons, { 'invalid gateway token': 1, 'no credential': 1 });
    assert.equal((written[0]!.structured as { window_start: string }).window_start, '2026-11-25T12:00:00.000Z');
    written.length = 0;
    tally.count({ network: '203.0.113.0/24', reason: 'no credential', path: `/${'p'.repeat(20_000)}`, userAgent: '' });
    tally.flush();
    const longPath = written.find((r) => r.target === '203.0.113.0/24')!;
    assert.equal((longPath.structured as { paths: string[] }).paths[0]!.length, 256, 'a caller-chosen path is cut');
    written.length = 0;
    for (let i = 0; i < 1500; i++) refuse(`10.${i >> 8}.${i & 255}.0/24`);
    tally.flush();
    // 1000 new networks fill the bound (the flush above emptied the tally); 500 share `other`.
    assert.equal(written.length, 1001, 'the first 1000 networks and one shared row');
    assert.deepEqual(counts(written).at(-1), ['other', 500]);
  });
});
