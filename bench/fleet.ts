// Device fleet: registrations per second through the API, signed heartbeats per second through the broker
// into the gateway (HMAC verification, replay checks, store updates), and a policy push to 1,000 simulated
// devices until 95% have verified and applied it. Baselines from the same run: the broker delivering the same
// heartbeats to a subscriber that only counts them, and a bare Fastify JSON route's requests per second.
// Targets (issue 6): heartbeats >= 5,000/s; 95% of 1,000 devices applied within 2 s.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import mqtt from 'mqtt';
import { encodeMessage } from '../src/fleet/device-messages.js';
import { registerDevice, startSimulatedFleet } from '../src/fleet/simulated-fleet.js';
import { load } from './lib/load.js';
import { startProcess } from './lib/processes.js';
import { round, writeResult } from './lib/report.js';

const CLI = fileURLToPath(new URL('../dist/cli/warden.js', import.meta.url));
const BARE = fileURLToPath(new URL('./lib/bare-server.ts', import.meta.url));
const ADMIN = 'bench-fleet-admin-token-0123456789';
const OTA = Buffer.alloc(32, 0x61);
const EMERGENCY = Buffer.alloc(32, 0x62);
const REGISTRATIONS = Number(process.env.BENCH_FLEET_DEVICES ?? 10_000);
const HEARTBEATS = Number(process.env.BENCH_FLEET_HEARTBEATS ?? 20_000);
const PUSH_DEVICES = Number(process.env.BENCH_FLEET_PUSH_DEVICES ?? 1000);

async function metric(sidecar: string, name: string): Promise<number> {
  const text = await (await fetch(`${sidecar}/api/v1/fleet/metrics`, { headers: { authorization: `Bearer ${ADMIN}` } })).text();
  return Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
}

