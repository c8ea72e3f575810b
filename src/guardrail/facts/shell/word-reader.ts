// Reading one shell word: quotes, escapes, expansions and substitutions, concatenated as the shell does
// (`r''m`, `"r"m` and `\rm` are all `rm`). Parameter expansions stay as written: facts describe the
// command line, not a particular environment.
import { decodeAnsiC } from './ansi-c.js';
import {
  CHAR_CLASS,
  QUOTED_SPECIAL,
  WORD_END,
  WORD_SPECIAL,
  arithmeticEnd,
  codeAt,
  isOneOf,
  scanPlain,
} from './scanning.js';
import { MAX_SYNTAX_NESTING, ShellSyntaxError, type Script, type Word } from './syntax.js';

/** What the word reader needs from the tokenizer. */
export interface Cursor {
  readonly src: string;
  pos: number;
  /** The script from `pos` up to the `)` that closes a `$(` or `<(`; leaves `pos` after it. */
  substitution(depth: number): Script;
  /** The script of separately unescaped text (a backtick body). */
  nestedScript(text: string, depth: number): Script;
}

interface WordBuilder {
  text: string;
  plain: number;
  /** Allocated on the first substitution: most words have none. */
  substitutions: Script[] | undefined;
  lastSubstitution: string;
}

const NO_SCRIPTS: readonly Script[] = [];

function newBuilder(): WordBuilder {
  return { text: '', plain: -1, substitutions: undefined, lastSubstitution: '' };
}

const SPECIAL_PARAMETERS = '0123456789@*#?$!-';
const ASSIGNMENT_PREFIX = /^[A-Za-z_][A-Za-z0-9_]*\+?=$/;

function markExpanded(b: WordBuilder): void {
  if (b.plain < 0) b.plain = b.text.length;
}

function addSubstitution(b: WordBuilder, raw: string, script: Script): void {
  markExpanded(b);
  b.text += raw;
  (b.substitutions ??= []).push(script);
  b.lastSubstitution = raw;
}

function readDollar(cur: Cursor, b: WordBuilder, depth: number, inDoubleQuotes: boolean): void {
  const { src } = cur;
  const start = cur.pos;
  const next = src.charAt(start + 1);
  if (next === "'" && !inDoubleQuotes) {
    let i = start + 2;
    while (i < src.length && src.charAt(i) !== "'") i += src.charAt(i) === '\\' ? 2 : 1;
    if (i >= src.length) throw new ShellSyntaxError("unterminated $'");
    markExpanded(b);
    b.text += decodeAnsiC(src.slice(start + 2, i));
    cur.pos = i + 1;
  } else if (next === '"' && !inDoubleQuotes) {
    markExpanded(b);
    cur.pos = start + 2;
    readQuoted(cur, b, depth, true);
  } else if (next === '(') {
    const arithmetic = src.charAt(start + 2) === '(' ? arithmeticEnd(src, start + 3) : -1;
    if (arithmetic >= 0) {
      markExpanded(b);
      b.text += src.slice(start, arithmetic);
      cur.pos = arithmetic;
      return;
    }
    cur.pos = start + 2;
    const script = cur.substitution(depth + 1);
    addSubstitution(b, src.slice(start, cur.pos), script);
  } else if (next === '{') {
    readParameterExpansion(cur, b, depth);
  } else {
    let end = start + 1;
    if (isNameChar(codeAt(src, start + 1), false)) end = scanName(src, start + 2);
    else if (isOneOf(next, SPECIAL_PARAMETERS)) end = start + 2;
    if (end > start + 1) markExpanded(b);
    b.text += src.slice(start, end);
    cur.pos = end;
  }
}

/** `${…}` stays as written, but command substitutions in it (`${x:-$(cmd)}`) run, so they are read too. */
function readParameterExpansion(cur: Cursor, b: WordBuilder, depth: number): void {
  const { src } = cur;
  markExpanded(b);
  let braces = 0;
  let appended = cur.pos;
  while (cur.pos < src.length) {
    const c = src.charAt(cur.pos);
    if ((c === '$' && src.charAt(cur.pos + 1) === '(') || c === '`') {
      b.text += src.slice(appended, cur.pos);
      if (c === '$') readDollar(cur, b, depth, true);
      else readBackticks(cur, b, depth);
      appended = cur.pos;
    } else if (c === '\\') {
      cur.pos += 2;
    } else if (c === "'") {
      const close = src.indexOf("'", cur.pos + 1);
      if (close < 0) break;
      cur.pos = close + 1;
    } else {
      cur.pos++;
      if (c === '{' && ++braces > MAX_SYNTAX_NESTING) throw new ShellSyntaxError('nesting too deep');
      if (c === '}' && --braces === 0) {
        b.text += src.slice(appended, cur.pos);
        return;
      }
    }
  }
  throw new ShellSyntaxError('unterminated ${');
}

/** Letters, `_` and (not first) digits: the characters of a variable name. */
function isNameChar(c: number, digitAllowed: boolean): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || (digitAllowed && c >= 48 && c <= 57);
}

function scanName(src: string, from: number): number {
  let i = from;
  while (isNameChar(codeAt(src, i), true)) i++;
  return i;
}

