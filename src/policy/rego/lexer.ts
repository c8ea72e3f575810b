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
    if (c === '"' || (c === '$' && src[i + 1] === '"')) {
      const tmpl = c === '$';
      let j = i + (tmpl ? 2 : 1);
      let depth = 0;
      while (j < src.length) {
        const d = src[j]!;
        if (d === '\\') {
          j += 2;
          continue;
        }
        if (tmpl && d === '{') depth++;
        if (tmpl && d === '}' && depth > 0) depth--;
        if (d === '"' && depth === 0) break;
        if (d === '\n') fail('non-terminated string');
        j++;
      }
      if (j >= src.length) fail('non-terminated string');
      const raw = src.slice(i, j + 1);
      let value: string;
      if (tmpl) value = raw.slice(2, -1);
      else {
        try {
          value = JSON.parse(raw) as string;
        } catch {
          fail('illegal string literal: ' + raw);
        }
      }
      out.push({ kind: tmpl ? 'template' : 'string', text: raw, value: value!, loc: start, spaceBefore: space });
      adv(j + 1 - i);
      space = false;
      continue;
    }
    if (c === '`' || (c === '$' && src[i + 1] === '`')) {
      const tmpl = c === '$';
      const j = src.indexOf('`', i + (tmpl ? 2 : 1));
      if (j < 0) fail('non-terminated raw string');
      const raw = src.slice(i, j + 1);
      out.push({ kind: tmpl ? 'template' : 'string', text: raw, value: raw.slice(tmpl ? 2 : 1, -1), loc: start, spaceBefore: space });
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
