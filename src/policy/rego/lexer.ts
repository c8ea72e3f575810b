// Rego lexer: source text → tokens with line and column. Newlines are tokens because they separate body
// expressions; comments (`#` to end of line) are dropped.

import { RegoError, type Location } from './errors.js';

export type TokenKind = 'ident' | 'number' | 'string' | 'template' | 'op' | 'nl' | 'eof';

export interface Token {
  kind: TokenKind;
  text: string;
  /** Decoded value of a string token; for a template, the raw text between the quotes. */
  value?: string;
  loc: Location;
  /** Whether whitespace precedes the token (a ref continues only without it, e.g. `a [1]` vs `a[1]`). */
  spaceBefore: boolean;
}

const OPS = [':=', '==', '!=', '<=', '>=', '{', '}', '[', ']', '(', ')', ',', ';', '.', ':', '=', '<', '>', '+', '-', '*', '/', '%', '&', '|'];

export function lex(file: string, src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  let row = 1;
  let col = 1;
  let space = false;
  const loc = (): Location => ({ file, row, col });
  const fail = (msg: string): never => {
    throw new RegoError('rego_parse_error', msg, loc());
  };
  const adv = (n: number): void => {
    for (let k = 0; k < n; k++) {
      if (src[i] === '\n') {
        row++;
        col = 1;
      } else col++;
      i++;
    }
  };
  while (i < src.length) {
    const c = src[i]!;
    if (c === ' ' || c === '\t' || c === '\r') {
      adv(1);
      space = true;
      continue;
    }
    if (c === '#') {
      while (i < src.length && src[i] !== '\n') adv(1);
      continue;
    }
    const start = loc();
    if (c === '\n') {
      out.push({ kind: 'nl', text: '\n', loc: start, spaceBefore: space });
      adv(1);
      space = true;
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      let j = i;
      while (j < src.length && /[A-Za-z0-9_]/.test(src[j]!)) j++;
      const text = src.slice(i, j);
      out.push({ kind: 'ident', text, loc: start, spaceBefore: space });
      adv(j - i);
      space = false;
      continue;
    }
    if (/[0-9]/.test(c)) {
      const m = /^(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(src.slice(i))!;
      if (/[A-Za-z_0-9.]/.test(src[i + m[0].length] ?? '') && !(src[i + m[0].length] === '.' && /[A-Za-z_]/.test(src[i + m[0].length + 1] ?? ''))) fail('illegal number format');
      out.push({ kind: 'number', text: m[0], loc: start, spaceBefore: space });
      adv(m[0].length);
      space = false;
      continue;
    }
    if (c === '$' && (src[i + 1] === '"' || src[i + 1] === '`')) {
      const j = templateEnd(src, i + 2, src[i + 1] as '"' | '`');
      if (j < 0) fail('non-terminated template string');
      const raw = src.slice(i, j + 1);
      out.push({ kind: 'template', text: raw, value: raw.slice(2, -1), loc: start, spaceBefore: space });
      adv(j + 1 - i);
      space = false;
      continue;
    }
    if (c === '"') {
      const j = stringEnd(src, i + 1);
      if (j < 0) fail('non-terminated string');
      const raw = src.slice(i, j + 1);
      let value: string;
      try {
        value = JSON.parse(raw) as string;
      } catch {
        fail('illegal string literal: ' + raw);
      }
      out.push({ kind: 'string', text: raw, value: value!, loc: start, spaceBefore: space });
      adv(j + 1 - i);
      space = false;
      continue;
    }
    if (c === '`') {
      const j = src.indexOf('`', i + 1);
      if (j < 0) fail('non-terminated raw string');
      const raw = src.slice(i, j + 1);
      out.push({ kind: 'string', text: raw, value: raw.slice(1, -1), loc: start, spaceBefore: space });
      adv(j + 1 - i);
      space = false;
      continue;
    }
    const op = OPS.find((o) => src.startsWith(o, i));
    if (!op) fail(`illegal token: ${c}`);
    out.push({ kind: 'op', text: op!, loc: start, spaceBefore: space });
    adv(op!.length);
    space = false;
  }
  out.push({ kind: 'eof', text: '', loc: loc(), spaceBefore: space });
  return out;
}

/** Index of the `"` closing a string whose text starts at j, or -1. */
function stringEnd(src: string, j: number): number {
  while (j < src.length) {
    const c = src[j];
    if (c === '\\') j += 2;
    else if (c === '"') return j;
    else if (c === '\n') return -1;
    else j++;
  }
  return -1;
}

/** Index of the quote closing a template string whose text starts at j, or -1; `{…}` holes may hold strings and templates. */
export function templateEnd(src: string, j: number, quote: '"' | '`'): number {
  while (j < src.length) {
    const c = src[j];
    if (c === '\\' && (quote === '"' || src[j + 1] === '{')) {
      j += 2;
      continue;
    }
    if (c === quote) return j;
    if (c === '\n' && quote === '"') return -1;
    if (c === '{') {
      j = holeEnd(src, j + 1);
      if (j < 0) return -1;
      continue;
    }
    j++;
  }
  return -1;
}

/** Index just past the `}` closing a template hole whose text starts at j, or -1. */
export function holeEnd(src: string, j: number): number {
  let depth = 1;
  while (j < src.length) {
    const c = src[j];
    let end: number | undefined;
    if (c === '"') end = stringEnd(src, j + 1);
    else if (c === '`') end = src.indexOf('`', j + 1);
    else if (c === '$' && (src[j + 1] === '"' || src[j + 1] === '`')) end = templateEnd(src, j + 2, src[j + 1] as '"' | '`');
    if (end !== undefined) {
      if (end < 0) return -1;
      j = end + 1;
      continue;
    }
    if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return j + 1;
    j++;
  }
  return -1;
}
