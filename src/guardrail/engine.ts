// Matching a rule pack against content. All patterns of the pack are compiled into one RE2.Set, so a scan
// is a single linear pass over the text however many rules there are; only the rules the set nominates are
// then looked at one by one (evidence, checksums, expressions).
import RE2 from 're2';
import type { ActionFacts } from './facts/types.js';
import type { CompiledRule, RulePack } from './rules/load.js';
import { redactEvidence } from './redact.js';
import { acceptsValue, checksValues, secretValue } from './secrets/value-check.js';
import { isSignedJwt, passesIban, passesLuhn } from './validators.js';

/** What a verdict needs to know of the rule behind a finding (a pack rule, or an ordered chain). */
export type FindingRule = Pick<CompiledRule, 'id' | 'title' | 'category' | 'severity' | 'confidence' | 'tags' | 'builtin' | 'tool_capability_class'>;

export interface Finding {
  rule: FindingRule;
  /** The matched text (unredacted; the verdict redacts it). */
  evidence: string;
  /** A tool-call finding of a rule tagged `detection-only`: reported, at most an alert, never a block. */
  detectionOnly?: true;
}

/** The tag of rules that report on tool calls without deciding (the 8 → 9 migration gives it to pattern-only rules). */
export const DETECTION_ONLY_TAG = 'detection-only';

const toolFinding = (rule: CompiledRule, evidence: string): Finding =>
  rule.tags.includes(DETECTION_ONLY_TAG) ? { rule, evidence, detectionOnly: true } : { rule, evidence };

const MAX_EVIDENCE = 256;
/** Matches looked at per pattern before a rule gives up: placeholders first must not hide a secret behind them. */
const MAX_VALIDATED_MATCHES = 64;
/** Global ('g') twins of patterns whose every match must be checked (luhn/iban), compiled once. */
const globalTwins = new WeakMap<RE2, RE2>();

type Candidates = Map<CompiledRule, Set<number>>;

export class InspectionEngine {
  constructor(readonly pack: RulePack) {}

  /** Prompts, responses, tool outputs and message-lane content: patterns only, no tool-call rules. */
  scanText(text: string): Finding[] {
    const findings: Finding[] = [];
    for (const [rule, patterns] of this.candidates(text)) {
      if (rule.tool_call_only) continue;
      const evidence = patternEvidence(rule, patterns, text);
      if (evidence !== undefined) findings.push({ rule, evidence });
    }
    return findings;
  }

  /**
   * A tool call: `text` is the tool name and its argument strings, `facts` what the call does. A rule with an
   * expression decides on the facts when the call was parsed (its patterns, over the raw and the normalised
   * text, only nominate it); otherwise, and for rules without one, the patterns decide.
   */
  scanToolCall(text: string, facts: ActionFacts): Finding[] {
    // One pass over both texts: a pattern that happens to match across the joining newline only nominates a
    // rule, which then needs evidence in one of the texts, or an expression true on the facts.
    const candidates = this.candidates(facts.parsed ? `${text}\n${facts.normalized}` : text);
    const findings: Finding[] = [];
    for (const [rule, patterns] of candidates) {
      if (rule.evaluate && facts.parsed) {
        let matched: boolean;
        try {
          matched = rule.evaluate(facts);
        } catch {
          matched = patternEvidence(rule, patterns, text) !== undefined; // expression error: the patterns decide
        }
        if (matched) {
          const evidence = patternEvidence(rule, patterns, facts.normalized) ?? patternEvidence(rule, patterns, text) ?? '';
          findings.push(toolFinding(rule, evidence));
        }
        continue;
      }
      const evidence = patternEvidence(rule, patterns, text) ?? (facts.parsed ? patternEvidence(rule, patterns, facts.normalized) : undefined);
      if (evidence !== undefined) findings.push(toolFinding(rule, evidence));
    }
    return findings;
  }

