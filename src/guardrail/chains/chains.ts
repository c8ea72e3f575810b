// The ordered chains of the spec ("Inspection", ordered chains): two steps that are each tolerable alone but
// together are an attack, e.g. reading a secret and then sending data out. Window: the longest time from the
// first step to the final one; horizon: the most hook events of the session from the first step to the final.
import type { ChainSignal } from './signals.js';

export type ChainId =
  | 'guardrails-disabled-then-egress'
  | 'permission-denied-then-bypass'
  | 'privilege-discovery-then-elevation'
  | 'secret-manager-read-then-egress'
  | 'sensitive-secret-read-then-egress'
  | 'workload-identity-then-lateral';

export interface ChainDefinition {
  id: ChainId;
  title: string;
  first: ChainSignal;
  final: ChainSignal;
  windowMs: number;
  horizon: number;
}

const MINUTE = 60_000;

export const CHAINS: readonly ChainDefinition[] = [
  {
    id: 'guardrails-disabled-then-egress', title: 'Guardrails disabled, then external egress',
    first: 'guardrails_disabled', final: 'external_egress', windowMs: 30 * MINUTE, horizon: 64,
  },
  {
    id: 'permission-denied-then-bypass', title: 'Permission denied, then runtime bypass',
    first: 'permission_denied', final: 'runtime_bypass', windowMs: 5 * MINUTE, horizon: 16,
  },
  {
    id: 'privilege-discovery-then-elevation', title: 'Privilege discovery, then elevation',
    first: 'privilege_discovery', final: 'privilege_elevation', windowMs: 15 * MINUTE, horizon: 32,
  },
  {
    id: 'secret-manager-read-then-egress', title: 'Secret-manager read, then external egress',
    first: 'secret_manager_read', final: 'external_egress', windowMs: 30 * MINUTE, horizon: 64,
  },
  {
    id: 'sensitive-secret-read-then-egress', title: 'Sensitive secret read, then external egress',
    first: 'sensitive_secret_read', final: 'external_egress', windowMs: 30 * MINUTE, horizon: 64,
  },
  {
    id: 'workload-identity-then-lateral', title: 'Workload identity access, then lateral execution',
    first: 'workload_identity_access', final: 'lateral_execution', windowMs: 15 * MINUTE, horizon: 32,
  },
];

export const CHAIN_BY_ID = new Map(CHAINS.map((c) => [c.id, c]));
/** Nothing older than this can still be part of any chain. */
export const LONGEST_WINDOW_MS = Math.max(...CHAINS.map((c) => c.windowMs));

export interface ChainMatch {
  chain: ChainId;
  /** The signals of the first and the final step. */
  steps: [ChainSignal, ChainSignal];
  /** When the (most recent) first step happened, epoch ms. */
  firstAt: number;
}

export interface ChainFinding {
  ruleId: string;
  title: string;
  severity: 'HIGH';
  confidence: number;
  tags: string[];
  /** Which steps matched: signal names only, never the commands. */
  evidence: string;
}

/** The finding a chain match becomes. Chain matches are HIGH: the connector's action matrix decides. */
export function chainFinding(match: ChainMatch): ChainFinding {
  const chain = CHAIN_BY_ID.get(match.chain)!;
  return {
    ruleId: `CHAIN-${chain.id.toUpperCase()}`,
    title: chain.title,
    severity: 'HIGH',
    confidence: 0.8,
    tags: ['ordered-chain'],
    evidence: `${match.steps[0]} then ${match.steps[1]}`,
  };
}
