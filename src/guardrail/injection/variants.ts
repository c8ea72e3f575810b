// Decoded readings of a text, bounded so an adversarial megabyte costs the same as a short one. Two kinds:
// - variants of the whole (normalised) text, made only when a `hint` cue saw their trace: rot13, reversed,
//   leetspeak folded, letter-spaced words joined;
// - candidates decoded from pieces of the raw text: base64 (standard and url-safe, wrapped lines joined),
//   hex, \xNN escapes and %XX runs, kept only when they decode to readable text.
import type { Hint } from './catalogue.js';

/** How much decoding one text may cost. */
export const DECODE_LIMITS = {
  /** Characters of a text a whole-text variant is made of. */
  variantChars: 8 * 1024,
  /** Encoded candidates tried per text, and characters taken from each. */
  candidates: 12,
  candidateChars: 8 * 1024,
  /** Total decoded characters kept per text. */
  decodedChars: 16 * 1024,
} as const;

const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '8': 'b', '@': 'a', $: 's' };

export function variant(text: string, hint: Hint): string {
  const t = text.length > DECODE_LIMITS.variantChars ? text.slice(0, DECODE_LIMITS.variantChars) : text;
  switch (hint) {
    case 'rot13':
      return t.replace(/[a-z]/gi, (c) => {
        const base = c <= 'Z' ? 65 : 97;
        return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
      });
    case 'reverse':
      return [...t].reverse().join('');
    case 'leet': {
      // "1" is an i or an l: both readings, one per line
      const fold = (one: string) => t.replace(/[a-z0-9@$]+/gi, (tok) => (/[a-z]/i.test(tok) && /[0-9@$]/.test(tok) ? tok.replace(/[0134578@$]/g, (c) => (c === '1' ? one : LEET[c]!)) : tok));
      return `${fold('i')}\n${fold('l')}`;
    }
    case 'spaced':
      // "i g n o r e  a l l": single separators between letters go, a wider gap stays a word break
      return t.replace(/(?:\p{L}[ .\-_|/]){2,}\p{L}(?![\p{L}])/gu, (run) => run.replace(/[ .\-_|/]/g, ''));
    default:
      return t;
  }
}

const PERCENT = /(?:%[0-9a-fA-F]{2}[^\s%]{0,4}){6,}/g;
const HEX_ESCAPES = /(?:\\x[0-9a-fA-F]{2}){8,}/g;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Readable texts decoded from encoded pieces of `raw`. */
export function decodedCandidates(raw: string): string[] {
  const out: string[] = [];
  let budget = DECODE_LIMITS.decodedChars;
  let tries = 0;
  const keep = (decoded: string | undefined) => {
    if (decoded && budget > 0) {
      out.push(decoded.slice(0, budget));
      budget -= decoded.length;
    }
  };
  // One pass over the text finds runs of the base64 alphabet (hex is a subset); a backtracking regex
  // here cost more than the whole cue pass on ordinary prose.
  for (const run of alphabetRuns(raw)) {
    if (tries >= DECODE_LIMITS.candidates || budget <= 0) break;
    const piece = run.slice(0, DECODE_LIMITS.candidateChars);
    if (/^[0-9a-fA-F]+$/.test(piece)) {
      if (piece.length >= 24) {
        tries++;
        keep(readable(Buffer.from(piece.length % 2 ? piece.slice(0, -1) : piece, 'hex')));
      }
    } else if (/[A-Z]/.test(piece) && /[a-z]/.test(piece)) {
      // base64 of prose has both cases; identifiers and paths that merely fit the alphabet rarely decode
      // to readable text, and the readability check throws them out
      tries++;
      keep(fromBase64(piece));
    }
  }
  const regexTake = (re: RegExp, decode: (piece: string) => string | undefined) => {
    re.lastIndex = 0;
    for (let m = re.exec(raw); m && tries < DECODE_LIMITS.candidates && budget > 0; m = re.exec(raw)) {
      tries++;
      keep(decode(m[0].slice(0, DECODE_LIMITS.candidateChars)));
    }
  };
  if (raw.includes('\\x')) regexTake(HEX_ESCAPES, (p) => readable(Buffer.from(p.replace(/\\x/g, ''), 'hex')));
  if (raw.includes('%')) regexTake(PERCENT, fromPercent);
  return out;
}

/** Runs of 16+ base64 characters, a run split only by line breaks joined (a wrapped blob). */
const RUN = /[A-Za-z0-9+/_-]{16,}={0,2}(?:\r?\n[A-Za-z0-9+/_-]{16,}={0,2})*/g;

function* alphabetRuns(text: string): Generator<string> {
  RUN.lastIndex = 0;
  for (let m = RUN.exec(text); m; m = RUN.exec(text)) yield m[0].replace(/\s+/g, '').slice(0, DECODE_LIMITS.candidateChars);
}

function fromBase64(piece: string): string | undefined {
  const clean = piece.replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/');
  return readable(Buffer.from(clean, 'base64'));
}

function fromPercent(piece: string): string | undefined {
  try {
    return decodeURIComponent(piece.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** UTF-8 text made mostly of printable characters, with at least two words; else undefined. */
function readable(bytes: Buffer): string | undefined {
  if (bytes.length < 8) return undefined;
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return undefined;
  }
  let control = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 0x20 && c !== 9 && c !== 10 && c !== 13) || c === 0x7f || c === 0xfffd) control++;
  }
  if (control > text.length * 0.05) return undefined;
  return /\S\s+\S/.test(text) || /[\u3000-\u9fff]{4,}/.test(text) ? text : undefined;
}
