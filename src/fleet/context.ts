// The fleet subsystem of one gateway run (present only when fleet.enabled).
import type { FastifyBaseLogger } from 'fastify';
import { envVar } from '../config/env.js';
import { hexSecret } from '../util/hex-secret.js';
import { FleetAuth, parseTenantTokens } from './auth.js';
import { AutoRegistration } from './auto-register.js';
import { FleetInbound } from './inbound.js';
import { FleetDevices, type DurableAudit } from './devices.js';
import { KeyVault } from './key-vault.js';
import { FleetMetrics } from './metrics.js';
import { FleetMqtt } from './mqtt.js';
import { SqliteFleetStore } from './store/sqlite.js';
import type { FleetStore } from './store/types.js';
import { VerdictCache } from './verdict-cache.js';

export interface FleetContext {
  auth: FleetAuth;
  devices: FleetDevices;
  store: FleetStore;
  /** Undefined when no broker is configured and embedding is off (publishing routes: 503). */
  mqtt: FleetMqtt | undefined;
  /** WARDEN_OTA_HMAC_KEY; undefined: the policy service is not configured (push: 501). */
  otaKey: Buffer | undefined;
  /** WARDEN_EMERGENCY_KEY, signing emergency frames; undefined: emergency commands answer 501. */
  emergencyKey: Buffer | undefined;
  /** Keys may be delivered over a non-loopback listener only behind a trusted TLS proxy. */
  trustedTlsProxy: boolean;
  cache: VerdictCache;
  metrics: FleetMetrics;
  close(): Promise<void>;
}

export interface FleetOptions {
  dbPath: string;
  vaultKeyPath: string;
  tenantTokens: Record<string, string>;
  trustedTlsProxy: boolean;
  mqtt: { url: string; embedded: boolean; embedded_port: number; protocol_version: 4 | 5; username: string; auto_register: boolean };
}

export async function openFleet(options: FleetOptions, env: Record<string, string | undefined>, audit: DurableAudit, logger: FastifyBaseLogger): Promise<FleetContext> {
  if (options.mqtt.auto_register && options.mqtt.url) {
    // The key would cross the network in the clear: auto-registration stays on the loopback embedded broker.
    throw new Error('fleet.mqtt.auto_register works only with the embedded broker (fleet.mqtt.url must be empty)');
  }
  const tenants = new Map<number, string>(Object.entries(options.tenantTokens).map(([tenant, token]) => [Number(tenant), token]));
  for (const [tenant, token] of parseTenantTokens(envVar(env, 'WARDEN_FLEET_TENANT_TOKENS'))) tenants.set(tenant, token);
  const otaKey = hexSecret(env, 'WARDEN_OTA_HMAC_KEY');
  const emergencyKey = hexSecret(env, 'WARDEN_EMERGENCY_KEY');
  const vault = KeyVault.open(options.vaultKeyPath, env);
  const store = new SqliteFleetStore(options.dbPath);
  let mqtt: FleetMqtt | undefined;
  try {
    const { url, embedded, embedded_port: embeddedPort, protocol_version: protocolVersion, username } = options.mqtt;
    // The broker password comes from the environment only, so config.yaml never holds it.
    mqtt = await FleetMqtt.start({ url, embedded, embeddedPort, protocolVersion, username, password: envVar(env, 'WARDEN_FLEET_MQTT_PASSWORD') });
  } catch (err) {
    await store.close();
    throw err;
  }
  const cache = new VerdictCache();
  const metrics = new FleetMetrics(store, cache);
  const devices = new FleetDevices(store, vault, audit);
  if (mqtt) {
    const autoRegistration = options.mqtt.auto_register ? new AutoRegistration(devices, mqtt) : undefined;
    if (autoRegistration) logger.warn('fleet: MQTT auto-registration is on (local development only): any local client can enroll a new device');
    const inbound = new FleetInbound(store, vault, mqtt, metrics, logger, autoRegistration);
    // Not awaited: with an external broker that is down, the gateway still starts (publishing answers 503).
    mqtt.subscribeInbound((topic, payload) => void inbound.handle(topic, payload)).catch((err: Error) => logger.warn({ err: err.message }, 'fleet: cannot subscribe to device messages'));
  }
  return {
    cache,
    metrics,
    auth: new FleetAuth(envVar(env, 'WARDEN_FLEET_API_TOKEN'), tenants),
    devices,
    store,
    mqtt,
    otaKey,
    emergencyKey,
    trustedTlsProxy: options.trustedTlsProxy,
    async close() {
      await mqtt?.close();
      await store.close();
    },
  };
}
