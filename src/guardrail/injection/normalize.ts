// Normalising text before the cues see it, so spelling tricks do not hide a phrase: compatibility forms
// (fullwidth, mathematical letters, ligatures) folded by NFKC, accents dropped from Latin letters, Cyrillic and
// Greek look-alikes inside Latin words mapped to Latin, zero-width / bidi / tag / variation-selector
// characters removed, HTML character references decoded. Text that hides characters is also *read*: tag
// characters and variation selectors carry smuggled ASCII/bytes, which are returned for scoring.
//
// Plain ASCII text without character references takes the fast path (nothing to do). The rest is one loop
// over UTF-16 code units into a typed array: a megabyte of adversarial input (a million accents, entities
// or look-alikes) costs milliseconds, where a regex replace with a callback per match cost hundreds.

export interface Normalised {
  text: string;
  /** Text smuggled in Unicode tag characters or variation selectors, decoded (empty when none). */
  smuggled: string;
}

const NON_ASCII = /[^\t\n\r\x20-\x7e]/;
/** A character reference; starts with a literal, so the regex engine skips to each '&'. */
const ENTITY_LIKE = /&(?:#|[a-z]{2,6};)/i;
const ENTITY = /&#(x[0-9a-f]{1,6}|\d{1,7});?|&(lt|gt|amp|quot|apos|nbsp);/gi;
/** Invisible and format characters, removed before matching: soft hyphen, combining grapheme joiner, Arabic
 *  letter mark, Hangul fillers, Khmer and Mongolian invisibles, zero-width space/joiners, directional marks,
 *  bidi embeddings and overrides, word joiner, invisible operators and isolates, BOM. */
const INVISIBLE_RANGES: [number, number][] = [
  [0x00ad, 0x00ad], [0x034f, 0x034f], [0x061c, 0x061c], [0x115f, 0x1160], [0x17b4, 0x17b5], [0x180b, 0x180f],
  [0x200b, 0x200f], [0x202a, 0x202e], [0x2060, 0x206f], [0x3164, 0x3164], [0xfeff, 0xfeff], [0xffa0, 0xffa0],
];
const hex4 = (c: number) => `\\u${c.toString(16).padStart(4, '0')}`;
const INVISIBLE_CLASS = INVISIBLE_RANGES.map(([a, b]) => (a === b ? hex4(a) : `${hex4(a)}-${hex4(b)}`)).join('');
const INVISIBLE = new RegExp(`[${INVISIBLE_CLASS}]`, 'g');
const LATIN_ACCENTED = /[\u00C0-\u024F]/g;
const TAG_OR_SELECTOR = /\uDB40|[\uFE00-\uFE0F]/;
const WORD = /[\p{L}\p{M}]+/gu;
/** Up to this size regex replacements (fast when few characters change) beat the per-character loop. */
const SMALL = 64 * 1024;
/** Characters NFKC changes that matter here (fullwidth, mathematical letters, ligatures, enclosed, super/subscripts, odd spaces). */
const COMPAT = /[\u00A0\u00AA\u00B2\u00B3\u00B9\u00BA\u017F\u1D00-\u1DBF\u2000-\u200A\u2070-\u209F\u2100-\u218F\u2460-\u24FF\u3000\uFB00-\uFB4F\uFE50-\uFE6F\uFF00-\uFFEF]|\uD835[\uDC00-\uDFFF]|\uD83C[\uDD00-\uDDFF]/;
/** What the loop acts on: '&', invisible and format characters, tag/selector surrogates, accented Latin. */
const LOOP_WORK = new RegExp(`[&\\u00C0-\\u024F\\uFE00-\\uFE0F\\uDB40${INVISIBLE_CLASS}]`);
/** A Latin letter next to a Greek or Cyrillic one: a mixed-script word, the look-alike trick. */
const MIXED_SCRIPT = /[a-zA-Z][\u0370-\u052F]|[\u0370-\u052F][a-zA-Z]/;
const NAMED: Record<string, number> = { lt: 0x3c, gt: 0x3e, amp: 0x26, quot: 0x22, apos: 0x27, nbsp: 0x20 };
const utf16 = new TextDecoder('utf-16le');
/** Smuggled characters kept for scoring (more would only repeat the point). */
const MAX_SMUGGLED = 16 * 1024;

/** Code unit → what it becomes: 0 = dropped (invisible), else the replacement (accents and look-alikes). */
const MAP = new Uint16Array(0x10000);
for (let c = 0; c < 0x10000; c++) MAP[c] = c;
for (const [a, b] of INVISIBLE_RANGES) for (let c = a; c <= b; c++) MAP[c] = 0;
for (let c = 0xc0; c <= 0x24f; c++) MAP[c] = String.fromCharCode(c).normalize('NFD').charCodeAt(0);
/** Cyrillic and Greek letters drawn like a Latin one (folded only inside words that hold Latin letters). */
const CONFUSABLE = new Uint16Array(0x530);
for (let c = 0; c < CONFUSABLE.length; c++) CONFUSABLE[c] = c;
for (const [from, to] of Object.entries({
    а: 'a', в: 'b', е: 'e', ё: 'e', к: 'k', м: 'm', н: 'h', о: 'o', р: 'p', с: 'c', т: 't', у: 'y', х: 'x', і: 'i', ї: 'i', ј: 'j', ѕ: 's', ԁ: 'd', һ: 'h', ӏ: 'l', ԛ: 'q', ԝ: 'w',
    А: 'A', В: 'B', Е: 'E', К: 'K', М: 'M', Н: 'H', О: 'O', Р: 'P', С: 'C', Т: 'T', У: 'Y', Х: 'X', І: 'I', Ј: 'J', Ѕ: 'S',
    α: 'a', ε: 'e', ι: 'i', κ: 'k', ν: 'v', ο: 'o', ρ: 'p', τ: 't', υ: 'u', χ: 'x', γ: 'y',
    Α: 'A', Β: 'B', Ε: 'E', Ζ: 'Z', Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ο: 'O', Ρ: 'P', Τ: 'T', Υ: 'Y', Χ: 'X',
})) CONFUSABLE[from.charCodeAt(0)] = to.charCodeAt(0);

/** Per code unit, what the loop must know: LATIN or GREEK_CYRILLIC letter (word tracking), SPECIAL (look closer). */
const LATIN = 1;
const GREEK_CYRILLIC = 2;
const SPECIAL = 4;
const KIND = new Uint8Array(0x10000);
for (let c = 0x41; c <= 0x5a; c++) KIND[c] = KIND[c + 0x20] = LATIN;
for (let c = 0xc0; c <= 0x36f; c++) KIND[c] = LATIN; // Latin-1/extended letters and combining marks
for (let c = 0x370; c <= 0x52f; c++) KIND[c] = GREEK_CYRILLIC;
KIND[0x26] = KIND[0xdb40] = SPECIAL;
for (let c = 0xfe00; c <= 0xfe0f; c++) KIND[c] = SPECIAL;

export function normalise(raw: string): Normalised {
  if (!NON_ASCII.test(raw) && !(raw.includes('&') && ENTITY_LIKE.test(raw))) return { text: raw, smuggled: '' };
  // NFKC only when a character it would change is there: it is the costliest step on CJK or Cyrillic text.
  const src = COMPAT.test(raw) ? raw.normalize('NFKC') : raw;
  // Most non-ASCII text (CJK, Cyrillic, emoji) has nothing the loop below would change.
  if (!LOOP_WORK.test(src) && !MIXED_SCRIPT.test(src)) return { text: src, smuggled: '' };
  if (src.length <= SMALL && !TAG_OR_SELECTOR.test(src)) return { text: replaceSmall(src), smuggled: '' };
  return folded(src);
}

/** The same folds as `folded`, as regex replacements: cheaper on ordinary-sized text with few changes. */
function replaceSmall(src: string): string {
  let text = src.includes('&') ? src.replace(ENTITY, (whole: string, num?: string, named?: string) => {
    const code = named ? NAMED[named.toLowerCase()] : num!.startsWith('x') || num!.startsWith('X') ? parseInt(num!.slice(1), 16) : parseInt(num!, 10);
    return code && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  }) : src;
  text = text.replace(INVISIBLE, '').replace(LATIN_ACCENTED, (ch) => String.fromCharCode(MAP[ch.charCodeAt(0)]!));
  if (MIXED_SCRIPT.test(text)) {
    text = text.replace(WORD, (word) => (/[a-zA-Z]/.test(word) && /[\u0370-\u052F]/.test(word) ? word.replace(/[\u0370-\u052F]/g, (ch) => String.fromCharCode(CONFUSABLE[ch.charCodeAt(0)]!)) : word));
  }
  return text;
}

/** One pass over UTF-16 code units into a typed array: linear whatever the text holds. */
function folded(src: string): Normalised {
  const out = new Uint16Array(src.length);
  let n = 0;
  const tags: number[] = [];
  const bytes: number[] = [];
  // the word being copied: where it starts in `out`, and whether it mixes Latin with Greek/Cyrillic
  let wordStart = -1;
  let latin = false;
  let greekOrCyrillic = false;
  const endWord = () => {
    if (latin && greekOrCyrillic) for (let j = wordStart; j < n; j++) if (out[j]! < 0x530) out[j] = CONFUSABLE[out[j]!]!;
    wordStart = -1;
    latin = greekOrCyrillic = false;
  };
  for (let i = 0; i < src.length; i++) {
    let c = src.charCodeAt(i);
    const kind = KIND[c]!;
    if (kind === LATIN || kind === GREEK_CYRILLIC) {
      // the common case first: a letter, copied (accent folded) and tracked for the look-alike check
      if (wordStart < 0) wordStart = n;
      if (kind === LATIN) latin = true;
      else greekOrCyrillic = true;
      out[n++] = MAP[c]!;
      continue;
    }
    if (kind !== SPECIAL) {
      const mapped = MAP[c]!;
      if (mapped === 0) continue; // invisible: dropped, the word goes on ("ig\u200Bnore" reads "ignore")
      if (wordStart >= 0) endWord();
      out[n++] = mapped;
      continue;
    }
    if (c === 0x26 /* & */) {
      const decoded = entityAt(src, i);
      if (decoded) {
        c = decoded.code;
        i = decoded.end - 1;
        if (c > 0xffff) {
          endWord();
          out[n++] = 0xd800 + ((c - 0x10000) >> 10);
          out[n++] = 0xdc00 + ((c - 0x10000) & 0x3ff);
          continue;
        }
      }
    } else if (c === 0xdb40 && i + 1 < src.length) {
      // U+E0000..E01EF: tag characters (U+E0020..E007E spell ASCII) and variation selectors 17-256
      const low = src.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xddef) {
        const cp = 0xe0000 + (low - 0xdc00);
        if (cp >= 0xe0020 && cp <= 0xe007e) {
          if (tags.length < MAX_SMUGGLED) tags.push(cp - 0xe0000);
        } else if (cp >= 0xe0100 && bytes.length < MAX_SMUGGLED) bytes.push(cp - 0xe0100 + 16);
        i++;
        continue;
      }
    } else if (c >= 0xfe00 && c <= 0xfe0f) {
      if (bytes.length < MAX_SMUGGLED) bytes.push(c - 0xfe00); // variation selectors 1-16
      continue;
    }
    // a decoded entity or a lone surrogate: an invisible one is dropped, a letter continues the word
    if (c <= 0xffff && MAP[c] === 0) continue;
    if (c <= 0xffff && (KIND[c] === LATIN || KIND[c] === GREEK_CYRILLIC)) {
      if (wordStart < 0) wordStart = n;
      if (KIND[c] === LATIN) latin = true;
      else greekOrCyrillic = true;
    } else if (wordStart >= 0) endWord();
    out[n++] = c <= 0xffff ? MAP[c]! : c;
  }
  if (wordStart >= 0) endWord();
  // A lone VS16 after an emoji is ordinary; a run of selectors is a payload.
  const fromSelectors = bytes.length >= 8 ? Buffer.from(bytes).toString('utf8') : '';
  const fromTags = Buffer.from(tags).toString('latin1');
  const smuggled = [fromTags, fromSelectors].filter((s) => s.length >= 4).join('\n');
  return { text: utf16.decode(out.subarray(0, n)), smuggled };
}

