// Shannon entropy and value shapes for secret candidates. A credential is random, a placeholder is not: the
// bits per character of a matched value separate `ghp_<36 random>` from `ghp_xxxx…`, and a generic
// `api_key = …` from `api_key = my_default_value`. The threshold depends on the value's alphabet (a random
// hex string tops out at 4 bits per character, base62 near 6), so rules give one per shape.

export type ValueShape = 'hex' | 'alnum' | 'base64' | 'other';

/** Bits per character of `value` (0 for the empty string). */
export function shannonEntropy(value: string): number {
  if (value.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  const n = value.length;
  for (const count of counts.values()) {
    const p = count / n;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** The narrowest alphabet that holds `value`: hex digits, letters and digits, base64(url), or anything else. */
export function valueShape(value: string): ValueShape {
  if (/^[0-9a-fA-F]+$/.test(value)) return 'hex';
  if (/^[A-Za-z0-9]+$/.test(value)) return 'alnum';
  if (/^[A-Za-z0-9+/_=-]+$/.test(value)) return 'base64';
  return 'other';
}

export type EntropyThreshold = number | Partial<Record<ValueShape, number>>;

/**
 * Does `value` carry at least the entropy the rule asks for its shape? A short value cannot reach log2(len)
 * bits, so the threshold is capped at 85 % of that ceiling: an 8-character random password still passes.
 */
export function meetsEntropy(value: string, threshold: EntropyThreshold): boolean {
  const shape = valueShape(value);
  const wanted = typeof threshold === 'number' ? threshold : (threshold[shape] ?? threshold.other ?? 0);
  if (wanted <= 0) return true;
  const ceiling = Math.log2(Math.max(value.length, 1)) * 0.85;
  return shannonEntropy(value) >= Math.min(wanted, ceiling);
}
