// The guardrail settings an operator may change at run time (PATCH /v1/guardrail/config), without HTTP: the
// snapshot GET answers, and writing a change into config.yaml (comments kept, the whole file validated, the
// connector checked against the registry) before the gateway applies it. Which changes need a restart is decided
// here: the connector names the hook routes' defaults and the proxy's connector, so it is never swapped in place.
import { connectorConfigProblems } from '../connectors/registry.js';
import type { Config, Severity } from '../config/schema.js';
import type { ScannerMode } from '../config/sections/guardrail-runtime.js';
import { updateConfigFile } from '../config/write.js';
import { WardenError } from '../errors.js';
import type { VerdictThresholds } from './thresholds.js';

export interface GuardrailPatch {
  mode?: 'observe' | 'action';
  scanner_mode?: ScannerMode;
  block_message?: string;
  connector?: string;
  hilt_enabled?: boolean;
  hilt_min_severity?: Severity;
}

export const PATCHABLE_KEYS = ['mode', 'scanner_mode', 'block_message', 'connector', 'hilt_enabled', 'hilt_min_severity'] as const;
type PatchableKey = (typeof PATCHABLE_KEYS)[number];

/** Keys whose change restarts the listeners instead of applying in place. */
const RESTART_KEYS: ReadonlySet<PatchableKey> = new Set(['connector']);

export interface GuardrailSnapshot {
  enabled: boolean;
  mode: 'observe' | 'action';
  scanner_mode: ScannerMode;
  block_message: string;
  connector: string;
  connectors: string[];
  hilt_enabled: boolean;
  hilt_min_severity: Severity;
  rule_pack: string;
  /** The thresholds in force (config.yaml's, else the rule pack's). */
  block_at: Severity;
  alert_at: Severity;
  hook_fail_mode: 'closed' | 'open';
  deployment_mode: Config['deployment']['mode'];
}

export function guardrailSnapshot(config: Config, thresholds: Readonly<VerdictThresholds>): GuardrailSnapshot {
  const g = config.guardrail;
  return {
    enabled: g.enabled, mode: g.mode, scanner_mode: g.scanner_mode, block_message: g.block_message, connector: g.connector,
    connectors: g.connectors, hilt_enabled: g.hilt_enabled, hilt_min_severity: g.hilt_min_severity, rule_pack: g.rule_pack,
    block_at: thresholds.blockAt, alert_at: thresholds.alertAt, hook_fail_mode: g.hook_fail_mode, deployment_mode: config.deployment.mode,
  };
}

/** Configuration changes through the API are refused on a managed install (config/sections/deployment.ts). */
export class ManagedConfigRefused extends WardenError {
  constructor() {
    super('WARDEN_ERR_GUARDRAIL_CONFIG_MANAGED',
      'this is a managed_enterprise installation: its configuration is changed by the administrator in config.yaml, not through the API',
      { statusCode: 403 });
  }
}

export interface GuardrailChange {
  key: PatchableKey;
  from: unknown;
  to: unknown;
}

export interface WrittenPatch {
  config: Config;
  changes: GuardrailChange[];
  /** A restart-only key changed: the listeners must restart for the change to take effect. */
  restart: boolean;
}

/**
 * Writes `patch` into the `guardrail` section of config.yaml at `path`. Only keys whose value differs are written;
 * the result is validated as a whole (and its connector against the registry) before it replaces the file, so a
 * refused change leaves the file as it was.
 */
export function writeGuardrailPatch(path: string, current: Config, patch: GuardrailPatch): WrittenPatch {
  if (current.deployment.mode === 'managed_enterprise') throw new ManagedConfigRefused();
  const changes: GuardrailChange[] = PATCHABLE_KEYS
    .filter((key) => patch[key] !== undefined && patch[key] !== current.guardrail[key])
    .map((key) => ({ key, from: current.guardrail[key], to: patch[key] }));
  if (changes.length === 0) return { config: current, changes, restart: false };
  const config = updateConfigFile(path, (doc) => {
    for (const { key, to } of changes) doc.setIn(['guardrail', key], to);
  }, (written) => {
    const problems = connectorConfigProblems(written);
    if (problems.length > 0) {
      throw new WardenError('WARDEN_ERR_GUARDRAIL_CONNECTOR_UNKNOWN', problems.join('; '), { statusCode: 400 });
    }
    // The file on disk may carry a managed mode the running gateway has not loaded yet: it wins.
    if (written.deployment.mode === 'managed_enterprise') throw new ManagedConfigRefused();
  });
  return { config, changes, restart: changes.some((c) => RESTART_KEYS.has(c.key)) };
}
