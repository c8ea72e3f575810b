// What the sidecar's routes are given: the loaded settings and the long-lived domain objects.
import type { Settings } from '../config/settings.js';
import type { AuditStore } from '../audit/store.js';
import type { HealthRegistry } from './health.js';

export interface GatewayContext {
  settings: Settings;
  audit: AuditStore;
  health: HealthRegistry;
  version: string;
  startedAt: Date;
}
