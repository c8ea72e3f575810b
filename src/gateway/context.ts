// What the sidecar's routes are given: the loaded settings and the long-lived domain objects.
import type { Settings } from '../config/settings.js';
import type { AuditStore } from '../audit/store.js';
import type { HookInspector } from '../connectors/hook-inspection.js';
import type { HookTokens } from '../connectors/hook-tokens.js';
import type { Inspector } from '../guardrail/inspector.js';
import type { FleetContext } from '../fleet/context.js';
import type { PolicyService } from '../policy/service.js';
import type { ProviderRegistry } from '../proxy/providers.js';
import type { UpstreamBridge } from '../upstream/index.js';
import type { HealthRegistry } from './health.js';

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
  /** The proxy's provider registry (the same object: a reload through either listener serves both); set by runtime.ts. */
  registry?: ProviderRegistry;
  /** The upstream agent gateway bridge; absent when not configured (gateway.upstream_enabled, connector openclaw). */
  upstream?: UpstreamBridge;
  /** Present when fleet.enabled. */
  fleet?: FleetContext;
}
