// The fleet from the device side: simulated devices verify and apply what the gateway distributes, and one
// that was offline during a lockdown catches up in order after its next heartbeat.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startSimulatedFleet } from '../../src/fleet/simulated-fleet.js';
import type { SimulatedDevice } from '../../src/fleet/simulated-device.js';
import { eventually } from '../helpers/eventually.js';
import { runCli, spawnGateway, startInProcess, type InProcessGateway } from '../helpers/gateway.js';
import { tempHome } from '../helpers/home.js';

const ADMIN = 'fleet-admin-token-0123456789abcdef';
const OTA = Buffer.alloc(32, 0x51);
const EMERGENCY = Buffer.alloc(32, 0x52);

describe('simulated devices', () => {
  let gw: InProcessGateway;
  let fleet: { devices: SimulatedDevice[]; stop(): Promise<void> };
  const post = (path: string, body: unknown) => fetch(`${gw.url}/api/v1/fleet${path}`, {
    method: 'POST', headers: { authorization: `Bearer ${ADMIN}`, 'x-warden-client': 'test', 'content-type': 'application/json' }, body: JSON.stringify(body),
  });

  before(async () => {
    gw = await startInProcess('config_version: 9\ngateway:\n  api_port: 0\nguardrail:\n  port: 0\nfleet:\n  enabled: true\n  mqtt:\n    embedded_port: 0\n', {
      WARDEN_FLEET_API_TOKEN: ADMIN, WARDEN_OTA_HMAC_KEY: OTA.toString('hex'), WARDEN_EMERGENCY_KEY: EMERGENCY.toString('hex'),
    });
    fleet = await startSimulatedFleet({ sidecarUrl: gw.url, adminToken: ADMIN, brokerUrl: gw.gateway.fleetBrokerUrl!, tenant_id: 3, fleet_id: 1, devices: 20, otaKey: OTA, emergencyKey: EMERGENCY });
  });
  after(async () => {
    await fleet.stop();
    await gw.close();
  });

  test('every device verifies and applies a pushed policy', async () => {
    assert.equal((await post('/policy/push', { tenant_id: 3, fleet_id: 1, policy_yaml: 'default_action: block\nrules:\n  - tool: shell\n    action: warn\n' })).status, 200);
    await eventually(() => fleet.devices.every((d) => d.stats.policyVersion === 1), 'all 20 applied version 1');
    assert.ok(fleet.devices.every((d) => d.stats.rejected === 0));
  });

  test('a device offline during a lockdown refuses what follows until it has caught up, in order', async () => {
    const [offline, ...online] = fleet.devices;
    await offline!.disconnect();
    assert.equal((await post('/policy/emergency', { tenant_id: 3, fleet_id: 1, command: 'ENTER_LOCKDOWN' })).status, 200);
    await eventually(() => online.every((d) => d.stats.lockdown), 'the online devices are locked down');
    await offline!.connect(gw.gateway.fleetBrokerUrl!);
    assert.equal((await post('/policy/emergency', { tenant_id: 3, fleet_id: 1, command: 'RELEASE_LOCKDOWN' })).status, 200);
    // The release arrives first and breaks its chain; the device asks (heartbeat) and gets both, in order.
    await eventually(() => offline!.stats.emergencyApplied.length === 2, 'the reconnected device caught up');
    assert.deepEqual(offline!.stats.emergencyApplied, ['ENTER_LOCKDOWN', 'RELEASE_LOCKDOWN']);
    assert.equal(offline!.stats.lockdown, false);
    assert.ok(offline!.stats.rejected >= 1, 'the out-of-order release was refused first');
    await eventually(() => online.every((d) => !d.stats.lockdown), 'everyone released');
  });
});

describe('warden fleet simulate', () => {
  test('registers and runs virtual devices against the running gateway and reports', async () => {
    const home = tempHome('config_version: 9\ngateway:\n  api_port: 0\nguardrail:\n  port: 0\nfleet:\n  enabled: true\n  mqtt:\n    embedded_port: 0\n');
    const env = { ...home.env, WARDEN_FLEET_API_TOKEN: ADMIN, WARDEN_OTA_HMAC_KEY: OTA.toString('hex'), WARDEN_EMERGENCY_KEY: EMERGENCY.toString('hex') };
    const gateway = await spawnGateway(env);
    try {
      const result = await runCli(['fleet', 'simulate', '--devices', '3', '--seconds', '1', '--tenant', '9'], env);
      assert.equal(result.code, 0, result.stderr);
      const report = JSON.parse(result.stdout) as { devices: number; heartbeats_sent: number; rejected_messages: number };
      assert.equal(report.devices, 3);
      assert.ok(report.heartbeats_sent >= 3);
      assert.equal(report.rejected_messages, 0);
      const listed = (await (await fetch(`${gateway.sidecar}/api/v1/fleet/devices`, { headers: { authorization: `Bearer ${ADMIN}` } })).json()) as { devices: { tenant_id: number; last_heartbeat: string }[] };
      assert.equal(listed.devices.filter((d) => d.tenant_id === 9 && d.last_heartbeat !== '0001-01-01T00:00:00Z').length, 3, 'their heartbeats were accepted');
    } finally {
      await gateway.terminate();
      home.remove();
    }
  });

  test('without the keys it says what is missing', async () => {
    const home = tempHome();
    try {
      const result = await runCli(['fleet', 'simulate', '--devices', '1', '--seconds', '1'], { ...home.env, WARDEN_FLEET_API_TOKEN: '' });
      assert.equal(result.code, 2);
      assert.match(result.stderr, /WARDEN_FLEET_API_TOKEN/);
    } finally {
      home.remove();
    }
  });
});
