// The sidecar's network egress records over real HTTP with a real audit.db: POST appends a validated record
// (answered after its commit), GET lists them newest first under each of the spec's filters, and both refuse
// what does not fit their schema. Rows the sandbox egress proxy writes come back with its source.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { authHeaders, startInProcess, type InProcessGateway } from '../helpers/gateway.js';

describe('sidecar /api/v1/network-egress', () => {
  let gw: InProcessGateway;
  const post = (body: unknown) => fetch(`${gw.url}/api/v1/network-egress`, { method: 'POST', headers: authHeaders(gw.token), body: JSON.stringify(body) });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are checked field by field below
  const list = async (query = ''): Promise<{ status: number; body: any }> => {
    const response = await fetch(`${gw.url}/api/v1/network-egress${query}`, { headers: authHeaders(gw.token) });
    return { status: response.status, body: await response.json() };
  };
  const hosts = async (query: string) => (await list(query)).body.records.map((r: { hostname: string }) => r.hostname);

  before(async () => {
    gw = await startInProcess();
    const records = [
      { hostname: 'a.example', timestamp: '2026-01-01T00:00:00Z', session_id: 's1', agent_id: 'ag1', root_agent_id: 'r1', user_id: 'u1', method: 'GET', path: '/x' },
      { hostname: 'b.example', timestamp: '2026-02-01T00:00:00+01:00', session_id: 's2', agent_id: 'ag2', user_id: 'u2', blocked: true, reason: 'denied', details: { port: 443 } },
      { hostname: 'a.example', timestamp: '2026-03-01T00:00:00Z', session_id: 's2', root_agent_id: 'r1', source: 'warden-egress-proxy' },
    ];
    for (const record of records) {
      const response = await post(record);
      assert.equal(response.status, 200, await response.text());
    }
  });
  after(async () => gw?.close());

  it('lists records newest first with their fields', async () => {
    const { status, body } = await list();
    assert.equal(status, 200);
    assert.equal(body.count, 3);
    assert.deepEqual(body.records.map((r: { hostname: string }) => r.hostname), ['a.example', 'b.example', 'a.example']);
    const b = body.records[1];
    assert.equal(b.blocked, true);
    assert.equal(b.source, 'api');
    assert.equal(b.timestamp, '2026-01-31T23:00:00.000Z', 'an offset is brought to UTC');
    assert.deepEqual(b.details, { port: 443 });
    assert.equal(body.records[0].source, 'warden-egress-proxy');
  });

  it('filters by every field of the spec', async () => {
    assert.deepEqual(await hosts('?hostname=b.example'), ['b.example']);
    assert.equal((await list('?session_id=s2')).body.count, 2);
    assert.deepEqual(await hosts('?agent_id=ag1'), ['a.example']);
    assert.equal((await list('?root_agent_id=r1')).body.count, 2);
    assert.deepEqual(await hosts('?user_id=u2'), ['b.example']);
    assert.deepEqual(await hosts('?blocked=true'), ['b.example']);
    assert.equal((await list('?blocked=false')).body.count, 2);
    assert.equal((await list('?since=2026-01-15T00:00:00Z')).body.count, 2);
    assert.equal((await list('?since=2026-03-01T01:00:00%2B01:00')).body.count, 1, 'since with an offset');
    assert.equal((await list('?limit=1')).body.count, 1);
    assert.equal((await list('?hostname=a.example&session_id=s2')).body.count, 1, 'filters combine');
  });

  it('refuses bad queries and bodies', async () => {
    assert.equal((await list('?since=yesterday')).status, 400);
    assert.equal((await list('?blocked=maybe')).status, 400);
    assert.equal((await list('?colour=red')).status, 400);
    assert.equal((await post({})).status, 400, 'hostname is required');
    assert.equal((await post({ hostname: 'x.example', extra: 1 })).status, 400, 'unknown fields are refused');
    assert.equal((await post({ hostname: 'x y' })).status, 400);
    assert.equal((await post({ hostname: 'x.example', method: 'GET /' })).status, 400);
    const unauthenticated = await fetch(`${gw.url}/api/v1/network-egress`);
    assert.equal(unauthenticated.status, 401);
    assert.equal((await list()).body.count, 3, 'nothing refused was recorded');
  });
});
