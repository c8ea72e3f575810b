// Which severities block, confirm and alert (DESIGN.md section 4): explicit config wins, else the rule
// pack's own defaults.
import type { Config, Severity } from '../config/schema.js';

export type VerdictSeverity = Severity | 'NONE';

export const SEVERITY_RANK: Record<VerdictSeverity, number> = { NONE: -1, INFO: 0, LOW: 1, MEDIUM: 2, HIGH: 3, CRITICAL: 4 };

const PACK_THRESHOLDS: Record<string, { block_at: Severity; alert_at: Severity }> = {
  default: { block_at: 'CRITICAL', alert_at: 'MEDIUM' },
  strict: { block_at: 'MEDIUM', alert_at: 'LOW' },
  permissive: { block_at: 'CRITICAL', alert_at: 'HIGH' },
};

/** The thresholds a pack brings when config.yaml sets none (a custom pack: the default pack's). */
export function packThresholds(pack: string): { block_at: Severity; alert_at: Severity } {
  return PACK_THRESHOLDS[pack] ?? PACK_THRESHOLDS.default!;
}

export interface VerdictThresholds {
  mode: 'action' | 'observe';
  blockAt: Severity;
  alertAt: Severity;
  hiltEnabled: boolean;
  hiltMinSeverity: Severity;
}

export function verdictThresholds(config: Config): VerdictThresholds {
  const { guardrail } = config;
  // A custom pack inherits the thresholds of the shipped pack it is named like, or the default pack's.
  const packDefaults = packThresholds(guardrail.rule_pack);
  return {
    mode: guardrail.enabled ? guardrail.mode : 'observe',
    blockAt: guardrail.block_at ?? packDefaults.block_at,
    alertAt: guardrail.alert_at ?? packDefaults.alert_at,
    hiltEnabled: guardrail.hilt_enabled,
    hiltMinSeverity: guardrail.hilt_min_severity,
  };
}

export const atLeast = (severity: VerdictSeverity, threshold: VerdictSeverity): boolean =>
  SEVERITY_RANK[severity] >= SEVERITY_RANK[threshold];
