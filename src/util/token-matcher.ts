// Comparing a presented credential with a secret: both sides are hashed first, so the constant-time comparison
// sees equal lengths and neither the content nor the length of the secret leaks through timing.
import { hash, timingSafeEqual } from 'node:crypto';

/** What TokenMatcher compares; compute it once when one candidate is checked against several secrets. */
export const tokenDigest = (value: string): Buffer => hash('sha256', value, 'buffer');

export class TokenMatcher {
  private readonly expected: Buffer;

  constructor(secret: string) {
    this.expected = tokenDigest(secret);
  }

  matches(candidate: string): boolean {
    return this.matchesDigest(tokenDigest(candidate));
  }

  matchesDigest(candidateDigest: Buffer): boolean {
    return timingSafeEqual(candidateDigest, this.expected);
  }
}
