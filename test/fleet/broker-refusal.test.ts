// An external broker that refuses some of the gateway's publications (an ACL) or requires a login. Mosquitto
// when installed: the gateway speaks MQTT 5 and a refusal is a PUBACK reason code (500 "distribution failed").
// aedes otherwise: it refuses by dropping the connection (503, answered at once, not after the 5 s timeout).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import mqtt, { type MqttClient } from 'mqtt';
import { pino } from 'pino';
import { openFleet } from '../../src/fleet/context.js';
import { pushThreatIntel } from '../../src/fleet/threat-intel.js';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { eventually } from '../helpers/eventually.js';
import { startInProcess, type InProcessGateway } from '../helpers/gateway.js';

const ADMIN = 'fleet-admin-token-0123456789abcdef';
const KEYS = { WARDEN_FLEET_API_TOKEN: ADMIN, WARDEN_OTA_HMAC_KEY: '71'.repeat(32), WARDEN_EMERGENCY_KEY: '72'.repeat(32) };
const POLICY = 'default_action: allow\n';
/** The ACL: the gateway may publish to tenant 1 only. */
const WRITABLE = ['warden/fleet/1/'];

const gatewayConfig = (mqttLines: string) =>
  `config_version: 9\ngateway:\n  api_port: 0\nguardrail:\n  port: 0\nfleet:\n  enabled: true\n  mqtt:\n${mqttLines}`;

