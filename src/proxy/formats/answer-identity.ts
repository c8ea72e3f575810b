// The id suffix and creation time of an answer Warden writes itself (a refusal, or a stream it opens before
// the provider's first event names the answer), in the shape the provider's own answers carry.
import { randomBytes } from 'node:crypto';

export function randomHex(bytes = 12): string {
  return randomBytes(bytes).toString('hex');
}

export function unixSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
