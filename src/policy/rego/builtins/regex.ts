// Regular expressions on RE2 semantics (linear time, no backtracking) through the `re2` package, and glob
// matching compiled to RE2 patterns. Compiled patterns are cached: policies reuse a handful of them.

import RE2 from 're2';
import { builtinError } from '../errors.js';
import { def, defIsValid, int, str, strings } from './registry.js';

const cache = new Map<string, RE2>();

export function compileRe(fname: string, pattern: string, global = false): RE2 {
  const key = (global ? 'g' : '-') + pattern;
  let re = cache.get(key);
  if (!re) {
    try {
      re = new RE2(pattern, global ? 'gu' : 'u');
    } catch (err) {
      throw builtinError(`${fname}: error parsing regexp: ${(err as Error).message}`);
    }
    if (cache.size > 1000) cache.clear();
    cache.set(key, re);
  }
  re.lastIndex = 0;
  return re;
}

def('regex.match', 2, (args) => compileRe('regex.match', str('regex.match', args, 0)).test(str('regex.match', args, 1)));
def('re_match', 2, (args) => compileRe('re_match', str('re_match', args, 0)).test(str('re_match', args, 1)));
defIsValid('regex.is_valid', (p) => compileRe('regex.is_valid', p));
def('regex.split', 2, (args) => str('regex.split', args, 1).split(compileRe('regex.split', str('regex.split', args, 0))));
def('regex.replace', 3, (args) => {
  const s = str('regex.replace', args, 0);
  const re = compileRe('regex.replace', str('regex.replace', args, 1), true);
  // Go's ${1} / $1 expansion; JS replace understands $1 and $<name>, so map ${n} to $n
  const repl = str('regex.replace', args, 2).replace(/\$\{(\d+)\}/g, '$$$1');
  return s.replace(re, repl);
});

function allMatches(re: RE2, s: string, n: number): RegExpExecArray[] {
  const out: RegExpExecArray[] = [];
  re.lastIndex = 0;
  for (;;) {
    if (n >= 0 && out.length >= n) break;
    const m = re.exec(s);
    if (!m) break;
    out.push(m);
    if (m[0] === '') re.lastIndex++;
  }
  return out;
}

def('regex.find_n', 3, (args) => {
  const re = compileRe('regex.find_n', str('regex.find_n', args, 0), true);
  return allMatches(re, str('regex.find_n', args, 1), int('regex.find_n', args, 2)).map((m) => m[0]);
});
def('regex.find_all_string_submatch_n', 3, (args) => {
  const re = compileRe('regex.find_all_string_submatch_n', str('regex.find_all_string_submatch_n', args, 0), true);
  return allMatches(re, str('regex.find_all_string_submatch_n', args, 1), int('regex.find_all_string_submatch_n', args, 2)).map((m) => [...m].map((x) => x ?? ''));
});
def('regex.template_match', 4, (args) => {
  const tmpl = str('regex.template_match', args, 0);
  const s = str('regex.template_match', args, 1);
  const open = str('regex.template_match', args, 2);
  const close = str('regex.template_match', args, 3);
  let pattern = '';
  let i = 0;
  while (i < tmpl.length) {
    const a = tmpl.indexOf(open, i);
    if (a < 0) {
      pattern += quoteMeta(tmpl.slice(i));
      break;
    }
    const b = tmpl.indexOf(close, a + open.length);
    if (b < 0) throw builtinError('regex.template_match: unbalanced delimiters');
    pattern += quoteMeta(tmpl.slice(i, a)) + '(?:' + tmpl.slice(a + open.length, b) + ')';
    i = b + close.length;
  }
  return compileRe('regex.template_match', '^' + pattern + '$').test(s);
});

export function quoteMeta(s: string): string {
  return s.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&');
}

/** A glob (gobwas/glob syntax: * ** ? [...] [!...] {a,b}) as an anchored RE2 pattern. */
export function globToRegex(glob: string, delimiters: string[]): string {
  const notSep = delimiters.length ? '[^' + delimiters.map(quoteMeta).join('') + ']' : '.';
  let out = '';
  let i = 0;
  let depth = 0;
  while (i < glob.length) {
    const c = glob[i]!;
    if (c === '\\' && i + 1 < glob.length) {
      out += quoteMeta(glob[i + 1]!);
      i += 2;
      continue;
    }
    if (c === '*') {
      if (glob[i + 1] === '*') {
        out += '.*';
        i += 2;
      } else {
        out += notSep + '*';
        i++;
      }
      continue;
    }
    if (c === '?') out += notSep;
    else if (c === '[') {
      const j = glob.indexOf(']', i + 1);
      if (j < 0) throw builtinError('glob.match: unexpected end of input');
      let cls = glob.slice(i + 1, j);
      if (cls.startsWith('!')) cls = '^' + cls.slice(1);
      out += '[' + cls.replace(/\\/g, '\\\\') + ']';
      i = j + 1;
      continue;
    } else if (c === '{') {
      out += '(?:';
      depth++;
    } else if (c === '}' && depth > 0) {
      out += ')';
      depth--;
    } else if (c === ',' && depth > 0) out += '|';
    else out += quoteMeta(c);
    i++;
  }
  if (depth > 0) throw builtinError('glob.match: unexpected end of input');
  return '^' + out + '$';
}

def('glob.match', 3, (args) => {
  const pattern = str('glob.match', args, 0);
  const d = args[1]!;
  let delimiters: string[];
  if (d === null) delimiters = [];
  else {
    delimiters = strings('glob.match', args, 1, 'array');
    if (delimiters.length === 0) delimiters = ['.'];
  }
  return compileRe('glob.match', globToRegex(pattern, delimiters)).test(str('glob.match', args, 2));
});
def('glob.quote_meta', 1, (args) => str('glob.quote_meta', args, 0).replace(/[*?\\[\]{}]/g, '\\$&'));