function caller(gw: InProcessGateway) {
  return async (path: string, body: unknown) => {
    const response = await fetch(`${gw.url}/api/v1/fleet${path}`, {
      method: 'POST', headers: { authorization: `Bearer ${ADMIN}`, 'x-warden-client': 'test', 'content-type': 'application/json' }, body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
}

describe('a broker ACL that refuses tenant 2', () => {
  let broker: TestBroker;
  let gw: InProcessGateway;
  let post: ReturnType<typeof caller>;
  let observer: MqttClient;
  const seen: string[] = [];
  before(async () => {
    broker = await startTestBroker({ writablePrefixes: WRITABLE });
    gw = await startInProcess(gatewayConfig(`    url: ${broker.url}\n    protocol_version: ${broker.protocolVersion}\n`), KEYS);
    post = caller(gw);
    for (const tenant_id of [1, 2]) assert.equal((await post('/devices', { tenant_id, fleet_id: 1, device_id: 1 })).status, 201);
    // Reads are allowed everywhere: what reached the broker's subscribers shows what it accepted.
    observer = await mqtt.connectAsync(broker.url, { reconnectPeriod: 0 });
    await observer.subscribeAsync(['warden/fleet/+/+/emergency', 'warden/fleet/+/+/policy'], { qos: 1 });
    observer.on('message', (topic) => seen.push(topic));
  });
  after(async () => {
    await observer.endAsync();
    await gw.close();
    await broker.stop();
  });

  test('threat intel: 207 naming the refused fleet; the other fleet gets its flush', async (t) => {
    t.diagnostic(`broker: ${broker.kind}`);
    const { status, body } = await post('/threat-intel/push', { revoke_allow_hashes: ['ab'.repeat(32)] });
    assert.equal(status, 207, JSON.stringify(body));
    assert.deepEqual(body.device_cache_flush_failed, ['2/1']);
    assert.equal(body.device_cache_flush_published, 1);
    assert.equal(body.device_cache_flush_target_fleets, 2);
    assert.equal(body.revoked, 0, 'the gateway-side revocation ran (nothing was cached: see the next suite for a real revocation)');
    await eventually(() => seen.includes('warden/fleet/1/1/emergency'), 'the flush for tenant 1 to reach the broker', 5000);
    assert.ok(!seen.includes('warden/fleet/2/1/emergency'), 'the broker must not have delivered the refused flush');
  });

  test(`policy push and emergency: the refused tenant fails at once, the permitted one is distributed`, async (t) => {
    t.diagnostic(`broker: ${broker.kind}`);
    // Mosquitto answers the MQTT 5 publication with PUBACK 0x87; aedes closes the gateway's connection.
    const expected = broker.kind === 'mosquitto'
      ? { status: 500, error: 'distribution failed', detail: /reason code 0x87 \(Not authorized\)/ }
      : { status: 503, error: 'MQTT broker unavailable', detail: /closed the connection/ };
    for (const [path, body] of [['/policy/push', { tenant_id: 2, fleet_id: 1, policy_yaml: POLICY }], ['/policy/emergency', { tenant_id: 2, fleet_id: 1, command: 'FORCE_SYNC' }]] as const) {
      const started = Date.now();
      const refused = await post(path, body);
      assert.equal(refused.status, expected.status, `${path}: ${JSON.stringify(refused.body)}`);
      assert.equal(refused.body.error, expected.error, path);
      assert.match(String(refused.body.detail), expected.detail, path);
      assert.ok(Date.now() - started < 3000, `${path}: the refusal took ${Date.now() - started} ms, as if it waited for the publish timeout`);
    }
    // The gateway's client is usable again (after a reconnect with aedes) and does not resend the refused messages.
    const pushed = await post('/policy/push', { tenant_id: 1, fleet_id: 1, policy_yaml: POLICY });
    assert.equal(pushed.status, 200, JSON.stringify(pushed.body));
    assert.equal((await post('/policy/emergency', { tenant_id: 1, fleet_id: 1, command: 'FORCE_SYNC' })).status, 200);
    await eventually(() => seen.includes('warden/fleet/1/1/policy'), 'the tenant 1 policy to reach the broker', 5000);
    assert.ok(!seen.some((topic) => topic.startsWith('warden/fleet/2/')), `nothing for tenant 2 may have been delivered: ${seen.join(', ')}`);
  });
});

describe('threat intel as a use case against the refusing broker', () => {
  test('the gateway-side revocation stands when a fleet flush is refused', async (t) => {
    const broker = await startTestBroker({ writablePrefixes: WRITABLE });
    t.diagnostic(`broker: ${broker.kind}`);
    const dir = mkdtempSync(join(tmpdir(), 'warden-refusal-'));
    const fleet = await openFleet(
      { dbPath: join(dir, 'fleet.db'), vaultKeyPath: join(dir, 'fleet.key'), tenantTokens: {}, trustedTlsProxy: false,
        mqtt: { url: broker.url, embedded: false, embedded_port: 0, protocol_version: broker.protocolVersion, username: '', auto_register: false } },
      KEYS, { appendDurably() {} }, pino({ level: 'silent' }),
    );
    try {
      for (const tenant_id of [1, 2]) assert.equal((await fleet.devices.register({ tenant_id, fleet_id: 1, device_id: 1 }, 'test')).status, 201);
      const hash = 'cd'.repeat(32);
      fleet.cache.set(hash, 'allow');
      const result = await pushThreatIntel(fleet, [hash], false);
      assert.equal(result.status, 207, JSON.stringify(result.body));
      assert.deepEqual(result.body.device_cache_flush_failed, ['2/1']);
      assert.equal(result.body.revoked, 1);
      assert.equal(fleet.cache.get(hash), undefined, 'the revoked verdict is gone from the gateway cache');
    } finally {
      await fleet.close();
      await broker.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a broker that requires a login', () => {
  const PASSWORD = 's3cret:p@ss/word';
  let broker: TestBroker;
  before(async () => (broker = await startTestBroker({ users: { warden: PASSWORD } })));
  after(() => broker.stop());

  /** A policy push from a gateway configured with `url` and `moreMqttLines`, and what it reports about its broker. */
  const pushWith = async (url: string, moreMqttLines: string, env: Record<string, string> = {}) => {
    const gw = await startInProcess(gatewayConfig(`    url: "${url}"\n    protocol_version: ${broker.protocolVersion}\n${moreMqttLines}`), { ...KEYS, ...env });
    try {
      const pushed = await caller(gw)('/policy/push', { tenant_id: 3, fleet_id: 1, policy_yaml: POLICY });
      return { pushed, brokerUrl: gw.gateway.fleetBrokerUrl, gatewayJson: readFileSync(gw.gateway.settings.paths.pidFile, 'utf8') };
    } finally {
      await gw.close();
    }
  };

  test('the broker refuses an anonymous client', async (t) => {
    t.diagnostic(`broker: ${broker.kind}`);
    await assert.rejects(mqtt.connectAsync(broker.url, { reconnectPeriod: 0 }), 'an anonymous connection must be refused, or the login tests prove nothing');
  });

  test('fleet.mqtt.username with WARDEN_FLEET_MQTT_PASSWORD: 200, and the password is reported nowhere', async () => {
    const { pushed, brokerUrl, gatewayJson } = await pushWith(broker.url, '    username: warden\n', { WARDEN_FLEET_MQTT_PASSWORD: PASSWORD });
    assert.equal(pushed.status, 200, JSON.stringify(pushed.body));
    assert.equal(brokerUrl, broker.url);
    assert.equal(JSON.parse(gatewayJson).fleet_broker, broker.url);
    assert.ok(!gatewayJson.includes(PASSWORD), `gateway.json leaks the password: ${gatewayJson}`);
  });

  test('userinfo in fleet.mqtt.url: 200, and gateway.json and fleetBrokerUrl show the URL without it', async () => {
    const withLogin = broker.url.replace('mqtt://', `mqtt://warden:${encodeURIComponent(PASSWORD)}@`);
    const { pushed, brokerUrl, gatewayJson } = await pushWith(withLogin, '');
    assert.equal(pushed.status, 200, JSON.stringify(pushed.body));
    assert.equal(brokerUrl, broker.url);
    assert.equal(JSON.parse(gatewayJson).fleet_broker, broker.url);
    assert.ok(!gatewayJson.includes(encodeURIComponent(PASSWORD)) && !gatewayJson.includes('warden:'), `gateway.json leaks the login: ${gatewayJson}`);
  });

  test('a wrong password: 503 saying why the broker is unreachable', async () => {
    const { pushed } = await pushWith(broker.url, '    username: warden\n', { WARDEN_FLEET_MQTT_PASSWORD: 'wrong' });
    assert.equal(pushed.status, 503, JSON.stringify(pushed.body));
    assert.match(String(pushed.body.detail), /not connected: .*(Not authorized|Bad User Name or Password)/i);
  });
});
