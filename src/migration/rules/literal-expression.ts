// Rule 5's "own rules with literal patterns get expressions": a version 8 pattern that is a plain string (every
// regex metacharacter escaped, optionally case-insensitive with a leading `(?i)`) says what text it looks for,
// so the same check can be written over the parsed tool call (policies/rules.md "Expressions"): a command's
// text, a path read or written, a host or URL contacted. Only the categories the rule format lets have an
// expression get one; anything else, or any pattern that is a real regular expression, gets none.
import { compileExpression } from '../../guardrail/rules/expression.js';

const META = '.^$*+?()[]{}|\\/-';

/** The literal a pattern matches, or undefined when it is a regular expression. */
export function patternLiteral(pattern: string): { text: string; caseless: boolean } | undefined {
  const caseless = pattern.startsWith('(?i)');
  const body = caseless ? pattern.slice(4) : pattern;
  let text = '';
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (ch === '\\') {
      const next = body[i + 1];
      if (next === undefined || !META.includes(next)) return undefined; // \d, \b, \s…: a class, not a literal
      text += next;
      i++;
    } else if (META.includes(ch) && ch !== '/' && ch !== '-') {
      return undefined;
    } else {
      text += ch;
    }
  }
  return text.length >= 3 ? { text, caseless } : undefined;
}

const cel = (s: string) => JSON.stringify(s);
const re2Quote = (s: string) => s.replace(/[.^$*+?()[\]{}|\\]/g, (c) => `\\${c}`);

function test(variable: string, literal: { text: string; caseless: boolean }): string {
  return literal.caseless
    ? `${variable}.matches(${cel(`(?i)${re2Quote(literal.text)}`)})`
    : `${variable}.contains(${cel(literal.text)})`;
}

const BY_CATEGORY: Record<string, (l: { text: string; caseless: boolean }) => string> = {
  command: (l) => `commands.exists(c, ${test('c.text', l)})`,
  'sensitive-path': (l) => `paths_read.exists(p, ${test('p', l)}) || paths_written.exists(p, ${test('p', l)})`,
  c2: (l) => `hosts.exists(h, ${test('h', { ...l, caseless: true })}) || urls.exists(u, ${test('u', l)})`,
  'cognitive-file': (l) => `paths_written.exists(p, ${test('p', l)})`,
};

/** A CEL expression equivalent to `patterns` (any of them) for `category`, or undefined when there is none. */
export function literalExpression(category: string, patterns: readonly string[]): string | undefined {
  const build = BY_CATEGORY[category];
  if (!build) return undefined;
  const literals = patterns.map(patternLiteral);
  if (literals.some((l) => l === undefined)) return undefined;
  const expression = literals.map((l) => build(l!)).join(' || ');
  try {
    compileExpression(expression);
  } catch {
    return undefined;
  }
  return expression;
}
