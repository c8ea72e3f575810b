// Verdicts over results computed elsewhere (POST /v1/guardrail/evaluate): a caller that already ran Warden's
// local scan and a remote inspection service (Cisco AI Defense's inspection answer: is_safe, classifications,
// rules, severity, action) hands both over, and gets the verdict Warden's own rules give those findings, by the
// same thresholds, HILT settings and mode handling as an inspection (verdict.ts decide). Nothing is scanned here.
import type { Severity } from '../config/schema.js';
import type { Finding, FindingRule } from './engine.js';
import { atLeast, type VerdictSeverity, type VerdictThresholds } from './thresholds.js';
import { decide, type Verdict } from './verdict.js';

/** A scan result as Warden's own inspection reports it (the caller ran it). */
export interface LocalResult {
  severity: VerdictSeverity;
  action?: string;
  /** `rule_id:title` entries, or bare finding ids. */
  findings?: string[];
  reason?: string;
  is_safe?: boolean;
}

/** One rule of a remote inspection answer (Cisco AI Defense `rules[]`). */
export interface RemoteRule {
  rule_name?: string;
  rule_id?: number | string;
  classification?: string;
  entity_types?: string[];
}

/** A remote inspection answer in Cisco AI Defense's shape. */
export interface RemoteResult {
  is_safe: boolean;
  severity?: string;
  classifications?: string[];
  rules?: RemoteRule[];
  action?: string;
  explanation?: string;
  attack_technique?: string;
  event_id?: string;
}

export interface PrecomputedVerdict {
  verdict: Verdict;
  findings: Finding[];
  /** The scanners whose results contributed a finding, in the order given. */
  scannerSources: string[];
}

const RULE_ID = /^[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+$/;

/**
 * A remote severity as Warden's: Cisco writes `NONE_SEVERITY`, `LOW`, `MEDIUM`, `HIGH` (some answers
 * `SEVERITY_HIGH` or `HIGH_SEVERITY`). An unsafe answer with no usable severity counts as HIGH when the service
 * says Block and MEDIUM otherwise: "unsafe" must never come out as a clean allow.
 */
function remoteSeverity(result: RemoteResult): VerdictSeverity {
  const word = (result.severity ?? '').toUpperCase().replace(/^SEVERITY_|_SEVERITY$/g, '');
  const known = ['NONE', 'INFO', 'LOW', 'MEDIUM', 'HIGH', 'CRITICAL'] as const;
  const severity = known.find((s) => s === word);
  if (result.is_safe) return severity ?? 'NONE';
  const floor: VerdictSeverity = /^block$/i.test(result.action ?? '') ? 'HIGH' : 'MEDIUM';
  return severity && atLeast(severity, floor) ? severity : floor;
}

const asRuleId = (prefix: string, name: string): string =>
  `${prefix}-${name.toUpperCase().replace(/[^A-Z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'FINDING'}`.slice(0, 96);

/** Ordered chains never see this traffic; the category only has to be a valid one. */
const rule = (id: string, title: string, severity: Severity, tags: string[]): FindingRule =>
  ({ id, title, category: 'trust-exploit', severity, confidence: 1, tags, builtin: false });

function localFindings(result: LocalResult, source: string): Finding[] {
  if (result.severity === 'NONE' && result.is_safe !== false) return [];
  // An unsafe result without a severity is at least what the local scan would alert on.
  const severity: Severity = result.severity === 'NONE' ? 'MEDIUM' : result.severity;
  const entries = result.findings?.length ? result.findings : [result.reason || 'local scan finding'];
  return entries.map((entry) => {
    const [head, ...rest] = entry.split(':');
    const id = RULE_ID.test(head!) ? head! : asRuleId('LOCAL', head!);
    return { rule: rule(id, rest.join(':').trim() || entry, severity, [source]), evidence: '' };
  });
}

function remoteFindings(result: RemoteResult, source: string): Finding[] {
  const severity = remoteSeverity(result);
  if (severity === 'NONE') return [];
  const tags = [source, ...(result.classifications ?? [])];
  const named = (result.rules ?? []).map((r) => r.rule_name ?? (r.rule_id === undefined ? '' : String(r.rule_id))).filter((n) => n !== '');
  const names = named.length > 0 ? named : [result.attack_technique && result.attack_technique !== 'NONE_ATTACK_TECHNIQUE'
    ? result.attack_technique : (result.classifications?.[0] ?? 'unsafe content')];
  return names.map((name) => ({ rule: rule(asRuleId(source.toUpperCase(), name), name, severity, tags), evidence: '' }));
}

/**
 * The verdict over a local and a remote result, under `thresholds` with the caller's mode. Every result given
 * counts (a remote block is never dropped); `confirm` becomes `block`, as on every caller without a native
 * approval prompt.
 */
export function decidePrecomputed(
  input: { local?: LocalResult; remote?: RemoteResult; remoteName: string; mode: 'observe' | 'action' },
  thresholds: Readonly<VerdictThresholds>,
): PrecomputedVerdict {
  const local = input.local ? localFindings(input.local, 'local') : [];
  const remote = input.remote ? remoteFindings(input.remote, input.remoteName) : [];
  const findings = [...local, ...remote];
  const verdict = decide(findings, { ...thresholds, mode: input.mode }, { nativeApproval: false, reveal: false });
  const scannerSources = [...(local.length ? ['local'] : []), ...(remote.length ? [input.remoteName] : [])];
  return { verdict, findings, scannerSources };
}
