// Prompt injection and jailbreaks in the text lanes (prompts, model responses, tool output, message lane):
// the built-in trust-exploit rules that speak about the same phrases, and the cue catalogue, become ONE
// finding, TRUST-INJECTION-SCORE, whose severity is the score's band. A text that talks *about* injection
// (a security page quoting "ignore previous instructions") is judged by the same score and stays clean;
// rules about characters (bidi controls, tag smuggling) keep their own findings.
import type { Finding, FindingRule } from '../engine.js';
import { loadCueCatalogue } from './catalogue.js';
import { InjectionScorer, type InjectionScore } from './score.js';

export { InjectionScorer, type InjectionScore } from './score.js';
export { loadCueCatalogue, type CueCatalogue } from './catalogue.js';

export const INJECTION_RULE_ID = 'TRUST-INJECTION-SCORE';

let shipped: InjectionScorer | undefined;
/** The scorer over the shipped catalogue, loaded on first use. */
export function shippedInjectionScorer(): InjectionScorer {
  return (shipped ??= new InjectionScorer(loadCueCatalogue()));
}

/**
 * `findings` of a text-lane scan with the absorbed rules' findings replaced by the score's finding (none when
 * the score stays under the MEDIUM band). Findings of other rules pass through untouched.
 */
export function withInjectionScore(text: string, findings: Finding[], scorer = shippedInjectionScorer()): Finding[] {
  const absorbed = scorer.catalogue.rule_cues;
  const kept: Finding[] = [];
  const scored: Finding[] = [];
  for (const finding of findings) (finding.rule.builtin && finding.rule.id in absorbed ? scored : kept).push(finding);
  const result = scorer.score(text, scored);
  if (!result.severity) return kept;
  return [...kept, { rule: scoreRule(result), evidence: scorer.evidence(result) }];
}

function scoreRule(result: InjectionScore): FindingRule {
  const families = [...result.families].filter(([, v]) => v > 0).sort((a, b) => b[1] - a[1]).map(([f]) => f);
  return {
    id: INJECTION_RULE_ID,
    title: `Prompt injection or jailbreak (score ${result.score.toFixed(2)}: ${families.slice(0, 4).join(', ')})`,
    category: 'trust-exploit',
    severity: result.severity!,
    // 0.6 at the MEDIUM band, rising with the score, never certain
    confidence: Math.min(0.97, Math.round((0.5 + result.score * 0.12) * 100) / 100),
    tags: ['prompt-injection', 'injection-score', ...families],
    builtin: true,
  };
}