function readBackticks(cur: Cursor, b: WordBuilder, depth: number): void {
  const { src } = cur;
  const start = cur.pos;
  let inner = '';
  let i = start + 1;
  let runStart = i;
  for (;;) {
    if (i >= src.length) throw new ShellSyntaxError('unterminated backquote');
    const c = src.charAt(i);
    if (c === '`') break;
    if (c === '\\' && isOneOf(src.charAt(i + 1), '`$\\')) {
      inner += src.slice(runStart, i);
      runStart = i + 1;
      i += 2;
    } else {
      i++;
    }
  }
  inner += src.slice(runStart, i);
  cur.pos = i + 1;
  addSubstitution(b, src.slice(start, i + 1), cur.nestedScript(inner, depth + 1));
}

/** Double-quoted text from `pos`; with `closing` false (a heredoc body) it runs to the end of `src`. */
function readQuoted(cur: Cursor, b: WordBuilder, depth: number, closing: boolean): void {
  const { src } = cur;
  for (;;) {
    const i = scanPlain(src, cur.pos, QUOTED_SPECIAL);
    b.text += src.slice(cur.pos, i);
    cur.pos = i;
    if (i >= src.length) {
      if (closing) throw new ShellSyntaxError('unterminated double quote');
      return;
    }
    const c = src.charAt(i);
    if (c === '"') {
      cur.pos = i + 1;
      if (closing) return;
      b.text += '"';
    } else if (c === '\\') {
      const next = src.charAt(i + 1);
      if (isOneOf(next, '$`\\') || (next === '"' && closing)) b.text += next;
      else if (next !== '\n') b.text += `\\${next}`;
      cur.pos = i + 2;
    } else if (c === '$') {
      readDollar(cur, b, depth, true);
    } else {
      readBackticks(cur, b, depth);
    }
  }
}

/** `$(…)` and backticks of an unquoted heredoc body, which the shell runs while expanding it. */
export function heredocSubstitutions(cur: Cursor, depth: number): readonly Script[] {
  const b = newBuilder();
  readQuoted(cur, b, depth, false);
  return b.substitutions ?? NO_SCRIPTS;
}

/** `NAME=(…)` array assignments and extended globs `@(…)` keep their parentheses inside the word. */
function opensLiteralParens(b: WordBuilder): boolean {
  const last = b.text.charAt(b.text.length - 1);
  if (isOneOf(last, '@!+*?')) return true;
  return last === '=' && b.plain < 0 && ASSIGNMENT_PREFIX.test(b.text);
}

function readLiteralParens(cur: Cursor, b: WordBuilder, depth: number): void {
  const { src } = cur;
  let parens = 0;
  for (;;) {
    if (cur.pos >= src.length) throw new ShellSyntaxError('unterminated (');
    const c = src.charAt(cur.pos);
    if (c === '(' && ++parens > MAX_SYNTAX_NESTING) throw new ShellSyntaxError('nesting too deep');
    if (c === ')') parens--;
    if (c === '(' || c === ')' || ((CHAR_CLASS[src.charCodeAt(cur.pos)] ?? 0) & WORD_SPECIAL) === 0) {
      b.text += c;
      cur.pos++;
    } else {
      readSpecial(cur, b, depth);
    }
    if (parens === 0) return;
  }
}

function readSpecial(cur: Cursor, b: WordBuilder, depth: number): void {
  const { src } = cur;
  const i = cur.pos;
  const c = src.charAt(i);
  if (c === '\\') {
    const next = src.charAt(i + 1);
    cur.pos = Math.min(i + 2, src.length);
    if (next === '\n') return;
    markExpanded(b);
    b.text += next === '' ? '\\' : next;
  } else if (c === "'") {
    const close = src.indexOf("'", i + 1);
    if (close < 0) throw new ShellSyntaxError('unterminated single quote');
    markExpanded(b);
    b.text += src.slice(i + 1, close);
    cur.pos = close + 1;
  } else if (c === '"') {
    markExpanded(b);
    cur.pos = i + 1;
    readQuoted(cur, b, depth, true);
  } else if (c === '$') {
    readDollar(cur, b, depth, false);
  } else {
    readBackticks(cur, b, depth);
  }
}

/** A word-ending character, except `(`, which may continue a word (`a=(1 2)`, `@(x|y)`). */
function endsPlainWord(code: number): boolean {
  return CHAR_CLASS[code] === WORD_END && code !== 40 /* ( */;
}

/** Reads the word at `pos` (which must not be at a word-ending character). */
export function readWord(cur: Cursor, depth: number): Word {
  const { src } = cur;
  // Fast path: most words are plain text up to a space or operator.
  const end = scanPlain(src, cur.pos, WORD_END | WORD_SPECIAL);
  if (end > cur.pos && (end >= src.length || endsPlainWord(src.charCodeAt(end)))) {
    const text = src.slice(cur.pos, end);
    cur.pos = end;
    return { kind: 'word', text, plain: text.length, wholeSubstitution: false, substitutions: NO_SCRIPTS };
  }
  const b = newBuilder();
  for (;;) {
    const i = scanPlain(src, cur.pos, WORD_END | WORD_SPECIAL);
    if (i > cur.pos) b.text += src.slice(cur.pos, i);
    cur.pos = i;
    if (i >= src.length) break;
    const code = src.charCodeAt(i);
    if (CHAR_CLASS[code] === WORD_END) {
      if (code !== 40 /* ( */ || !opensLiteralParens(b)) break;
      readLiteralParens(cur, b, depth);
    } else {
      readSpecial(cur, b, depth);
    }
  }
  return {
    kind: 'word',
    text: b.text,
    plain: b.plain < 0 ? b.text.length : b.plain,
    wholeSubstitution: b.substitutions?.length === 1 && b.text === b.lastSubstitution,
    substitutions: b.substitutions ?? NO_SCRIPTS,
  };
}
