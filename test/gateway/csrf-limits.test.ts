import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startInProcess, type InProcessGateway } from '../helpers/gateway.js';

const TOKEN = 'csrf-test-token';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const GOOD = { ...AUTH, 'x-warden-client': 'test', 'content-type': 'application/json' };
const EVENT = JSON.stringify({ action: 'csrf-test' });

describe('CSRF guard and request limits', () => {
  let gw: InProcessGateway;
  before(async () => {
    gw = await startInProcess(undefined, { WARDEN_GATEWAY_TOKEN: TOKEN });
  });
  after(() => gw.close());

  const post = (headers: Record<string, string>, body: string | Blob = EVENT, method = 'POST', path = '/audit/event') =>
    fetch(`${gw.url}${path}`, { method, headers, body: method === 'OPTIONS' ? undefined : body });

  it('accepts a well-formed mutation', async () => {
    const response = await post(GOOD);
    assert.equal(response.status, 200);
    assert.equal(((await response.json()) as { status: string }).status, 'ok');
  });

  it('needs a non-empty X-Warden-Client on every non-GET/HEAD request (403)', async () => {
    const noClient = { ...AUTH, 'content-type': 'application/json' };
    assert.equal((await post(noClient)).status, 403);
    assert.equal((await post({ ...GOOD, 'x-warden-client': '  ' })).status, 403);
    assert.equal((await post(noClient, '', 'OPTIONS')).status, 403);
  });

  it('needs Content-Type: application/json on POST, PUT, PATCH and DELETE (415)', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      assert.equal((await post({ ...GOOD, 'content-type': 'text/plain' }, EVENT, method)).status, 415, method);
    }
    const noType = { ...AUTH, 'x-warden-client': 'test' };
    assert.equal((await fetch(`${gw.url}/audit/event`, { method: 'POST', headers: noType })).status, 415);
    assert.equal((await post({ ...GOOD, 'content-type': 'application/json; charset=utf-8' })).status, 200);
  });

  it('lets OPTIONS through with only the client header', async () => {
    const response = await post({ ...AUTH, 'x-warden-client': 'test' }, '', 'OPTIONS');
    assert.equal(response.status, 404, 'past the guard, to the router (no OPTIONS route), not 403 or 415');
  });

  it('refuses a non-local Origin and accepts local ones', async () => {
    for (const origin of ['https://evil.example', 'http://127.0.0.1.evil.example', 'null', 'http://10.0.0.1:18970']) {
      assert.equal((await post({ ...GOOD, origin })).status, 403, origin);
    }
    for (const origin of ['http://127.0.0.1:18970', 'http://localhost:3000', 'http://[::1]:8080']) {
      assert.equal((await post({ ...GOOD, origin })).status, 200, origin);
    }
  });

  it('refuses Sec-Fetch-Site cross-site and same-site', async () => {
    assert.equal((await post({ ...GOOD, 'sec-fetch-site': 'cross-site' })).status, 403);
    assert.equal((await post({ ...GOOD, 'sec-fetch-site': 'same-site' })).status, 403);
    assert.equal((await post({ ...GOOD, 'sec-fetch-site': 'same-origin' })).status, 200);
  });

  it('does not apply CSRF rules to GET', async () => {
    const response = await fetch(`${gw.url}/alerts`, { headers: { ...AUTH, origin: 'https://evil.example' } });
    assert.equal(response.status, 200);
  });

  it('answers 413 for a body of 1 MiB + 1 byte, and reads one of exactly 1 MiB', async () => {
    const MiB = 1024 * 1024;
    const over = await post(GOOD, new Blob([' '.repeat(MiB + 1)]));
    assert.equal(over.status, 413);
    const refusal = (await over.json()) as { error: unknown; code: unknown };
    assert.ok(typeof refusal.error === 'string');
    assert.equal(refusal.code, 'WARDEN_ERR_REQUEST_TOO_LARGE');
    // Exactly 1 MiB of valid JSON reaches validation (400 for the oversized field), not the size limit.
    const padding = MiB - JSON.stringify({ action: 'x', details: '' }).length;
    const exact = JSON.stringify({ action: 'x', details: 'a'.repeat(padding) });
    assert.equal(Buffer.byteLength(exact), MiB);
    assert.equal((await post(GOOD, exact)).status, 400);
  });

  it('answers malformed JSON with 400 {error, code} and no stack trace', async () => {
    const response = await post(GOOD, '{"action": ');
    assert.equal(response.status, 400);
    const body = (await response.json()) as Record<string, unknown>;
    assert.deepEqual(Object.keys(body), ['error', 'code']);
    assert.equal(body.code, 'WARDEN_ERR_REQUEST_INVALID');
    assert.doesNotMatch(String(body.error), /at .*\.js:\d+/);
  });

  it('answers an invalid body with 400 naming the problem', async () => {
    const unknownField = await post(GOOD, JSON.stringify({ action: 'x', nope: 1 }));
    assert.equal(unknownField.status, 400);
    assert.match(((await unknownField.json()) as { error: string }).error, /additional properties/);
    assert.equal((await post(GOOD, JSON.stringify({ severity: 'HIGH' }))).status, 400, 'action is required');
    assert.equal((await post(GOOD, JSON.stringify({ action: 'x', severity: 'SEVERE' }))).status, 400);
  });

  it('answers an unknown route with 404 {error, code}', async () => {
    const response = await fetch(`${gw.url}/no/such/route`, { headers: AUTH });
    assert.equal(response.status, 404);
    assert.deepEqual(await response.json(), { error: 'no route GET /no/such/route', code: 'WARDEN_ERR_REQUEST_NO_ROUTE' });
  });

  it('tags every answer with a request id', async () => {
    const a = (await fetch(`${gw.url}/health`)).headers.get('x-request-id');
    const b = (await fetch(`${gw.url}/health`)).headers.get('x-request-id');
    assert.ok(a && b && a !== b);
  });
});
