// The fleet API's registration and key routes through the real gateway: tokens, tenant scoping, key
// invalidation, tombstones, batches, and fleet.enabled gating the whole API.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { AuditStore } from '../../src/audit/store.js';
import { FleetDevices, FleetUnavailable } from '../../src/fleet/devices.js';
import { compositeId } from '../../src/fleet/ids.js';
import { KeyVault } from '../../src/fleet/key-vault.js';
import { SqliteFleetStore } from '../../src/fleet/store/sqlite.js';
import { authHeaders, startInProcess, type InProcessGateway } from '../helpers/gateway.js';

const ADMIN = 'fleet-admin-token-0123456789abcdef';
const TENANT_7 = 'tenant-seven-token-0123456789';
const config = (enabled: boolean) => `config_version: 9
gateway:
  api_port: 0
guardrail:
  port: 0
fleet:
  enabled: ${enabled}
  mqtt:
    embedded_port: 0
  tenant_tokens:
    "7": "${TENANT_7}"
`;

describe('fleet API: devices and keys', () => {
  let gw: InProcessGateway;
  // Like every sidecar mutation, a POST carries X-Warden-Client and a JSON body (`{}` when it has no fields).
  const call = (method: string, path: string, token: string | undefined, body?: unknown) =>
    fetch(`${gw.url}/api/v1/fleet${path}`, {
      method,
      headers: { 'x-warden-client': 'test', ...(method === 'GET' ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: method === 'GET' ? undefined : JSON.stringify(body ?? {}),
    });
  const device = { tenant_id: 7, fleet_id: 2, device_id: 501 };
  const id = compositeId(device).toString();

  before(async () => (gw = await startInProcess(config(true), { WARDEN_FLEET_API_TOKEN: ADMIN })));
  after(() => gw.close());

  test('no or wrong token is 401; the gateway token is not a fleet token', async () => {
    const missing = await call('GET', '/devices', undefined);
    assert.equal(missing.status, 401);
    assert.equal(((await missing.json()) as { code: string }).code, 'WARDEN_ERR_AUTH_FLEET_TOKEN');
    assert.equal((await call('GET', '/devices', 'nope')).status, 401);
    assert.equal((await call('GET', '/devices', gw.token)).status, 401);
  });

  test('register: 201 with a 32-byte key once, 200 and a new key on re-registration', async () => {
    const created = await call('POST', '/devices', ADMIN, { ...device, hw_profile: 'esp32-s3', fw_version: '2.0.1' });
    assert.equal(created.status, 201);
    const first = (await created.json()) as { device: { device_id: string; status: string; last_heartbeat: string }; device_key: string };
    assert.equal(first.device.device_id, id);
    assert.equal(first.device.status, 'online');
    assert.equal(first.device.last_heartbeat, '0001-01-01T00:00:00Z');
    assert.match(first.device_key, /^[0-9a-f]{64}$/);
    const again = await call('POST', '/devices', ADMIN, device);
    assert.equal(again.status, 200);
    const second = (await again.json()) as { device_key: string };
    assert.notEqual(second.device_key, first.device_key);
    // The previous key is gone: the stored (sealed) key is the new one.
    const store = new SqliteFleetStore(gw.gateway.settings.paths.fleetDb);
    const stored = await store.getDevice(device);
    await store.close();
    const vault = KeyVault.open(gw.gateway.settings.paths.fleetVaultKey, {});
    assert.equal(vault.open(stored!.sealed_key, id).toString('hex'), second.device_key);
    assert.ok(!readFileSync(gw.gateway.settings.paths.fleetDb).includes(Buffer.from(second.device_key, 'hex')), 'no clear key at rest');
  });

  test('device ids in paths: bad ones 400, unknown 404, another tenant 403', async () => {
    assert.equal((await call('GET', `/devices/${id}`, ADMIN)).status, 200);
    assert.equal((await call('GET', '/devices/not-a-number', ADMIN)).status, 400);
    assert.equal((await call('GET', '/devices/18446744073709551616', ADMIN)).status, 400);
    assert.equal((await call('GET', `/devices/${compositeId({ tenant_id: 7, fleet_id: 2, device_id: 999 })}`, ADMIN)).status, 404);
    await call('POST', '/devices', ADMIN, { tenant_id: 8, fleet_id: 1, device_id: 1 });
    const foreign = compositeId({ tenant_id: 8, fleet_id: 1, device_id: 1 }).toString();
    const forbidden = await call('GET', `/devices/${foreign}`, TENANT_7);
    assert.equal(forbidden.status, 403);
    assert.equal(((await forbidden.json()) as { code: string }).code, 'WARDEN_ERR_AUTH_TENANT_FORBIDDEN');
    assert.equal((await call('POST', `/devices/${foreign}/rotate-key`, TENANT_7)).status, 403);
    assert.equal((await call('POST', '/devices', TENANT_7, { tenant_id: 8, fleet_id: 1, device_id: 2 })).status, 403);
    const listed = (await (await call('GET', '/devices', TENANT_7)).json()) as { devices: { tenant_id: number }[]; summary: { total: number } };
    assert.ok(listed.devices.length > 0 && listed.devices.every((d) => d.tenant_id === 7), 'a tenant sees only its devices');
    assert.equal(listed.summary.total, listed.devices.length);
  });

  test('bad bodies are 400: zero device id, out-of-range fields, unknown fields, missing X-Warden-Client is 403', async () => {
    for (const body of [{ ...device, device_id: 0 }, { ...device, tenant_id: 70000 }, { ...device, extra: 1 }, { tenant_id: 7, fleet_id: 2 }]) {
      const refused = await call('POST', '/devices', ADMIN, body);
      assert.equal(refused.status, 400, JSON.stringify(body));
      const answer = (await refused.json()) as { error: string; code: string; detail: string };
      assert.deepEqual([answer.error, answer.code, typeof answer.detail], ['invalid request', 'WARDEN_ERR_REQUEST_INVALID', 'string']);
    }
    assert.equal((await call('POST', '/devices', ADMIN, { ...device, hw_profile: 'x'.repeat(1024 * 1024) })).status, 413, 'body over 1 MB');
    const noClient = await fetch(`${gw.url}/api/v1/fleet/devices`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }, body: JSON.stringify(device) });
    assert.equal(noClient.status, 403);
    assert.equal(((await noClient.json()) as { code: string }).code, 'WARDEN_ERR_REQUEST_CLIENT_MISSING', 'the sidecar\'s CSRF refusal keeps its code on fleet routes');
  });

  test('rotate-key: a new key, at most once a minute per device', async () => {
    const rotated = await call('POST', `/devices/${id}/rotate-key`, TENANT_7);
    assert.equal(rotated.status, 200);
    const body = (await rotated.json()) as { device_id: string; device_key: string; status: string };
    assert.deepEqual([body.device_id, body.status], [id, 'rotated']);
    assert.match(body.device_key, /^[0-9a-f]{64}$/);
    const tooSoon = await call('POST', `/devices/${id}/rotate-key`, ADMIN);
    assert.equal(tooSoon.status, 429);
    assert.equal(tooSoon.headers.get('retry-after'), '60');
  });

  test('decommission batch: tombstones, 207 with the foreign-tenant count, 409 until force_reregister', async () => {
    await call('POST', '/devices', ADMIN, { tenant_id: 7, fleet_id: 2, device_id: 600 });
    const batch = await call('POST', '/devices/decommission-batch', TENANT_7, {
      devices: [{ tenant_id: 7, fleet_id: 2, device_id: 600 }, { tenant_id: 7, fleet_id: 2, device_id: 601 }, { tenant_id: 8, fleet_id: 1, device_id: 1 }],
    });
    assert.equal(batch.status, 207);
    const result = (await batch.json()) as { decommissioned: number; requested: number; not_found: string[]; tenant_denied_count: number };
    assert.equal(result.requested, 3);
    assert.equal(result.decommissioned, 1);
    assert.deepEqual(result.not_found, [compositeId({ tenant_id: 7, fleet_id: 2, device_id: 601 }).toString()]);
    assert.equal(result.tenant_denied_count, 1);
    const gone = compositeId({ tenant_id: 7, fleet_id: 2, device_id: 600 }).toString();
    assert.equal((await call('GET', `/devices/${gone}`, ADMIN)).status, 404);
    assert.equal((await call('POST', '/devices', ADMIN, { tenant_id: 7, fleet_id: 2, device_id: 600 })).status, 409);
    assert.equal((await call('POST', '/devices', ADMIN, { tenant_id: 7, fleet_id: 2, device_id: 600, force_reregister: true })).status, 200);
    assert.equal((await call('POST', '/devices/decommission-batch', ADMIN, { devices: [] })).status, 400);
  });

  test('policy push without WARDEN_OTA_HMAC_KEY: 501, the policy service is not configured', async () => {
    const response = await call('POST', '/policy/push', ADMIN, { tenant_id: 7, fleet_id: 2, policy_yaml: 'default_action: block\n' });
    assert.equal(response.status, 501);
    assert.equal((await call('POST', '/policy/push', TENANT_7, { tenant_id: 8, fleet_id: 1, policy_yaml: 'default_action: block\n' })).status, 403);
    assert.equal((await call('POST', '/policy/emergency', ADMIN, { tenant_id: 7, fleet_id: 2, command: 'BLOCK_ALL' })).status, 501, 'no WARDEN_EMERGENCY_KEY');
  });

  test('token rotation: admin only, the old token stops working, once a minute', async () => {
    assert.equal((await call('POST', '/token/rotate', TENANT_7)).status, 403);
    const rotated = await call('POST', '/token/rotate', ADMIN);
    assert.equal(rotated.status, 200);
    const { token } = (await rotated.json()) as { token: string };
    assert.match(token, /^[0-9a-f]{64}$/);
    assert.equal((await call('GET', '/devices', ADMIN)).status, 401);
    assert.equal((await call('GET', '/devices', token)).status, 200);
    assert.equal((await call('POST', '/token/rotate', token)).status, 429);
  });
});

