// What the sidecar's routes are given: the loaded settings and the long-lived domain objects.
import type { Settings } from '../config/settings.js';
import type { AuditStore } from '../audit/store.js';
import type { HookInspector } from '../connectors/hook-inspection.js';
import type { HookTokens } from '../connectors/hook-tokens.js';
import type { Inspector } from '../guardrail/inspector.js';
import type { FleetContext } from '../fleet/context.js';
import type { PolicyService } from '../policy/service.js';
import type { SandboxService } from '../sandbox/service.js';
import type { TelemetryContext } from '../telemetry/context.js';
import type { ProviderRegistry } from '../proxy/providers.js';
import type { UpstreamBridge } from '../upstream/index.js';
import type { HealthRegistry } from './health.js';
import type { EventWriter } from '../telemetry/events/writer.js';
import type { GatewayMetrics } from '../telemetry/metrics.js';

/**
 * What a route may ask of the running process (runtime.ts provides it). Both act after the current answer has
 * been sent: a restart or a shutdown closes the listener the asking request came in on.
 */
export interface GatewayLifecycle {
  /** Reload config.yaml and rebind both listeners, as SIGHUP does (a config that fails to load keeps the running one). */
  requestRestart(): void;
  /** Stop gracefully, as SIGTERM does: drain, flush the audit trail, exit 0 (in the CLI). */
  requestShutdown(): void;
}

export interface GatewayContext {
  settings: Settings;
  audit: AuditStore;
  health: HealthRegistry;
  inspector: Inspector;
  hookInspector: HookInspector;
  hookTokens: HookTokens;
  /** The Rego policy (shipped modules and policy_dir), built at start and on restart; reloadable on its own. */
  policy: PolicyService;
  version: string;
  startedAt: Date;
  lifecycle: GatewayLifecycle;
  /** The proxy's provider registry (the same object: a reload through either listener serves both); set by runtime.ts. */
  registry?: ProviderRegistry;
  /** The upstream agent gateway bridge; absent when not configured (gateway.upstream_enabled, connector openclaw). */
  upstream?: UpstreamBridge;
  /** Present when fleet.enabled. */
  fleet?: FleetContext;
  /** Present when openshell.enabled and the gateway was given the sandbox ports (src/sandbox/service.ts). */
  sandbox?: SandboxService;
  /** The OTLP receiver, scoped OTLP credentials and correlation ledger; absent: those routes are not mounted. */
  telemetry?: TelemetryContext;
  /** The gateway's Prometheus metrics (GET /metrics); absent in tests that build a bare sidecar. */
  metrics?: GatewayMetrics;
  /** The event writer: records handed to it reach observability.destinations (redacted). */
  events?: EventWriter;
}