/** The character reference starting at `i` (`&#105;`, `&#x69;`, `&lt;`…), or undefined. */
function entityAt(s: string, i: number): { code: number; end: number } | undefined {
  if (s.charCodeAt(i + 1) === 0x23 /* # */) {
    const hex = s.charCodeAt(i + 2) === 0x78 || s.charCodeAt(i + 2) === 0x58;
    let j = i + (hex ? 3 : 2);
    let code = 0;
    const start = j;
    for (; j < s.length && j - start < 7; j++) {
      const d = s.charCodeAt(j);
      const v = d >= 0x30 && d <= 0x39 ? d - 0x30 : hex && d >= 0x61 && d <= 0x66 ? d - 0x57 : hex && d >= 0x41 && d <= 0x46 ? d - 0x37 : -1;
      if (v < 0) break;
      code = code * (hex ? 16 : 10) + v;
    }
    if (j === start || code === 0 || code > 0x10ffff) return undefined;
    return { code, end: s.charCodeAt(j) === 0x3b ? j + 1 : j };
  }
  const semi = s.indexOf(';', i + 1);
  if (semi < 0 || semi - i > 7) return undefined;
  const code = NAMED[s.slice(i + 1, semi).toLowerCase()];
  return code === undefined ? undefined : { code, end: semi + 1 };
}
