// CEL expressions over a tool call's parsed facts (@marcbachmann/cel-js). The library's own `matches`
// compiles a JavaScript RegExp on every call, which can backtrack catastrophically on attacker-controlled
// text; every `matches` in a rule is therefore rewritten to `re2matches`, which runs RE2 (linear time) with
// each pattern compiled once.
import { Environment } from '@marcbachmann/cel-js';
import RE2 from 're2';
import type { ActionFacts } from '../facts/types.js';

export type CompiledExpression = (facts: ActionFacts) => boolean;

const compiledPatterns = new Map<string, RE2>();
/** Shipped rules only pass literal patterns; an operator expression that builds patterns from the scanned
 *  call could otherwise grow the cache without bound. */
const MAX_CACHED_PATTERNS = 1024;

function re2(pattern: string): RE2 {
  let regex = compiledPatterns.get(pattern);
  if (!regex) {
    regex = new RE2(pattern, 'u');
    if (compiledPatterns.size < MAX_CACHED_PATTERNS) compiledPatterns.set(pattern, regex);
  }
  return regex;
}

const environment = new Environment({ unlistedVariablesAreDyn: true })
  .registerFunction('string.re2matches(string): bool', (text: string, pattern: string) => re2(pattern).test(text))
  .registerFunction('re2matches(string, string): bool', (text: string, pattern: string) => re2(pattern).test(text));

/** Compile an expression; throws with the library's message when it does not parse or names an unknown function. */
export function compileExpression(source: string): CompiledExpression {
  const rewritten = rewriteMatches(source);
  for (const literal of matchesLiterals(rewritten)) re2(literal); // a bad pattern fails the pack load, not a verdict
  const evaluate = environment.parse(rewritten);
  evaluate.check();
  return (facts) => evaluate(facts as unknown as Record<string, unknown>) === true;
}

/** Replace the identifier `matches` (method or global call) outside string literals. */
export function rewriteMatches(source: string): string {
  let out = '';
  let i = 0;
  while (i < source.length) {
    const ch = source[i]!;
    if (ch === '"' || ch === "'") {
      const end = stringEnd(source, i);
      out += source.slice(i, end);
      i = end;
      continue;
    }
    if (source.startsWith('matches', i) && !/[\w]/.test(source[i - 1] ?? '') && /^matches\s*\(/.test(source.slice(i, i + 20))) {
      out += 're2matches';
      i += 'matches'.length;
      continue;
    }
    out += ch;
    i++;
  }
  return out;
}

/** Index just past the string literal starting at `start` (single, double or triple quoted; with escapes). */
function stringEnd(source: string, start: number): number {
  const quote = source[start]!;
  const triple = source.startsWith(quote.repeat(3), start);
  const closing = triple ? quote.repeat(3) : quote;
  let i = start + closing.length;
  while (i < source.length) {
    if (source[i] === '\\') i += 2;
    else if (source.startsWith(closing, i)) return i + closing.length;
    else i++;
  }
  return source.length;
}

/** String literals passed as the pattern of `re2matches` (for compiling them at load time). */
function matchesLiterals(source: string): string[] {
  const found: string[] = [];
  const call = /re2matches\(\s*(?:[^,()]+,\s*)?("(?:[^"\\]|\\.)*")\s*\)/g;
  for (const m of source.matchAll(call)) {
    try {
      found.push(JSON.parse(m[1]!) as string);
    } catch {
      // CEL escapes JSON cannot read: the pattern is compiled on first use instead
    }
  }
  return found;
}
