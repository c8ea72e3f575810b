// Character classes and bounded scans over shell text, shared by the tokenizer and the word reader.
import { MAX_SYNTAX_NESTING } from './syntax.js';

export const WORD_END = 1;
export const WORD_SPECIAL = 2;
export const QUOTED_SPECIAL = 4;
export const CHAR_CLASS = new Uint8Array(128);
for (const c of ' \t\r\n;&|<>()') CHAR_CLASS[c.charCodeAt(0)] = WORD_END;
for (const c of '\'"\\$`') CHAR_CLASS[c.charCodeAt(0)] = WORD_SPECIAL;
for (const c of '"\\$`') CHAR_CLASS[c.charCodeAt(0)] = WORD_SPECIAL | QUOTED_SPECIAL;

/** `ch` is one character of `set` (an empty `ch`, past the end of input, is not). */
export function isOneOf(ch: string, set: string): boolean {
  return ch !== '' && set.includes(ch);
}

/** Code of the character at `i`, or NaN past the end of `src`, like charCodeAt. The bound is checked here
 *  because the tokenizer looks one character past the end of nearly every input, and once a charCodeAt
 *  call site has read past the end V8 stops inlining it and calls a builtin from then on. */
export function codeAt(src: string, i: number): number {
  return i < src.length ? src.charCodeAt(i) : NaN;
}

/** Index of the first character at or after `from` whose class intersects `mask`. */
export function scanPlain(src: string, from: number, mask: number): number {
  let i = from;
  while (i < src.length) {
    const c = src.charCodeAt(i);
    if (c < 128 && (CHAR_CLASS[c]! & mask) !== 0) break;
    i++;
  }
  return i;
}

export function endsWord(code: number): boolean {
  return code < 128 && CHAR_CLASS[code] === WORD_END;
}

/** End (exclusive) of `$(( … ))` or `(( … ))` whose body starts at `from`, or -1 when the parentheses do
 *  not close as `))`: bash then reads nested subshells or a command substitution instead. */
export function arithmeticEnd(src: string, from: number): number {
  let depth = 0;
  for (let i = from; i < src.length; i++) {
    const c = src.charCodeAt(i);
    if (c === 40 /* ( */) {
      if (++depth > MAX_SYNTAX_NESTING) return -1;
    } else if (c === 41 /* ) */) {
      if (depth === 0) return codeAt(src, i + 1) === 41 ? i + 2 : -1;
      depth--;
    }
  }
  return -1;
}
