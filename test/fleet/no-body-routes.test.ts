// POST /devices/{id}/rotate-key and POST /token/rotate take no body (spec document 2). A client must still
// send Content-Type: application/json (the sidecar's CSRF guard wants it on every POST), so an empty body
// with that type is accepted there, `{}` too; a body with fields is refused. Other JSON routes keep refusing
// an empty JSON body.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { compositeId } from '../../src/fleet/ids.js';
import { startInProcess, type InProcessGateway } from '../helpers/gateway.js';

const ADMIN = 'fleet-admin-token-0123456789abcdef';
const CONFIG = `config_version: 9
gateway:
  api_port: 0
guardrail:
  port: 0
fleet:
  enabled: true
  mqtt:
    embedded_port: 0
`;

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** A POST with a JSON content type and exactly `body` on the wire (`''`: Content-Length 0, `'chunked'`: an empty chunked body). */
function post(base: string, path: string, token: string, body: string | 'chunked'): Promise<Answer> {
  const chunked = body === 'chunked';
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'x-warden-client': 'test',
        'content-type': 'application/json',
        ...(chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': Buffer.byteLength(body) }),
      },
    }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) }));
    });
    req.on('error', reject);
    req.end(chunked ? undefined : body);
  });
}

describe('fleet routes without a body', () => {
  let gw: InProcessGateway;
  const fleet = (path: string) => `/api/v1/fleet${path}`;
  const register = async (deviceId: number) => {
    const created = await post(gw.url, fleet('/devices'), ADMIN, JSON.stringify({ tenant_id: 3, fleet_id: 1, device_id: deviceId }));
    assert.equal(created.status, 201);
    return compositeId({ tenant_id: 3, fleet_id: 1, device_id: deviceId }).toString();
  };

  before(async () => (gw = await startInProcess(CONFIG, { WARDEN_FLEET_API_TOKEN: ADMIN })));
  after(() => gw.close());

  test('rotate-key with Content-Type: application/json and an empty body rotates the key', async () => {
    const id = await register(11);
    const rotated = await post(gw.url, fleet(`/devices/${id}/rotate-key`), ADMIN, '');
    assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
    assert.equal(rotated.body.status, 'rotated');
    assert.equal(rotated.body.device_id, id);
    assert.match(String(rotated.body.device_key), /^[0-9a-f]{64}$/);
  });

  test('rotate-key with an empty chunked body, and with `{}`, is accepted too', async () => {
    const chunked = await post(gw.url, fleet(`/devices/${await register(12)}/rotate-key`), ADMIN, 'chunked');
    assert.equal(chunked.status, 200, JSON.stringify(chunked.body));
    const emptyObject = await post(gw.url, fleet(`/devices/${await register(13)}/rotate-key`), ADMIN, '{}');
    assert.equal(emptyObject.status, 200, JSON.stringify(emptyObject.body));
  });

  test('rotate-key with a body that carries something is 400 and rotates nothing', async () => {
    const id = await register(14);
    for (const body of ['{"device_key":"00"}', '[]', 'null', '"x"', '{"a":']) {
      const refused = await post(gw.url, fleet(`/devices/${id}/rotate-key`), ADMIN, body);
      assert.equal(refused.status, 400, `${body}: ${JSON.stringify(refused.body)}`);
      assert.equal(typeof refused.body.error, 'string');
    }
    assert.equal((await post(gw.url, fleet(`/devices/${id}/rotate-key`), ADMIN, JSON.stringify({ pad: 'x'.repeat(4096) }))).status, 413);
    // The token check still runs before anything is read.
    assert.equal((await post(gw.url, fleet(`/devices/${id}/rotate-key`), 'wrong-token', '')).status, 401);
    assert.equal((await post(gw.url, fleet('/token/rotate'), 'wrong-token', '')).status, 401);
    // Nothing was rotated, so the once-a-minute limit has not been used up.
    assert.equal((await post(gw.url, fleet(`/devices/${id}/rotate-key`), ADMIN, '')).status, 200);
  });

  test('other JSON routes still refuse an empty JSON body (fleet and sidecar)', async () => {
    const registerEmpty = await post(gw.url, fleet('/devices'), ADMIN, '');
    assert.equal(registerEmpty.status, 400);
    const pushEmpty = await post(gw.url, fleet('/policy/push'), ADMIN, '');
    assert.equal(pushEmpty.status, 400);
    const auditEmpty = await post(gw.url, '/audit/event', gw.token, '');
    assert.equal(auditEmpty.status, 400);
  });

  test('token/rotate with an empty body: a refused body first, then a new admin token and the old one gone', async () => {
    const refused = await post(gw.url, fleet('/token/rotate'), ADMIN, '{"token":"mine"}');
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    const rotated = await post(gw.url, fleet('/token/rotate'), ADMIN, '');
    assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
    const token = String(rotated.body.token);
    assert.match(token, /^[0-9a-f]{64}$/);
    const list = (t: string) => fetch(`${gw.url}/api/v1/fleet/devices`, { headers: { authorization: `Bearer ${t}` } }).then((r) => r.status);
    assert.equal(await list(ADMIN), 401);
    assert.equal(await list(token), 200);
  });
});
