// The confidence-scoring policy: a weight per evidence kind and the thresholds of the levels. A signal's score
// treats the distinct kinds of evidence behind it as independent clues, 1 - Π(1 - weight), so more kinds of
// evidence raise it and repeating one kind does not. The shipped policy is policies/discovery/confidence.yaml;
// `ai_discovery.confidence_policy` names an operator's. A policy that does not load leaves the shipped one in
// force and its problems reported; validate() checks a candidate without changing anything.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import Type, { type Static } from 'typebox';
import { resolvePolicyDir } from '../policy/files.js';
import { CONFIDENCE_FILE, SHIPPED_DISCOVERY_DIR } from './packs.js';
import { EVIDENCE_KINDS, type Confidence, type Evidence } from './types.js';
import { readCappedFile, readYamlChecked, YamlProblem } from './yaml-file.js';

const Weight = (kind: string) => Type.Number({ minimum: 0, maximum: 1, description: `Weight of ${kind} evidence, 0 … 1.` });
const Threshold = (level: string) => Type.Number({ exclusiveMinimum: 0, maximum: 1, description: `Lowest score that is ${level}.` });

export const ConfidencePolicySchema = Type.Object(
  {
    version: Type.Literal(1, { description: 'Format version; must be 1.' }),
    weights: Type.Object(Object.fromEntries(EVIDENCE_KINDS.map((kind) => [kind, Weight(kind)])), {
      additionalProperties: false,
      description: 'Weight per evidence kind; every kind must be given.',
    }),
    thresholds: Type.Object(
      { medium: Threshold('medium'), high: Threshold('high') },
      { additionalProperties: false, description: 'Score thresholds: below `medium` is low.' },
    ),
  },
  { additionalProperties: false, title: 'Warden AI discovery confidence policy', description: 'How discovery scores its signals.' },
);

export type ConfidencePolicy = Static<typeof ConfidencePolicySchema> & { weights: Record<(typeof EVIDENCE_KINDS)[number], number> };

export interface ActivePolicy {
  /** `shipped`, or the configured path. */
  source: string;
  digest: string;
  policy: ConfidencePolicy;
  /** Why the configured policy is not the one in force (it did not load). */
  problems: string[];
}

/** Parses and checks policy text; throws YamlProblem listing every problem. */
export function parsePolicy(text: Buffer | string, where: string): ConfidencePolicy {
  const policy = readYamlChecked<ConfidencePolicy>(text, where, ConfidencePolicySchema);
  if (policy.thresholds.medium >= policy.thresholds.high) {
    throw new YamlProblem([`${where}: thresholds.medium: ${policy.thresholds.medium} must be below thresholds.high (${policy.thresholds.high})`]);
  }
  return policy;
}

const digestOf = (bytes: Buffer | string) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/** The policy in force: the configured one when it loads, else the shipped one with the problems. */
export function loadConfidencePolicy(configured: string, wardenHome: string, home: string): ActivePolicy {
  const shippedBytes = readCappedFile(join(SHIPPED_DISCOVERY_DIR, CONFIDENCE_FILE));
  const shipped = { source: 'shipped', digest: digestOf(shippedBytes), policy: parsePolicy(shippedBytes, `policies/discovery/${CONFIDENCE_FILE}`), problems: [] };
  if (configured === '') return shipped;
  try {
    const bytes = readCappedFile(resolvePolicyDir(configured, wardenHome, home)!);
    return { source: configured, digest: digestOf(bytes), policy: parsePolicy(bytes, configured), problems: [] };
  } catch (err) {
    if (!(err instanceof YamlProblem)) throw err;
    return { ...shipped, problems: err.problems };
  }
}

/** The score and level a policy gives a set of evidence. */
export function score(policy: ConfidencePolicy, evidence: readonly Evidence[]): Confidence {
  const kinds = new Set(evidence.map((e) => e.kind));
  let missing = 1;
  for (const kind of kinds) missing *= 1 - policy.weights[kind];
  const value = Math.round((1 - missing) * 1000) / 1000;
  const level = value >= policy.thresholds.high ? 'high' : value >= policy.thresholds.medium ? 'medium' : 'low';
  return { score: value, level };
}
