// Fleet health (admin and tenant views), Prometheus metrics, the verdict cache and threat-intel pushes.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import mqtt from 'mqtt';
import { VerdictCache } from '../../src/fleet/verdict-cache.js';
import { startInProcess, type InProcessGateway } from '../helpers/gateway.js';

const ADMIN = 'fleet-admin-token-0123456789abcdef';
const TENANT_1 = 'tenant-one-token-0123456789';
const EMERGENCY_KEY = '22'.repeat(32);
const fleetConfig = (mqttLines: string) => `config_version: 9
gateway:
  api_port: 0
guardrail:
  port: 0
fleet:
  enabled: true
  tenant_tokens:
    "1": "${TENANT_1}"
  mqtt:
${mqttLines}`;

function caller(gw: InProcessGateway) {
  return (method: string, path: string, token: string, body?: unknown) => fetch(`${gw.url}/api/v1/fleet${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'x-warden-client': 'test', ...(method === 'GET' ? {} : { 'content-type': 'application/json' }) },
    body: method === 'GET' ? undefined : JSON.stringify(body ?? {}),
  });
}

describe('verdict cache', () => {
  test('revokes by hash, flushes, evicts the least recently used, and counts hits and misses', () => {
    const cache = new VerdictCache(2);
    cache.set('a'.repeat(64), 'allow');
    cache.set('b'.repeat(64), 'allow');
    assert.equal(cache.get('a'.repeat(64)), 'allow');
    cache.set('c'.repeat(64), 'block'); // b was used least recently
    assert.equal(cache.get('b'.repeat(64)), undefined);
    assert.deepEqual([cache.hits, cache.misses, cache.size], [1, 1, 2]);
    assert.equal(cache.revoke(['A'.repeat(64), 'd'.repeat(64)]), 1, 'hashes match case-insensitively');
    cache.flush();
    assert.equal(cache.size, 0);
  });
});

describe('fleet health, metrics and threat intel', () => {
  let gw: InProcessGateway;
  let call: ReturnType<typeof caller>;
  before(async () => {
    gw = await startInProcess(fleetConfig('    embedded_port: 0\n'), { WARDEN_FLEET_API_TOKEN: ADMIN, WARDEN_EMERGENCY_KEY: EMERGENCY_KEY });
    call = caller(gw);
    await call('POST', '/devices', ADMIN, { tenant_id: 1, fleet_id: 1, device_id: 1, policy_version: 3 });
    await call('POST', '/devices', ADMIN, { tenant_id: 1, fleet_id: 1, device_id: 2, policy_version: 3 });
    await call('POST', '/devices', ADMIN, { tenant_id: 2, fleet_id: 5, device_id: 1, policy_version: 1 });
  });
  after(() => gw.close());

  test('health: the admin sees every device and the cache; a tenant sees its own devices only', async () => {
    const admin = (await (await call('GET', '/health', ADMIN)).json()) as { fleet: { total_devices: number; online: number; policy_versions: Record<string, number> }; cache_size?: number };
    assert.equal(admin.fleet.total_devices, 3);
    assert.equal(admin.fleet.online, 3);
    assert.deepEqual(admin.fleet.policy_versions, { 1: 1, 3: 2 });
    assert.equal(admin.cache_size, 0);
    const tenant = (await (await call('GET', '/health', TENANT_1)).json()) as { fleet: { total_devices: number; policy_versions: Record<string, number> }; cache_size?: number };
    assert.equal(tenant.fleet.total_devices, 2);
    assert.deepEqual(tenant.fleet.policy_versions, { 3: 2 });
    assert.equal(tenant.cache_size, undefined, 'no global cache statistics for a tenant');
  });

  test('metrics: Prometheus text for the admin, 403 for a tenant', async () => {
    const response = await call('GET', '/metrics', ADMIN);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/plain; version=0.0.4');
    const text = await response.text();
    assert.match(text, /^warden_fleet_devices_total\{status="online"\} 3$/m);
    for (const name of ['heartbeats_received_total', 'blocks_total', 'allows_total', 'verdict_cache_hits_total', 'verdict_cache_misses_total', 'verdict_cache_size', 'policy_rollback_total', 'alerts_total', 'ota_rollbacks_total']) {
      assert.match(text, new RegExp(`^warden_fleet_${name} `, 'm'), name);
    }
    assert.equal((await call('GET', '/metrics', TENANT_1)).status, 403);
  });

  test('threat intel: bad hashes 400; a push signs REVOKE_SESSIONS to every registered fleet (202)', async () => {
    assert.equal((await call('POST', '/threat-intel/push', ADMIN, { revoke_allow_hashes: ['xyz'] })).status, 400);
    assert.equal((await call('POST', '/threat-intel/push', ADMIN, { revoke_allow_hashes: ['ab'.repeat(31)] })).status, 400, '31 bytes');
    assert.equal((await call('POST', '/threat-intel/push', TENANT_1, {})).status, 403);
    const empty = await call('POST', '/threat-intel/push', ADMIN, {});
    assert.equal(empty.status, 202);
    assert.deepEqual(await empty.json(), { revoked: 0 });

    const subscriber = await mqtt.connectAsync(gw.gateway.fleetBrokerUrl!);
    try {
      await subscriber.subscribeAsync('warden/fleet/+/+/emergency', { qos: 1 });
      const seen: string[] = [];
      subscriber.on('message', (topic) => seen.push(topic));
      const response = await call('POST', '/threat-intel/push', ADMIN, { revoke_allow_hashes: ['ab'.repeat(32)], emergency: true });
      assert.equal(response.status, 202);
      const body = (await response.json()) as { revoked: number; device_cache_flush_published: number; device_cache_flush_target_fleets: number; device_cache_flushed: boolean };
      assert.deepEqual([body.device_cache_flush_published, body.device_cache_flush_target_fleets, body.device_cache_flushed], [2, 2, false]);
      for (let i = 0; i < 50 && seen.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
      assert.deepEqual(seen.sort(), ['warden/fleet/1/1/emergency', 'warden/fleet/2/5/emergency']);
    } finally {
      await subscriber.endAsync();
    }
  });
});

describe('threat intel with a broker that is gone', () => {
  test('207 listing the fleets whose flush could not be published', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const gw = await startInProcess(fleetConfig(`    url: mqtt://127.0.0.1:${port}\n`), { WARDEN_FLEET_API_TOKEN: ADMIN, WARDEN_EMERGENCY_KEY: EMERGENCY_KEY });
    try {
      const call = caller(gw);
      await call('POST', '/devices', ADMIN, { tenant_id: 4, fleet_id: 2, device_id: 1 });
      const response = await call('POST', '/threat-intel/push', ADMIN, { revoke_allow_hashes: ['cd'.repeat(32)] });
      assert.equal(response.status, 207);
      const body = (await response.json()) as { revoked: number; device_cache_flush_failed: string[]; device_cache_flush_published: number };
      assert.deepEqual(body.device_cache_flush_failed, ['4/2']);
      assert.equal(body.device_cache_flush_published, 0);
    } finally {
      await gw.close();
    }
  });
});
