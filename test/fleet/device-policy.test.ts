// The device policy compiler against its documented layout (docs/fleet-wire.md), read back byte by byte the
// way a device would, and POST /policy/simulate.
import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { compilePolicy, finalizeBlob, PolicyCompileError, PolicyTooLarge, signPolicy } from '../../src/fleet/device-policy/compile.js';
import Database from 'better-sqlite3';
import mqtt from 'mqtt';
import { startInProcess, type InProcessGateway } from '../helpers/gateway.js';

const POLICY = `default_action: block
rules:
  - tool: shell
    action: allow
    args:
      - pattern: "rm -rf *"
        action: block
  - tool: http
    action: warn
hashes:
  deny: ["${'ab'.repeat(32)}"]
rate_limits:
  - tool: http
    per_minute: 30
lockdown:
  mode: allow_listed
`;

/** Reads a blob the way docs/fleet-wire.md says a device does. */
function readBlob(blob: Buffer) {
  let at = 20;
  const text = () => { const n = blob[at]!; const s = blob.subarray(at + 1, at + 1 + n).toString('utf8'); at += 1 + n; return s; };
  const u8 = () => blob[at++]!;
  const header = {
    magic: blob.subarray(0, 4).toString(), format: blob[4], defaultAction: blob[5], lockdown: blob[6], profile: blob[7],
    version: blob.readUInt16LE(8), rules: blob.readUInt16LE(10), limits: blob.readUInt16LE(12), allow: blob.readUInt16LE(14), deny: blob.readUInt16LE(16), payload: blob.readUInt16LE(18),
  };
  const rules = Array.from({ length: header.rules }, () => ({ tool: text(), action: u8(), args: Array.from({ length: u8() }, () => ({ action: u8(), pattern: text() })) }));
  const limits = Array.from({ length: header.limits }, () => { const tool = text(); const perMinute = blob.readUInt16LE(at); at += 2; return { tool, perMinute }; });
  const hashes = Array.from({ length: header.allow + header.deny }, () => { const h = blob.subarray(at, at + 32).toString('hex'); at += 32; return h; });
  return { header, rules, limits, hashes, end: at };
}

describe('policy compiler', () => {
  test('the blob follows the documented layout', () => {
    const compiled = compilePolicy(POLICY);
    const blob = finalizeBlob(compiled, 'standard', 7);
    const read = readBlob(blob);
    assert.deepEqual(read.header, { magic: 'WPOL', format: 1, defaultAction: 1, lockdown: 1, profile: 1, version: 7, rules: 2, limits: 1, allow: 0, deny: 1, payload: compiled.payloadLength });
    assert.deepEqual(read.rules, [{ tool: 'shell', action: 0, args: [{ action: 1, pattern: 'rm -rf *' }] }, { tool: 'http', action: 2, args: [] }]);
    assert.deepEqual(read.limits, [{ tool: 'http', perMinute: 30 }]);
    assert.deepEqual(read.hashes, ['ab'.repeat(32)]);
    assert.equal(read.end, blob.length, 'nothing after the payload');
    assert.equal(compiled.canaryBaseline, createHash('sha256').update(blob.subarray(20)).digest('hex').slice(0, 16));
  });

  test('the signature is HMAC-SHA256 over the blob', () => {
    const key = Buffer.alloc(32, 5);
    const blob = finalizeBlob(compilePolicy(POLICY), 'minimal', 1);
    assert.deepEqual(signPolicy(blob, key), createHmac('sha256', key).update(blob).digest());
  });

  test('errors name the line and the reason', () => {
    const cases: [string, number | undefined, RegExp][] = [
      ['default_action: block\nrules:\n  - tool: shell\n    action: explode\n', 4, /rules\.0\.action: must be one of allow, block, warn/],
      ['default_action: allow\nunknown: 1\n', 2, /unknown: unknown key/],
      ['default_action: [unclosed\n', 2, /invalid YAML/],
      ['- just\n- a list\n', undefined, /mapping/],
    ];
    for (const [yaml, line, reason] of cases) {
      assert.throws(() => compilePolicy(yaml), (err: unknown) => err instanceof PolicyCompileError && err.line === line && reason.test(err.message), yaml);
    }
  });

  test('a blob over its profile limit is refused', () => {
    const big = `default_action: block\nhashes:\n  deny:\n${Array.from({ length: 100 }, (_, i) => `    - "${i.toString(16).padStart(64, '0')}"`).join('\n')}\n`;
    const compiled = compilePolicy(big);
    assert.ok(compiled.blob.length > 2048 && compiled.blob.length <= 4096);
    assert.throws(() => finalizeBlob(compiled, 'minimal', 1), PolicyTooLarge);
    assert.equal(finalizeBlob(compiled, 'standard', 1).length, compiled.blob.length);
  });
});