describe('fleet API gating', () => {
  test('fleet.enabled false: the routes do not exist', async () => {
    const gw = await startInProcess(config(false), { WARDEN_FLEET_API_TOKEN: ADMIN });
    try {
      const response = await fetch(`${gw.url}/api/v1/fleet/devices`, { headers: authHeaders(gw.token) });
      assert.equal(response.status, 404);
    } finally {
      await gw.close();
    }
  });

  test('no WARDEN_FLEET_API_TOKEN: every request is 401, tenant tokens included', async () => {
    const gw = await startInProcess(config(true));
    try {
      for (const token of [ADMIN, TENANT_7]) {
        const response = await fetch(`${gw.url}/api/v1/fleet/devices`, { headers: { authorization: `Bearer ${token}` } });
        assert.equal(response.status, 401);
      }
    } finally {
      await gw.close();
    }
  });
});

describe('fleet API key delivery and failing closed', () => {
  const lanAddress = () => {
    return Object.values(networkInterfaces()).flat().find((i) => i && !i.internal && i.family === 'IPv4')?.address;
  };

  test('keys are not handed out over plain HTTP beyond loopback unless a trusted TLS proxy is configured', async () => {
    const address = lanAddress();
    assert.ok(address, 'this test needs a non-loopback IPv4 interface');
    for (const trusted of [false, true]) {
      const gw = await startInProcess(`config_version: 9\ngateway:\n  api_port: 0\n  api_bind: 0.0.0.0\nguardrail:\n  port: 0\nfleet:\n  enabled: true\n  trusted_tls_proxy: ${trusted}\n  mqtt:\n    embedded_port: 0\n`, { WARDEN_FLEET_API_TOKEN: ADMIN });
      try {
        const port = new URL(gw.url).port;
        const register = (host: string) => fetch(`http://${host}:${port}/api/v1/fleet/devices`, {
          method: 'POST', headers: { authorization: `Bearer ${ADMIN}`, 'x-warden-client': 'test', 'content-type': 'application/json' },
          body: JSON.stringify({ tenant_id: 1, fleet_id: 1, device_id: trusted ? 2 : 1 }),
        });
        assert.equal((await register(address!)).status, trusted ? 201 : 403, `trusted_tls_proxy: ${trusted}`);
        assert.equal((await register('127.0.0.1')).status, trusted ? 200 : 201, 'loopback is always fine');
      } finally {
        await gw.close();
      }
    }
  });

  test('with the credential audit unavailable, registration is refused and the existing key stays', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'warden-fleet-closed-'));
    const store = new SqliteFleetStore(join(dir, 'fleet.db'));
    const audit = new AuditStore(join(dir, 'audit.db'));
    const vault = new KeyVault(Buffer.alloc(32, 3));
    const devices = new FleetDevices(store, vault, audit);
    try {
      const address = { tenant_id: 1, fleet_id: 1, device_id: 9 };
      const first = await devices.register(address, 'test');
      assert.equal(first.status, 201);
      await audit.close(); // the audit trail is gone
      await assert.rejects(devices.register(address, 'test'), FleetUnavailable);
      await assert.rejects(devices.rotateKey(address, 'test'), FleetUnavailable);
      const stored = await store.getDevice(address);
      assert.equal(vault.open(stored!.sealed_key, compositeId(address).toString()).toString('hex'), (first as { device_key: string }).device_key);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
