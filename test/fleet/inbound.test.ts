// Devices talking back over MQTT: signed heartbeats update the registry; forged, replayed and stale ones are
// dropped and counted; a canary rollback counts once; missed emergency frames and a newer policy are sent to
// the device that reports being behind.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import mqtt, { type MqttClient } from 'mqtt';
import { CANARY_ROLLBACK, encodeMessage, type DeviceMessage } from '../../src/fleet/device-messages.js';
import { compositeId } from '../../src/fleet/ids.js';
import { startInProcess, type InProcessGateway } from '../helpers/gateway.js';

const ADMIN = 'fleet-admin-token-0123456789abcdef';
const device = { tenant_id: 5, fleet_id: 6, device_id: 77 };
const id = compositeId(device).toString();

describe('inbound device messages', () => {
  let gw: InProcessGateway;
  let client: MqttClient;
  let key: Buffer;
  let sequence = 0;
  const received: { topic: string; payload: Buffer }[] = [];
  const call = (method: string, path: string, body?: unknown) => fetch(`${gw.url}/api/v1/fleet${path}`, {
    method, headers: { authorization: `Bearer ${ADMIN}`, 'x-warden-client': 'test', ...(method === 'GET' ? {} : { 'content-type': 'application/json' }) },
    body: method === 'GET' ? undefined : JSON.stringify(body ?? {}),
  });
  const heartbeat = (fields: Partial<DeviceMessage> = {}, signingKey = key): Buffer => encodeMessage(signingKey, {
    kind: 'heartbeat', status: 'online', flags: 0, sequence: ++sequence, timestamp: Date.now(), policy_version: 0, emergency_applied: 0,
    allowed_total: 0, denied_total: 0, alerts_total: 0, flash_writes: 0, ...fields,
  });
  const send = async (payload: Buffer) => {
    await client.publishAsync(`warden/fleet/${device.tenant_id}/${device.fleet_id}/device/${device.device_id}/heartbeat`, payload, { qos: 1 });
    await new Promise((r) => setTimeout(r, 150)); // the gateway handles it asynchronously
  };
  const metric = async (name: string) => {
    const text = await (await call('GET', '/metrics')).text();
    return Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1] ?? NaN);
  };

  before(async () => {
    gw = await startInProcess('config_version: 9\ngateway:\n  api_port: 0\nguardrail:\n  port: 0\nfleet:\n  enabled: true\n  mqtt:\n    embedded_port: 0\n', {
      WARDEN_FLEET_API_TOKEN: ADMIN, WARDEN_EMERGENCY_KEY: '33'.repeat(32), WARDEN_OTA_HMAC_KEY: '44'.repeat(32),
    });
    key = Buffer.from(((await (await call('POST', '/devices', device)).json()) as { device_key: string }).device_key, 'hex');
    client = await mqtt.connectAsync(gw.gateway.fleetBrokerUrl!);
    await client.subscribeAsync(`warden/fleet/${device.tenant_id}/${device.fleet_id}/device/${device.device_id}/+`, { qos: 1 });
    client.on('message', (topic, payload) => received.push({ topic, payload }));
  });
  after(async () => {
    await client.endAsync();
    await gw.close();
  });

  test('a signed heartbeat updates the device record and the counters', async () => {
    await send(heartbeat({ status: 'degraded', allowed_total: 10, denied_total: 2 }));
    const record = (await (await call('GET', `/devices/${id}`)).json()) as { status: string; allowed_total: number; denied_total: number; last_heartbeat: string };
    assert.equal(record.status, 'degraded');
    assert.deepEqual([record.allowed_total, record.denied_total], [10, 2]);
    assert.notEqual(record.last_heartbeat, '0001-01-01T00:00:00Z');
    assert.equal(await metric('warden_fleet_heartbeats_received_total'), 1);
    assert.equal(await metric('warden_fleet_blocks_total'), 2);
  });

  test('forged, replayed and stale heartbeats are dropped and counted', async () => {
    await send(heartbeat({ status: 'lockdown' }, Buffer.alloc(32, 9)));
    const replay = heartbeat({ status: 'online' });
    await send(replay);
    await send(replay);
    await send(heartbeat({ status: 'lockdown', timestamp: Date.now() - 10 * 60 * 1000 }));
    const record = (await (await call('GET', `/devices/${id}`)).json()) as { status: string };
    assert.equal(record.status, 'online', 'only the genuine, fresh one was applied');
    const text = await (await call('GET', '/metrics')).text();
    for (const reason of ['bad_signature', 'replayed', 'stale']) assert.match(text, new RegExp(`warden_fleet_inbound_rejected_total\\{reason="${reason}"\\} 1`), reason);
  });

  test('a canary rollback counts once per transition', async () => {
    await send(heartbeat({ flags: CANARY_ROLLBACK }));
    await send(heartbeat({ flags: CANARY_ROLLBACK }));
    assert.equal(await metric('warden_fleet_policy_rollback_total'), 1);
    assert.equal(await metric('warden_fleet_ota_rollbacks_total'), 1);
    await send(heartbeat({ flags: 0 }));
    await send(heartbeat({ flags: CANARY_ROLLBACK }));
    assert.equal(await metric('warden_fleet_policy_rollback_total'), 2);
  });

  test('a device behind gets its missed emergency frames in order and the newer policy', async () => {
    for (const command of ['ENTER_LOCKDOWN', 'RELEASE_LOCKDOWN']) {
      assert.equal((await call('POST', '/policy/emergency', { tenant_id: device.tenant_id, fleet_id: device.fleet_id, command })).status, 200);
    }
    assert.equal((await call('POST', '/policy/push', { tenant_id: device.tenant_id, fleet_id: device.fleet_id, policy_yaml: 'default_action: block\n' })).status, 200);
    received.length = 0;
    await send(heartbeat({ emergency_applied: 0, policy_version: 0 }));
    const frames = received.filter((m) => m.topic.endsWith('/emergency')).map((m) => m.payload);
    assert.deepEqual(frames.map((f) => [f.length, f.readUInt32LE(12), f[5]]), [[112, 1, 2], [112, 2, 3]], 'sequence 1 lockdown, then 2 release');
    const policy = received.find((m) => m.topic.endsWith('/policy'));
    assert.ok(policy, 'the latest policy is republished to the device');
    assert.equal(policy!.payload.readUInt16LE(8), 1, 'wire version 1');
    received.length = 0;
    await send(heartbeat({ emergency_applied: 2, policy_version: 1 }));
    const replies = received.filter((m) => !m.topic.endsWith('/heartbeat')); // the device's own message comes back too
    assert.equal(replies.length, 0, 'nothing to send to a device that is up to date');
  });
});
