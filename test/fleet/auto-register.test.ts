// MQTT auto-registration for local development: a keyless device enrolls over the embedded broker, gets its
// key on its own topic and then talks signed messages; existing devices keep their keys; the feature is off
// by default and refused with an external broker.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import mqtt, { type MqttClient } from 'mqtt';
import { AuditReader } from '../../src/audit/reader.js';
import { encodeMessage } from '../../src/fleet/device-messages.js';
import { compositeId } from '../../src/fleet/ids.js';
import { eventually } from '../helpers/eventually.js';
import { startInProcess, type InProcessGateway } from '../helpers/gateway.js';

const ADMIN = 'fleet-admin-token-0123456789abcdef';
const config = (mqttLines: string) => `config_version: 9\ngateway:\n  api_port: 0\nguardrail:\n  port: 0\nfleet:\n  enabled: true\n  mqtt:\n    embedded_port: 0\n${mqttLines}`;
const topic = (device: number, kind: string) => `warden/fleet/3/4/device/${device}/${kind}`;

/** A device's MQTT side: everything published to its own topics, in order. */
async function deviceClient(url: string, device: number) {
  const client = await mqtt.connectAsync(url);
  const received: { topic: string; payload: Buffer }[] = [];
  client.on('message', (t, payload) => received.push({ topic: t, payload }));
  await client.subscribeAsync(`warden/fleet/3/4/device/${device}/+`, { qos: 1 });
  return { client, received };
}

const fleetApi = (gw: InProcessGateway, path: string) => fetch(`${gw.url}/api/v1/fleet${path}`, { headers: { authorization: `Bearer ${ADMIN}` } });

/** How many enrollments the gateway dropped for `reason`. */
async function rejected(gw: InProcessGateway, reason: string): Promise<number> {
  const text = await (await fleetApi(gw, '/metrics')).text();
  return Number(new RegExp(`^warden_fleet_inbound_rejected_total\\{reason="${reason}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
}

const heartbeat = (key: Buffer, sequence: number) => encodeMessage(key, {
  kind: 'heartbeat', status: 'degraded', flags: 0, sequence, timestamp: Date.now(), policy_version: 0, emergency_applied: 0,
  allowed_total: 0, denied_total: 0, alerts_total: 0, flash_writes: 0,
});

describe('MQTT auto-registration (fleet.mqtt.auto_register: true)', () => {
  let gw: InProcessGateway;
  let clients: MqttClient[] = [];
  const api = (path: string) => fleetApi(gw, path);
  const status = async (id: string) => ((await (await api(`/devices/${id}`)).json()) as { status: string }).status;

  before(async () => {
    gw = await startInProcess(config('    auto_register: true\n'), { WARDEN_FLEET_API_TOKEN: ADMIN });
  });
  after(async () => {
    await Promise.all(clients.map((c) => c.endAsync()));
    clients = [];
    await gw.close();
  });

  test('a keyless device enrolls, receives its key with its nonce, and its signed heartbeats are accepted', async () => {
    const { client, received } = await deviceClient(gw.gateway.fleetBrokerUrl!, 21);
    clients.push(client);
    const nonce = randomBytes(16);
    await client.publishAsync(topic(21, 'enroll'), nonce, { qos: 1 });
    await eventually(() => received.some((m) => m.topic === topic(21, 'key')), 'the key');
    const answer = received.find((m) => m.topic === topic(21, 'key'))!.payload;
    assert.equal(answer.length, 48);
    assert.deepEqual(answer.subarray(0, 16), nonce, 'the answer starts with the device nonce');
    const key = answer.subarray(16);

    await client.publishAsync(topic(21, 'heartbeat'), heartbeat(key, 1), { qos: 1 });
    const id = compositeId({ tenant_id: 3, fleet_id: 4, device_id: 21 }).toString();
    // A new device reads `online`; the heartbeat reports `degraded`.
    await eventually(async () => (await status(id)) === 'degraded', 'the heartbeat signed with the enrolled key to be accepted');

    const reader = new AuditReader(join(gw.home.dir, 'audit.db'));
    try {
      const row = [...reader.events()].find((e) => e.action === 'fleet-device-register' && e.target === id);
      assert.equal(row?.actor, 'mqtt-auto-register', 'the enrollment is in the audit trail, durably');
    } finally {
      reader.close();
    }
  });

  test('an existing device is not re-keyed by an enrollment, and a malformed nonce is dropped', async () => {
    const { client, received } = await deviceClient(gw.gateway.fleetBrokerUrl!, 22);
    clients.push(client);
    await client.publishAsync(topic(22, 'enroll'), randomBytes(16), { qos: 1 });
    await eventually(() => received.some((m) => m.topic === topic(22, 'key')), 'the first key');
    const key = received.find((m) => m.topic === topic(22, 'key'))!.payload.subarray(16);

    const existingBefore = await rejected(gw, 'enroll_existing');
    const badBefore = await rejected(gw, 'bad_enroll');
    await client.publishAsync(topic(22, 'enroll'), randomBytes(16), { qos: 1 });
    await client.publishAsync(topic(23, 'enroll'), randomBytes(15), { qos: 1 });
    await eventually(
      async () => (await rejected(gw, 'enroll_existing')) > existingBefore && (await rejected(gw, 'bad_enroll')) > badBefore,
      'both enrollments to be counted as rejected',
    );
    assert.equal(received.filter((m) => m.topic === topic(22, 'key')).length, 1, 'no second key for an existing device');
    const id23 = compositeId({ tenant_id: 3, fleet_id: 4, device_id: 23 }).toString();
    assert.equal((await api(`/devices/${id23}`)).status, 404, 'a malformed enrollment creates nothing');

    // The first key still works.
    await client.publishAsync(topic(22, 'heartbeat'), heartbeat(key, 1), { qos: 1 });
    const id22 = compositeId({ tenant_id: 3, fleet_id: 4, device_id: 22 }).toString();
    await eventually(async () => (await status(id22)) === 'degraded', 'a heartbeat signed with the first key to be accepted');
  });
});

describe('MQTT auto-registration switched off or misconfigured', () => {
  test('off by default: an enrollment creates no device and is counted', async () => {
    const gw = await startInProcess(config(''), { WARDEN_FLEET_API_TOKEN: ADMIN });
    const { client, received } = await deviceClient(gw.gateway.fleetBrokerUrl!, 31);
    try {
      await client.publishAsync(topic(31, 'enroll'), randomBytes(16), { qos: 1 });
      await eventually(async () => (await rejected(gw, 'auto_register_off')) > 0, 'the enrollment to be dropped as auto_register_off');
      assert.equal(await rejected(gw, 'auto_register_off'), 1);
      assert.equal((await fleetApi(gw, `/devices/${compositeId({ tenant_id: 3, fleet_id: 4, device_id: 31 })}`)).status, 404);
      assert.equal(received.filter((m) => m.topic.endsWith('/key')).length, 0, 'no key was published');
    } finally {
      await client.endAsync();
      await gw.close();
    }
  });

  test('refused with an external broker: the gateway does not start', async () => {
    await assert.rejects(
      startInProcess(config('    url: mqtt://127.0.0.1:1\n    auto_register: true\n'), { WARDEN_FLEET_API_TOKEN: ADMIN }),
      /auto_register works only with the embedded broker/,
    );
  });
});
