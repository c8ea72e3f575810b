// Evidence in verdicts is redacted unless the caller asks for raw values (X-Warden-Reveal-PII: 1); secrets in
// text that callers ask Warden to store are redacted the same way.
import { createHash } from 'node:crypto';

export function redactEvidence(evidence: string): string {
  const sha = createHash('sha256').update(evidence).digest('hex').slice(0, 8);
  return `<redacted len=${evidence.length} sha=${sha}>`;
}

/**
 * A copy of `value` with `redact` applied to every string in it, keys included. Stops `depthLimit` levels
 * down and leaves anything deeper as it is: the caller refuses over-deep values, and this walk must not
 * recurse without bound on them.
 */
export function redactStrings(value: unknown, redact: (text: string) => string, depthLimit: number): unknown {
  if (typeof value === 'string') return redact(value);
  if (value === null || typeof value !== 'object' || depthLimit <= 0) return value;
  if (Array.isArray(value)) return value.map((item) => redactStrings(item, redact, depthLimit - 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    // defineProperty, not assignment: a key named __proto__ must stay a key, not replace the prototype.
    Object.defineProperty(out, redact(key), { value: redactStrings(item, redact, depthLimit - 1), enumerable: true, writable: true, configurable: true });
  }
  return out;
}
