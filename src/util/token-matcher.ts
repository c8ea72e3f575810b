// Comparing a presented credential with a secret: both sides are hashed first, so the constant-time comparison
// sees equal lengths and neither the content nor the length of the secret leaks through timing.
import { hash, timingSafeEqual } from 'node:crypto';

const digest = (value: string): Buffer => hash('sha256', value, 'buffer');

export class TokenMatcher {
  private readonly expected: Buffer;

  constructor(secret: string) {
    this.expected = digest(secret);
  }

  matches(candidate: string): boolean {
    return timingSafeEqual(digest(candidate), this.expected);
  }
}