  /**
   * `text` with every match of an enabled secret rule replaced by its redacted form, as evidence is. Only
   * matches that detection would accept are replaced (same placeholder and entropy checks), and only the
   * rule's value group when it names one, so `password=<redacted …>` still says what was there.
   */
  redactSecrets(text: string): string {
    let out = text;
    for (const [rule, patterns] of this.candidates(text)) {
      if (rule.category !== 'secret') continue;
      for (const index of patterns) out = redactMatches(rule, index, out);
    }
    return out;
  }

  /** Enabled rules with at least one pattern matching `text`, with the indexes of those patterns. */
  private candidates(text: string): Candidates {
    const into: Candidates = new Map();
    if (text.length === 0) return into;
    const { patternSet, patternOwners } = this.pack;
    // RE2 reads UTF-8: handing it a Buffer is cheaper than letting it convert the string (0.5 us of 1.5 on
    // a short tool call, 2 to 4 us on 4 KiB); a set match reports pattern indexes, not offsets, so nothing
    // has to be mapped back to string positions.
    for (const index of patternSet.match(Buffer.from(text))) {
      const { rule, pattern } = patternOwners[index]!;
      if (!rule.enabled) continue;
      let patterns = into.get(rule);
      if (!patterns) into.set(rule, (patterns = new Set()));
      patterns.add(pattern);
    }
    return into;
  }
}

function globalTwin(rule: CompiledRule, index: number): RE2 {
  const regex = rule.regex(index);
  let global = globalTwins.get(regex);
  if (!global) globalTwins.set(regex, (global = new RE2(rule.patterns[index]!, 'gu')));
  return global;
}

/** Checksum tags (`luhn`, `iban`, `jwt`) and the value checks (placeholders, entropy) on one match. */
function acceptsMatch(rule: CompiledRule, match: RegExpExecArray): boolean {
  if (rule.tags.includes('luhn') && !passesLuhn(match[0])) return false;
  if (rule.tags.includes('iban') && !passesIban(match[0])) return false;
  if (rule.tags.includes('jwt') && !isSignedJwt(secretValue(rule, match))) return false;
  return !checksValues(rule) || acceptsValue(rule, match);
}

/** The first match of one of the rule's nominated patterns that passes the rule's checks. */
function patternEvidence(rule: CompiledRule, patterns: Set<number>, text: string): string | undefined {
  for (const index of patterns) {
    if (!rule.checksMatches) {
      const match = rule.regex(index).exec(text);
      if (match) return match[0].slice(0, MAX_EVIDENCE);
      continue;
    }
    const global = globalTwin(rule, index);
    global.lastIndex = 0;
    for (let i = 0; i < MAX_VALIDATED_MATCHES; i++) {
      const match = global.exec(text);
      if (!match) break;
      if (match[0].length === 0) global.lastIndex++;
      else if (acceptsMatch(rule, match)) return match[0].slice(0, MAX_EVIDENCE);
    }
  }
  return undefined;
}

/** `text` with the accepted matches of one pattern redacted: the value group if the rule names one, else the match. */
function redactMatches(rule: CompiledRule, index: number, text: string): string {
  const global = globalTwin(rule, index);
  global.lastIndex = 0;
  // Repeated values (a token pasted many times, or adversarial input) are judged and hashed once. replace()
  // walks the matches inside RE2, cheaper than an exec() loop from JavaScript on large text.
  const decided = new Map<string, string | null>();
  return global.replace(text, (...args: unknown[]): string => {
    const whole = args[0] as string;
    const groups = args.slice(0, args.findIndex((a) => typeof a === 'number')) as (string | undefined)[];
    const match = Object.assign(groups, { index: 0, input: text }) as unknown as RegExpExecArray;
    const value = secretValue(rule, match);
    const key = value === whole ? value : `${whole}\u0000${value}`;
    let replacement = decided.get(key);
    if (replacement === undefined) decided.set(key, (replacement = whole.length > 0 && acceptsMatch(rule, match) ? redactEvidence(value) : null));
    if (replacement === null) return whole;
    // the value group sits at the end of a keyword match, so its last occurrence in the match is the group
    if (value === whole) return replacement;
    const at = whole.lastIndexOf(value);
    return whole.slice(0, at) + replacement + whole.slice(at + value.length);
  });
}
