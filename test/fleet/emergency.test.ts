// Emergency frames: the documented 112-byte layout, signatures, and the chain that stops a device from
// accepting commands after one it missed until the gateway's history replays it in order.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import mqtt from 'mqtt';
import { decodeFrame, encodeFrame, FRAME_BYTES, type EmergencyFrame } from '../../src/fleet/emergency.js';
import { SqliteFleetStore } from '../../src/fleet/store/sqlite.js';
import { startInProcess, type InProcessGateway } from '../helpers/gateway.js';

const KEY = Buffer.alloc(32, 0x42);

/** What a device keeps: the last applied sequence and signature; a frame must continue exactly that. */
class DeviceChain {
  sequence = 0;
  signature: Buffer = Buffer.alloc(32);
  applied: string[] = [];
  offer(frame: Buffer): 'applied' | 'gap' | 'forged' {
    const decoded: EmergencyFrame | undefined = decodeFrame(KEY, frame);
    if (!decoded) return 'forged';
    if (decoded.sequence !== this.sequence + 1 || !decoded.predecessor_signature.equals(this.signature)) return 'gap';
    this.sequence = decoded.sequence;
    this.signature = decoded.signature;
    this.applied.push(decoded.command);
    return 'applied';
  }
}

describe('emergency frames', () => {
  test('112 bytes with the documented fields, signed over the first 80', () => {
    const frame = encodeFrame(KEY, { command: 'ENTER_LOCKDOWN', tenant_id: 7, fleet_id: 3, sequence: 5, predecessor: undefined, issued_at: 1_700_000_000_000 });
    assert.equal(frame.length, FRAME_BYTES);
    assert.equal(frame.subarray(0, 4).toString(), 'WEMG');
    assert.deepEqual(
      [frame[4], frame[5], frame.readUInt16LE(6), frame.readUInt16LE(8), frame.readUInt32LE(12), frame.readUInt32LE(16), Number(frame.readBigUInt64LE(20))],
      [1, 2, 7, 3, 5, 4, 1_700_000_000_000],
    );
    assert.equal(decodeFrame(KEY, frame)?.command, 'ENTER_LOCKDOWN');
    const forged = Buffer.from(frame);
    forged[5] = 3; // RELEASE_LOCKDOWN instead
    assert.equal(decodeFrame(KEY, forged), undefined);
    assert.equal(decodeFrame(Buffer.alloc(32, 1), frame), undefined, 'another key');
  });

  test('a device that missed a lockdown refuses the next command until the history is replayed in order', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'warden-emergency-'));
    const store = new SqliteFleetStore(join(dir, 'fleet.db'));
    try {
      const issue = async (command: 'ENTER_LOCKDOWN' | 'RELEASE_LOCKDOWN' | 'FORCE_SYNC') =>
        (await store.appendEmergency(1, 1, command, (sequence, predecessor) => encodeFrame(KEY, { command, tenant_id: 1, fleet_id: 1, sequence, predecessor }))).frame;
      const online = new DeviceChain();
      const offline = new DeviceChain();
      const first = await issue('FORCE_SYNC');
      assert.equal(online.offer(first), 'applied');
      assert.equal(offline.offer(first), 'applied');
      const lockdown = await issue('ENTER_LOCKDOWN');
      assert.equal(online.offer(lockdown), 'applied'); // the offline device misses it
      const release = await issue('RELEASE_LOCKDOWN');
      assert.equal(online.offer(release), 'applied');
      assert.equal(offline.offer(release), 'gap', 'the release cannot skip the missed lockdown');
      for (const entry of await store.emergencyAfter(1, 1, offline.sequence)) assert.equal(offline.offer(entry.frame), 'applied');
      assert.deepEqual(offline.applied, ['FORCE_SYNC', 'ENTER_LOCKDOWN', 'RELEASE_LOCKDOWN']);
      assert.deepEqual(offline.signature, online.signature);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('POST /policy/emergency', () => {
  let gw: InProcessGateway;
  const ADMIN = 'fleet-admin-token-0123456789abcdef';
  const post = (body: unknown) => fetch(`${gw.url}/api/v1/fleet/policy/emergency`, {
    method: 'POST', headers: { authorization: `Bearer ${ADMIN}`, 'x-warden-client': 'test', 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  before(async () => (gw = await startInProcess('config_version: 9\ngateway:\n  api_port: 0\nguardrail:\n  port: 0\nfleet:\n  enabled: true\n  mqtt:\n    embedded_port: 0\n', { WARDEN_FLEET_API_TOKEN: ADMIN, WARDEN_EMERGENCY_KEY: KEY.toString('hex') })));
  after(() => gw.close());

  test('publishes a signed frame that continues the fleet chain', async () => {
    const subscriber = await mqtt.connectAsync(gw.gateway.fleetBrokerUrl!);
    try {
      await subscriber.subscribeAsync('warden/fleet/2/9/emergency', { qos: 1 });
      const frames: Buffer[] = [];
      subscriber.on('message', (_topic, payload) => frames.push(payload));
      const device = new DeviceChain();
      for (const command of ['ENTER_LOCKDOWN', 'RELEASE_LOCKDOWN']) {
        const response = await post({ tenant_id: 2, fleet_id: 9, command });
        assert.equal(response.status, 200);
        assert.equal(((await response.json()) as { status: string }).status, 'distributed');
      }
      for (let i = 0; i < 50 && frames.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
      assert.deepEqual(frames.map((f) => device.offer(f)), ['applied', 'applied']);
    } finally {
      await subscriber.endAsync();
    }
  });

  test('an unknown command is 400', async () => {
    assert.equal((await post({ tenant_id: 2, fleet_id: 9, command: 'SELF_DESTRUCT' })).status, 400);
  });
});
