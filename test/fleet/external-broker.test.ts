// The fleet against an external broker (fleet.mqtt.url): Mosquitto when installed, aedes otherwise. Policy
// pushes and emergency frames reach subscribed devices, and device heartbeats reach the gateway.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startSimulatedFleet } from '../../src/fleet/simulated-fleet.js';
import type { SimulatedDevice } from '../../src/fleet/simulated-device.js';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { eventually } from '../helpers/eventually.js';
import { startInProcess, type InProcessGateway } from '../helpers/gateway.js';

const ADMIN = 'fleet-admin-token-0123456789abcdef';
const OTA = Buffer.alloc(32, 0x71);
const EMERGENCY = Buffer.alloc(32, 0x72);

describe('fleet over an external broker', () => {
  let broker: TestBroker;
  let gw: InProcessGateway;
  let fleet: { devices: SimulatedDevice[]; stop(): Promise<void> };
  before(async () => {
    broker = await startTestBroker();
    gw = await startInProcess(`config_version: 9\ngateway:\n  api_port: 0\nguardrail:\n  port: 0\nfleet:\n  enabled: true\n  mqtt:\n    url: ${broker.url}\n    protocol_version: ${broker.protocolVersion}\n`, {
      WARDEN_FLEET_API_TOKEN: ADMIN, WARDEN_OTA_HMAC_KEY: OTA.toString('hex'), WARDEN_EMERGENCY_KEY: EMERGENCY.toString('hex'),
    });
    fleet = await startSimulatedFleet({ sidecarUrl: gw.url, adminToken: ADMIN, brokerUrl: broker.url, tenant_id: 8, fleet_id: 8, devices: 5, otaKey: OTA, emergencyKey: EMERGENCY });
  });
  after(async () => {
    await fleet.stop();
    await gw.close();
    await broker.stop();
  });

  test(`push, emergency and heartbeats all travel through the broker`, async (t) => {
    t.diagnostic(`broker: ${broker.kind}`);
    assert.equal(gw.gateway.fleetBrokerUrl, broker.url, 'no embedded broker when a url is configured');
    const post = (path: string, body: unknown) => fetch(`${gw.url}/api/v1/fleet${path}`, {
      method: 'POST', headers: { authorization: `Bearer ${ADMIN}`, 'x-warden-client': 'test', 'content-type': 'application/json' }, body: JSON.stringify(body),
    });
    assert.equal((await post('/policy/push', { tenant_id: 8, fleet_id: 8, policy_yaml: 'default_action: allow\n' })).status, 200);
    assert.equal((await post('/policy/emergency', { tenant_id: 8, fleet_id: 8, command: 'FORCE_SYNC' })).status, 200);
    await eventually(
      () => fleet.devices.every((d) => d.stats.policyVersion === 1 && d.stats.emergencySequence === 1),
      () => `devices to receive the push and the frame: ${JSON.stringify(fleet.devices.map((d) => [d.stats.policyVersion, d.stats.emergencySequence, d.stats.rejected]))}`,
      5000,
    );
    await Promise.all(fleet.devices.map((d) => d.heartbeat()));
    const accepted = async () => {
      const text = await (await fetch(`${gw.url}/api/v1/fleet/metrics`, { headers: { authorization: `Bearer ${ADMIN}` } })).text();
      return Number(/^warden_fleet_heartbeats_received_total (\d+)$/m.exec(text)?.[1] ?? 0);
    };
    await eventually(async () => (await accepted()) >= 5, 'the gateway to accept the 5 heartbeats', 5000);
    assert.equal(await accepted(), 5);
  });
});
