// Hashes and HMACs (node:crypto), hex-encoded as OPA returns them; crypto.hmac.equal compares in constant time.

import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { def, str } from './registry.js';

for (const [name, algo] of [
  ['md5', 'md5'],
  ['sha1', 'sha1'],
  ['sha256', 'sha256'],
] as const) {
  def(`crypto.${name}`, 1, (args) => createHash(algo).update(str(`crypto.${name}`, args, 0)).digest('hex'));
}
for (const algo of ['md5', 'sha1', 'sha256', 'sha512'] as const) {
  const fname = `crypto.hmac.${algo}`;
  def(fname, 2, (args) => createHmac(algo, str(fname, args, 1)).update(str(fname, args, 0)).digest('hex'));
}
def('crypto.hmac.equal', 2, (args) => {
  const a = Buffer.from(str('crypto.hmac.equal', args, 0));
  const b = Buffer.from(str('crypto.hmac.equal', args, 1));
  return a.length === b.length && timingSafeEqual(a, b);
});
