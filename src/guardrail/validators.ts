// Checks that separate real values from look-alikes: the Luhn and IBAN checksums (card numbers and IBANs vs
// order ids and versions) and the shape of a signed JWT (vs an unsigned claim set anyone can write).

/** Luhn (mod 10) over the digits of `text`, ignoring every other character. */
export function passesLuhn(text: string): boolean {
  let sum = 0;
  let count = 0;
  for (let i = text.length - 1; i >= 0; i--) {
    const code = text.charCodeAt(i) - 48;
    if (code < 0 || code > 9) continue;
    const doubled = count % 2 === 1 ? code * 2 : code;
    sum += doubled > 9 ? doubled - 9 : doubled;
    count++;
  }
  return count >= 12 && sum % 10 === 0;
}

/** ISO 13616 mod-97 check of an IBAN, spaces allowed. */
export function passesIban(text: string): boolean {
  const iban = text.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/.test(iban)) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const ch of rearranged) {
    const value = ch >= 'A' ? ch.charCodeAt(0) - 55 : ch.charCodeAt(0) - 48;
    remainder = value > 9 ? (remainder * 100 + value) % 97 : (remainder * 10 + value) % 97;
  }
  return remainder === 1;
}

/**
 * A JSON Web Token that carries a signature: three base64url segments, a header that decodes to a JSON object
 * naming an algorithm other than `none`, and a signature segment long enough for a MAC or signature (an
 * unsigned token, `alg: none` or an empty third segment, is a claim set anyone can write, not a credential).
 */
export function isSignedJwt(text: string): boolean {
  const start = text.indexOf('eyJ');
  const parts = (start >= 0 ? text.slice(start) : text).split('.');
  if (parts.length < 3) return false;
  const [header, , signature] = parts;
  if (!signature || signature.length < 16) return false;
  try {
    const decoded = JSON.parse(Buffer.from(header!, 'base64url').toString('utf8')) as unknown;
    if (!decoded || typeof decoded !== 'object') return false;
    const alg = (decoded as { alg?: unknown }).alg;
    if (typeof alg !== 'string' || alg.toLowerCase() === 'none') return false;
    // Supabase "anon" keys are signed JWTs that are public by design (shipped to browsers)
    const payload = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as { role?: unknown } | null;
    return !(payload && typeof payload === 'object' && payload.role === 'anon');
  } catch {
    return false;
  }
}
