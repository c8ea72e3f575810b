// From findings to the verdict the agent sees (spec "Inspection verdict", rules 1-6, and DESIGN.md 4).
import type { Finding } from './engine.js';
import { redactEvidence } from './redact.js';
import { atLeast, SEVERITY_RANK, type VerdictThresholds, type VerdictSeverity } from './thresholds.js';

export type VerdictAction = 'block' | 'confirm' | 'alert' | 'allow';

export interface DetailedFinding {
  rule_id: string;
  title: string;
  severity: VerdictSeverity;
  confidence: number;
  evidence: string;
  tags: string[];
  tool_capability_class?: string;
}

export interface Verdict {
  action: VerdictAction;
  raw_action?: VerdictAction;
  severity: VerdictSeverity;
  confidence: number;
  reason: string;
  findings: string[];
  detailed_findings?: DetailedFinding[];
  mode: 'action' | 'observe' | '';
  would_block?: boolean;
  approval_timeout_ms?: number;
}

export interface DecideOptions {
  /** The caller can show the agent's own approval prompt; anyone else gets `block` for `confirm`. */
  nativeApproval: boolean;
  /** Raw evidence instead of `<redacted len=N sha=…>`. */
  reveal: boolean;
}

/** Empty content: allowed before any threshold applies (rule 2). */
export const FAST_ALLOW: Readonly<Verdict> = Object.freeze({
  action: 'allow', severity: 'NONE', confidence: 0, reason: '', findings: [], mode: '',
});

export function decide(findings: Finding[], thresholds: VerdictThresholds, options: DecideOptions): Verdict {
  const ordered = [...findings].sort(
    (a, b) => SEVERITY_RANK[b.rule.severity] - SEVERITY_RANK[a.rule.severity] || b.rule.confidence - a.rule.confidence,
  );
  const top = ordered[0];
  const severity: VerdictSeverity = top?.rule.severity ?? 'NONE';
  const confidence = top ? Math.max(...ordered.filter((f) => f.rule.severity === severity).map((f) => f.rule.confidence)) : 0;

  // A detection-only finding (policies/rules.md "Tags") reports but does not decide: at most an alert.
  const deciding = ordered.find((f) => !f.detectionOnly);
  const decidingSeverity = deciding?.rule.severity;
  let raw: VerdictAction = 'allow';
  if (decidingSeverity && atLeast(decidingSeverity, thresholds.blockAt)) raw = 'block';
  else if (decidingSeverity && atLeast(decidingSeverity, thresholds.alertAt)) {
    raw = thresholds.hiltEnabled && atLeast(decidingSeverity, thresholds.hiltMinSeverity) ? 'confirm' : 'alert';
  }
  if (raw === 'allow' && top && atLeast(severity, thresholds.alertAt)) raw = 'alert';
  // Confirmation needs a caller that can ask the user; anything else fails closed (rule 4).
  if (raw === 'confirm' && !options.nativeApproval) raw = 'block';

  const verdict: Verdict = {
    action: thresholds.mode === 'action' ? raw : 'allow', // rule 1: observe mode downgrades everything to allow
    raw_action: raw,
    severity,
    confidence,
    reason: top && raw !== 'allow' ? reasonFor(raw, raw === 'alert' ? top : deciding!) : '',
    findings: ordered.map((f) => `${f.rule.id}:${f.rule.title}`),
    mode: thresholds.mode,
  };
  if (ordered.length > 0) verdict.detailed_findings = ordered.map((f) => detailed(f, options.reveal));
  if (raw === 'block' && verdict.action !== 'block') verdict.would_block = true;
  return verdict;
}

function reasonFor(action: VerdictAction, top: Finding): string {
  const rule = top.rule.builtin ? `${top.rule.id} (${top.rule.title})` : top.rule.id;
  switch (action) {
    case 'block':
      return `Blocked by Warden policy: rule ${rule} matched. Do not retry this action in another form.`;
    case 'confirm':
      return `Warden policy asks for confirmation: rule ${rule} matched.`;
    default:
      return `Warden policy flagged this action: rule ${rule} matched.`;
  }
}

function detailed(finding: Finding, reveal: boolean): DetailedFinding {
  const { rule } = finding;
  return {
    rule_id: rule.id,
    title: rule.title,
    severity: rule.severity,
    confidence: rule.confidence,
    evidence: reveal ? finding.evidence : redactEvidence(finding.evidence),
    tags: rule.tags,
    ...(rule.tool_capability_class ? { tool_capability_class: rule.tool_capability_class } : {}),
  };
}