export async function run(): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'warden-bench-fleet-'));
  writeFileSync(join(home, 'config.yaml'), 'config_version: 9\ngateway:\n  api_port: 0\n  log_level: warn\nguardrail:\n  port: 0\nfleet:\n  enabled: true\n  mqtt:\n    embedded_port: 0\n');
  const env = { ...process.env, WARDEN_HOME: home, WARDEN_FLEET_API_TOKEN: ADMIN, WARDEN_OTA_HMAC_KEY: OTA.toString('hex'), WARDEN_EMERGENCY_KEY: EMERGENCY.toString('hex') };
  const gateway = await startProcess([CLI, 'start'], env, /^ready sidecar=(\S+)/m);
  const sidecar = gateway.line[1]!;
  const broker = (JSON.parse(readFileSync(join(home, 'gateway.json'), 'utf8')) as { fleet_broker: string }).fleet_broker;
  const bare = await startProcess(['--import', 'tsx', BARE], process.env, /^ready (\S+)$/m);
  try {
    // Registrations, 16 in flight.
    const keys: Buffer[] = [];
    let t = performance.now();
    for (let i = 0; i < REGISTRATIONS; i += 16) {
      const batch = Array.from({ length: Math.min(16, REGISTRATIONS - i) }, (_, j) => ({ tenant_id: 1, fleet_id: 1, device_id: i + j + 1 }));
      keys.push(...(await Promise.all(batch.map((address) => registerDevice(sidecar, ADMIN, address)))));
    }
    const registrationsPerSecond = REGISTRATIONS / ((performance.now() - t) / 1000);
    const bareRoute = await load({ url: `${bare.line[1]}/json`, method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"tenant_id":1}', seconds: 2 });

    // Heartbeats: pre-signed (the sending side's cost stays out), spread over 1,000 devices, 4 publishers.
    const devices = Math.min(1000, REGISTRATIONS);
    const messages = Array.from({ length: HEARTBEATS }, (_, i) => {
      const d = i % devices;
      return {
        topic: `warden/fleet/1/1/device/${d + 1}/heartbeat`,
        payload: encodeMessage(keys[d]!, {
          kind: 'heartbeat', status: 'online', flags: 0, sequence: Math.floor(i / devices) + 1, timestamp: Date.now(), policy_version: 0,
          emergency_applied: 0, allowed_total: i, denied_total: 0, alerts_total: 0, flash_writes: 0,
        }),
      };
    });
    const publishers = await Promise.all([0, 1, 2, 3].map(() => mqtt.connectAsync(broker)));
    const send = async () => {
      await Promise.all(publishers.map(async (client, p) => {
        for (let i = p; i < messages.length; i += publishers.length) client.publish(messages[i]!.topic, messages[i]!.payload, { qos: 0 });
      }));
    };
    // Baseline: the broker delivering the same messages to a subscriber that only counts.
    const counter = await mqtt.connectAsync(broker);
    await counter.subscribeAsync('bench/+/heartbeat', { qos: 0 });
    let counted = 0;
    counter.on('message', () => counted++);
    t = performance.now();
    await Promise.all(publishers.map(async (client, p) => {
      for (let i = p; i < messages.length; i += publishers.length) client.publish(`bench/${i % devices}/heartbeat`, messages[i]!.payload, { qos: 0 });
    }));
    while (counted < HEARTBEATS && performance.now() - t < 30_000) await new Promise((r) => setTimeout(r, 10));
    const brokerOnlyPerSecond = counted / ((performance.now() - t) / 1000);
    await counter.endAsync();

    const before = await metric(sidecar, 'warden_fleet_heartbeats_received_total');
    t = performance.now();
    await send();
    let accepted = before;
    while (accepted - before < HEARTBEATS && performance.now() - t < 60_000) {
      await new Promise((r) => setTimeout(r, 50));
      accepted = await metric(sidecar, 'warden_fleet_heartbeats_received_total');
    }
    const heartbeatsPerSecond = (accepted - before) / ((performance.now() - t) / 1000);
    await Promise.all(publishers.map((c) => c.endAsync()));

    // Policy push to a fleet of simulated devices.
    const fleet = await startSimulatedFleet({ sidecarUrl: sidecar, adminToken: ADMIN, brokerUrl: broker, tenant_id: 2, fleet_id: 1, devices: PUSH_DEVICES, otaKey: OTA, emergencyKey: EMERGENCY, concurrency: 50 });
    t = performance.now();
    const pushed = await fetch(`${sidecar}/api/v1/fleet/policy/push`, {
      method: 'POST', headers: { authorization: `Bearer ${ADMIN}`, 'x-warden-client': 'bench', 'content-type': 'application/json' },
      body: JSON.stringify({ tenant_id: 2, fleet_id: 1, policy_yaml: 'default_action: block\nrules:\n  - tool: shell\n    action: warn\n' }),
    });
    if (pushed.status !== 200) throw new Error(`policy push answered ${pushed.status}`);
    const target = Math.ceil(PUSH_DEVICES * 0.95);
    while (fleet.devices.filter((d) => d.stats.policyVersion === 1).length < target && performance.now() - t < 30_000) await new Promise((r) => setTimeout(r, 5));
    const appliedTimes = fleet.devices.map((d) => d.stats.appliedAt.get(1)).filter((x): x is number => x !== undefined).sort((a, b) => a - b);
    const p95Ms = appliedTimes.length >= target ? appliedTimes[target - 1]! - t : Number.NaN;
    await fleet.stop();

    const file = writeResult({
      name: 'fleet',
      metrics: {
        registrations_per_second: round(registrationsPerSecond, 0),
        heartbeats_per_second: round(heartbeatsPerSecond, 0),
        policy_push_95pct_applied_ms: round(p95Ms, 0),
        policy_push_devices: PUSH_DEVICES,
        heartbeat_messages: HEARTBEATS,
      },
      baseline: {
        bare_route_requests_per_second: round(bareRoute.requestsPerSecond, 0),
        broker_only_messages_per_second: round(brokerOnlyPerSecond, 0),
      },
      ratio: {
        registrations_vs_bare_route: round(registrationsPerSecond / bareRoute.requestsPerSecond, 3),
        heartbeats_vs_broker_only: round(heartbeatsPerSecond / brokerOnlyPerSecond, 3),
      },
      notes: [
        'targets: heartbeats_per_second >= 5000; policy_push_95pct_applied_ms <= 2000',
        `registrations: ${REGISTRATIONS} through POST /devices, 16 in flight (each commits an audit row before the key)`,
        'heartbeats: pre-signed, 1,000 devices, 4 publishers at QoS 0; counted when the gateway accepted them',
      ],
    });
    process.stdout.write(`fleet -> ${file}\n`);
  } finally {
    await bare.stop();
    await gateway.stop();
    rmSync(home, { recursive: true, force: true });
  }
}
