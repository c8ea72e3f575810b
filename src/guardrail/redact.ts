// Evidence in verdicts is redacted unless the caller asks for raw values (X-Warden-Reveal-PII: 1).
import { createHash } from 'node:crypto';

export function redactEvidence(evidence: string): string {
  const sha = createHash('sha256').update(evidence).digest('hex').slice(0, 8);
  return `<redacted len=${evidence.length} sha=${sha}>`;
}