describe('policy routes', () => {
  let gw: InProcessGateway;
  const ADMIN = 'fleet-admin-token-0123456789abcdef';
  const OTA_KEY = '11'.repeat(32);
  const post = (path: string, body: unknown) => fetch(`${gw.url}/api/v1/fleet${path}`, {
    method: 'POST', headers: { authorization: `Bearer ${ADMIN}`, 'x-warden-client': 'test', 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  const simulate = (body: unknown) => post('/policy/simulate', body);
  before(async () => (gw = await startInProcess('config_version: 9\ngateway:\n  api_port: 0\nguardrail:\n  port: 0\nfleet:\n  enabled: true\n  mqtt:\n    embedded_port: 0\n', { WARDEN_FLEET_API_TOKEN: ADMIN, WARDEN_OTA_HMAC_KEY: OTA_KEY })));
  after(() => gw.close());

  test('push: a signed blob reaches the fleet topic on the broker with the next wire version', async () => {
    const subscriber = await mqtt.connectAsync(gw.gateway.fleetBrokerUrl!);
    try {
      await subscriber.subscribeAsync('warden/fleet/3/4/policy', { qos: 1 });
      const received = new Promise<Buffer>((resolve) => subscriber.once('message', (_topic, payload) => resolve(payload)));
      const response = await post('/policy/push', { tenant_id: 3, fleet_id: 4, policy_yaml: POLICY, profile: 'minimal' });
      assert.equal(response.status, 200);
      const body = (await response.json()) as { version: number; blob_size: number; status: string };
      assert.deepEqual([body.version, body.status], [1, 'distributed']);
      const message = await received;
      const blob = message.subarray(0, message.length - 32);
      assert.equal(blob.length, body.blob_size);
      assert.deepEqual(message.subarray(-32), createHmac('sha256', Buffer.from(OTA_KEY, 'hex')).update(blob).digest(), 'signed with WARDEN_OTA_HMAC_KEY');
      assert.equal(readBlob(blob).header.version, 1);
      assert.equal(((await (await post('/policy/push', { tenant_id: 3, fleet_id: 4, policy_yaml: POLICY })).json()) as { version: number }).version, 2);
      const versions = (await (await fetch(`${gw.url}/api/v1/fleet/policy/versions?tenant_id=3&fleet_id=4`, { headers: { authorization: `Bearer ${ADMIN}` } })).json()) as { versions: { version: number; distributed: boolean; policy_bin: unknown }[] };
      assert.deepEqual(versions.versions.map((v) => [v.version, v.distributed, v.policy_bin]), [[2, true, null], [1, true, null]]);
    } finally {
      await subscriber.endAsync();
    }
  });

  test('push refuses bad input: 422 uncompilable, 400 profile, 413 too large, 400 versions without ids', async () => {
    assert.equal((await post('/policy/push', { tenant_id: 3, fleet_id: 5, policy_yaml: 'default_action: nope\n' })).status, 422);
    assert.equal((await post('/policy/push', { tenant_id: 3, fleet_id: 5, policy_yaml: POLICY, profile: 'huge' })).status, 400);
    const big = `default_action: block\nhashes:\n  deny:\n${Array.from({ length: 100 }, (_, i) => `    - "${i.toString(16).padStart(64, '0')}"`).join('\n')}\n`;
    assert.equal((await post('/policy/push', { tenant_id: 3, fleet_id: 5, policy_yaml: big, profile: 'minimal' })).status, 413);
    assert.equal((await fetch(`${gw.url}/api/v1/fleet/policy/versions?tenant_id=3`, { headers: { authorization: `Bearer ${ADMIN}` } })).status, 400);
  });

  test('push at version 65534 is 409', async () => {
    const db = new Database(gw.gateway.settings.paths.fleetDb);
    db.prepare('INSERT INTO policy_versions (tenant_id, fleet_id, version, profile, policy_bin, signature, created_at) VALUES (9, 9, 65534, ?, ?, ?, ?)')
      .run('standard', Buffer.from([0]), Buffer.alloc(32), new Date().toISOString());
    db.close();
    assert.equal((await post('/policy/push', { tenant_id: 9, fleet_id: 9, policy_yaml: POLICY })).status, 409);
  });

  test('compiles without signing and reports the sizes, the canary baseline and the profile fit', async () => {
    const response = await simulate({ policy_yaml: POLICY, profile: 'minimal' });
    assert.equal(response.status, 200);
    const body = (await response.json()) as { blob_size: number; payload_len: number; canary_baseline: string; fits_target_profile: boolean; status: string };
    assert.equal(body.blob_size, body.payload_len + 20);
    assert.match(body.canary_baseline, /^[0-9a-f]{16}$/);
    assert.equal(body.fits_target_profile, true);
  });

  test('422 for a policy that cannot be compiled, 400 for an unknown profile', async () => {
    const bad = await simulate({ policy_yaml: 'default_action: maybe\n' });
    assert.equal(bad.status, 422);
    assert.match(((await bad.json()) as { detail: string }).detail, /line 1/);
    assert.equal((await simulate({ policy_yaml: POLICY, profile: 'huge' })).status, 400);
  });
});
