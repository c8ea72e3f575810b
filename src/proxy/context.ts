// What the proxy's routes are given: the long-lived objects of one gateway run.
import type { FastifyBaseLogger } from 'fastify';
import type { AuditStore } from '../audit/store.js';
import type { Config } from '../config/schema.js';
import type { ProxyAuthenticator } from './auth.js';
import type { ProxyInspection } from './inspection.js';
import type { ProviderRegistry } from './providers.js';
import type { Upstream } from './upstream.js';
import type { GatewayMetrics } from '../telemetry/metrics.js';

export interface ProxyContext {
  config: Config;
  /** Re-reads config.yaml (for the provider registry reload). */
  readConfig: () => Config;
  audit: AuditStore;
  auth: ProxyAuthenticator;
  inspection: ProxyInspection;
  registry: ProviderRegistry;
  upstream: Upstream;
  logger: FastifyBaseLogger;
  /** The gateway's Prometheus metrics (GET /metrics on the proxy, added latency). */
  metrics?: GatewayMetrics;
}
