// The per-match check behind the secret rules' data-driven fields (value_group, min_entropy,
// placeholder_check; policies/rules.md): a pattern finds something with a credential's shape, this decides
// whether the value in it looks live. Detection (engine patternEvidence) and audit redaction
// (engine redactSecrets) both call it, so what is flagged and what is redacted agree.
import type { Rule } from '../rules/schema.js';
import { meetsEntropy } from './entropy.js';
import { notSecretName, placeholderReason } from './placeholders.js';

export type ValueRule = Pick<Rule, 'value_group' | 'min_entropy' | 'placeholder_check' | 'name_group'>;

/** Does the rule ask for any check on its matches' values? */
export function checksValues(rule: ValueRule): boolean {
  return rule.value_group !== undefined || rule.min_entropy !== undefined || (rule.placeholder_check ?? false) !== false || rule.name_group !== undefined;
}

/** The secret part of a match: the rule's value group when it names one (and it took part), else the match. */
export function secretValue(rule: ValueRule, match: RegExpExecArray): string {
  if (rule.value_group === undefined) return match[0];
  return match[rule.value_group] ?? match[0];
}

/** Does this match hold a value that looks like a live secret by the rule's own standards? */
export function acceptsValue(rule: ValueRule, match: RegExpExecArray): boolean {
  const value = secretValue(rule, match);
  if (value.length === 0) return false;
  const name = rule.name_group === undefined ? undefined : match[rule.name_group];
  if (name !== undefined && notSecretName(name)) return false;
  if (rule.placeholder_check) {
    const level = rule.placeholder_check === 'strict' ? 'strict' : 'basic';
    if (placeholderReason(value, match[0], level) !== undefined) return false;
  }
  if (rule.min_entropy !== undefined && !meetsEntropy(value, rule.min_entropy)) return false;
  return true;
}
