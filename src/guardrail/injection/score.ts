// The injection score: which cues a text (and its decoded readings) hits, summed per family with caps, plus
// the combination bonuses, minus the discussion discount; then the band (MEDIUM / HIGH / CRITICAL) it falls
// in. One RE2.Set pass per text reading; decoding is bounded (variants.ts).
import RE2 from 're2';
import type { Finding } from '../engine.js';
import type { Severity } from '../../config/schema.js';
import type { Cue, CueCatalogue, Hint } from './catalogue.js';
import { normalise } from './normalize.js';
import { decodedCandidates, variant } from './variants.js';

export interface InjectionScore {
  score: number;
  /** Family → its capped contribution (only families that fired). */
  families: Map<string, number>;
  /** Ids of the cues and absorbed rules that fired. */
  cues: string[];
  severity?: Severity;
  /** The text a cue matched in, and the cue (for evidence, computed only when the score is reported). */
  evidenceFrom?: { text: string; cue: Cue };
}

/** Families that mean "the text instructs", so a decoded or smuggled reading that hits one is itself a cue. */
const INSTRUCTIVE = new Set(['override', 'extraction', 'persona', 'no-limits', 'mode', 'refusal', 'task-hijack', 'addressing', 'directive', 'exfil', 'concealment', 'dual']);
const ENCODED_WEIGHT = 0.7;
const SMUGGLED_WEIGHT = 0.9;
const MAX_EVIDENCE = 256;
const EVIDENCE_WINDOW = 16 * 1024;

export class InjectionScorer {
  constructor(readonly catalogue: CueCatalogue) {}

  /** Score `raw`, counting the hits of the engine's rules listed in `rule_cues` among `ruleFindings`. */
  score(raw: string, ruleFindings: Finding[] = []): InjectionScore {
    const { catalogue } = this;
    const hits = new Map<Cue, string>(); // cue → the reading it was found in
    const { text, smuggled } = normalise(raw);
    const hints = this.match(text, hits);
    for (const hint of hints) if (hint !== 'encoded') this.match(variant(text, hint), hits, false);

    const sums = new Map<string, number>();
    const add = (family: string, weight: number) => sums.set(family, (sums.get(family) ?? 0) + weight);
    const ids: string[] = [];
    for (const cue of hits.keys()) {
      add(cue.family, cue.weight);
      ids.push(cue.id);
    }
    // Decoded and smuggled readings: their own cues count, and an instructive one marks the concealment.
    // Encoded pieces are looked for only when the cue pass saw something shaped like one.
    const readings: [string, string, number][] = hints.has('encoded') ? decodedCandidates(raw).map((d) => [d, 'encoded', ENCODED_WEIGHT]) : [];
    if (smuggled) readings.push([smuggled, 'hidden', SMUGGLED_WEIGHT]);
    for (const [reading, family, weight] of readings) {
      const found = new Map<Cue, string>();
      this.match(normalise(reading).text, found, false);
      let instructive = false;
      for (const cue of found.keys()) {
        if (hits.has(cue)) continue;
        hits.set(cue, found.get(cue)!);
        add(cue.family, cue.weight);
        ids.push(`${family}:${cue.id}`);
        instructive ||= INSTRUCTIVE.has(cue.family);
      }
      if (instructive) add(family, weight);
    }
    // An absorbed rule usually saw the same phrase as a cue of its family: within a family the larger of
    // the two counts, not their sum.
    const ruleMax = new Map<string, number>();
    for (const finding of ruleFindings) {
      const rule = catalogue.rule_cues[finding.rule.id];
      if (!rule) continue;
      ruleMax.set(rule.family, Math.max(ruleMax.get(rule.family) ?? 0, rule.weight));
      ids.push(finding.rule.id);
    }
    for (const [family, weight] of ruleMax) sums.set(family, Math.max(sums.get(family) ?? 0, weight));

    const families = new Map<string, number>();
    let score = 0;
    let discount = 0;
    for (const [family, sum] of sums) {
      if (family === 'hint' || sum === 0) continue;
      const cap = catalogue.cap(family);
      const value = cap < 0 ? Math.max(cap, sum) : Math.min(cap, sum);
      families.set(family, value);
      if (value > 0) score += value;
      else discount += value;
    }
    for (const combo of catalogue.combos) {
      if (families.has(combo.when) && combo.with.some((f) => (families.get(f) ?? 0) > 0)) score += combo.add;
    }
    const positive = [...families.values()].filter((v) => v > 0).length;
    if (positive >= catalogue.breadth.min_families) score += catalogue.breadth.add;
    // Talking about injection lowers the score, but hardly when the text also hides itself.
    if (families.has('hidden') || families.has('encoded')) discount /= 3;
    score = Math.max(0, score + discount);

    const { bands } = catalogue;
    let severity: Severity | undefined;
    if (score >= bands.critical && bands.critical_requires.some((f) => families.has(f))) severity = 'CRITICAL';
    else if (score >= bands.high) severity = 'HIGH';
    else if (score >= bands.medium) severity = 'MEDIUM';
    const strongest = [...hits.entries()].filter(([c]) => c.weight > 0).sort(([a], [b]) => b.weight - a.weight)[0];
    return {
      score: Math.round(score * 100) / 100, families, cues: ids, severity,
      evidenceFrom: strongest ? { text: strongest[1], cue: strongest[0] } : undefined,
    };
  }

  /** The first match of the strongest cue, for the finding's evidence (one regex, only when reported). */
  evidence(result: InjectionScore): string {
    const from = result.evidenceFrom;
    if (!from) return result.cues.join(', ').slice(0, MAX_EVIDENCE);
    // A single regex with captures may fall back to a slow engine: look in a bounded window only.
    const window = from.text.length > EVIDENCE_WINDOW ? from.text.slice(0, EVIDENCE_WINDOW) : from.text;
    for (const owner of this.catalogue.owners) {
      if (owner.cue !== from.cue) continue;
      const match = this.regex(owner.source).exec(window);
      if (match) return match[0].slice(0, MAX_EVIDENCE);
    }
    return from.cue.id;
  }

  /** Cues of `text` into `hits` (first reading wins); returns the hints asked for (only when `withHints`). */
  private match(text: string, hits: Map<Cue, string>, withHints = true): Set<Hint> {
    const hints = new Set<Hint>();
    if (text.length === 0) return hints;
    const { owners, set } = this.catalogue;
    for (const index of set.match(Buffer.from(text))) {
      const { cue } = owners[index]!;
      if (cue.hint) {
        if (withHints) hints.add(cue.hint);
        continue;
      }
      if (!hits.has(cue)) hits.set(cue, text);
    }
    return hints;
  }

  private readonly compiled = new Map<string, RE2>();
  private regex(source: string): RE2 {
    let regex = this.compiled.get(source);
    if (!regex) this.compiled.set(source, (regex = new RE2(source, 'u')));
    return regex;
  }
}
