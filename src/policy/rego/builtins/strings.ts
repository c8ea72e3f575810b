// String builtins: concat, contains, startswith/endswith, indexof, lower/upper, split, replace, trim*, substring,
// sprintf, format_int, strings.* helpers.

import { builtinError, typeError } from '../errors.js';
import { formatRego, isNumber, RSet, typeName, type Value } from '../value.js';
import { arr, def, int, num, obj, str, strings } from './registry.js';

def('concat', 2, (args) => strings('concat', args, 1).join(str('concat', args, 0)));
def('contains', 2, (args) => str('contains', args, 0).includes(str('contains', args, 1)));
def('startswith', 2, (args) => str('startswith', args, 0).startsWith(str('startswith', args, 1)));
def('endswith', 2, (args) => str('endswith', args, 0).endsWith(str('endswith', args, 1)));
def('lower', 1, (args) => str('lower', args, 0).toLowerCase());
def('upper', 1, (args) => str('upper', args, 0).toUpperCase());
def('split', 2, (args) => str('split', args, 0).split(str('split', args, 1)));
def('replace', 3, (args) => str('replace', args, 0).split(str('replace', args, 1)).join(str('replace', args, 2)));
def('strings.reverse', 1, (args) => [...str('strings.reverse', args, 0)].reverse().join(''));
def('strings.count', 2, (args) => {
  const s = str('strings.count', args, 0);
  const sub = str('strings.count', args, 1);
  if (sub === '') return [...s].length + 1;
  return s.split(sub).length - 1;
});

function cpIndex(s: string, unitIdx: number): number {
  return [...s.slice(0, unitIdx)].length;
}

def('indexof', 2, (args) => {
  const s = str('indexof', args, 0);
  const i = s.indexOf(str('indexof', args, 1));
  return i < 0 ? -1 : cpIndex(s, i);
});
def('indexof_n', 2, (args) => {
  const s = str('indexof_n', args, 0);
  const sub = str('indexof_n', args, 1);
  const out: Value[] = [];
  if (sub === '') return out;
  for (let i = s.indexOf(sub); i >= 0; i = s.indexOf(sub, i + 1)) out.push(cpIndex(s, i));
  return out;
});
def('substring', 3, (args) => {
  const s = [...str('substring', args, 0)];
  const start = int('substring', args, 1);
  const len = int('substring', args, 2);
  if (start < 0) throw builtinError('negative offset');
  if (start >= s.length) return '';
  return (len < 0 ? s.slice(start) : s.slice(start, start + len)).join('');
});

const cut = (s: string, chars: string, left: boolean, right: boolean): string => {
  const set = new Set([...chars]);
  const cs = [...s];
  let a = 0;
  let b = cs.length;
  if (left) while (a < b && set.has(cs[a]!)) a++;
  if (right) while (b > a && set.has(cs[b - 1]!)) b--;
  return cs.slice(a, b).join('');
};
def('trim', 2, (args) => cut(str('trim', args, 0), str('trim', args, 1), true, true));
def('trim_left', 2, (args) => cut(str('trim_left', args, 0), str('trim_left', args, 1), true, false));
def('trim_right', 2, (args) => cut(str('trim_right', args, 0), str('trim_right', args, 1), false, true));
def('trim_space', 1, (args) => str('trim_space', args, 0).trim());
def('trim_prefix', 2, (args) => {
  const s = str('trim_prefix', args, 0);
  const p = str('trim_prefix', args, 1);
  return s.startsWith(p) ? s.slice(p.length) : s;
});
def('trim_suffix', 2, (args) => {
  const s = str('trim_suffix', args, 0);
  const p = str('trim_suffix', args, 1);
  return p && s.endsWith(p) ? s.slice(0, s.length - p.length) : s;
});
def('strings.replace_n', 2, (args) => {
  const patterns = obj('strings.replace_n', args, 0);
  let s = str('strings.replace_n', args, 1);
  const pairs = patterns.sortedEntries().map(([k, v]) => {
    if (typeof k !== 'string') throw typeError('strings.replace_n: operand 1 non-string key found in pattern object');
    if (typeof v !== 'string') throw typeError('strings.replace_n: operand 1 non-string value found in pattern object');
    return [k, v] as const;
  });
  // Go's strings.NewReplacer: at each position, the first matching old string in argument order
  let out = '';
  let i = 0;
  outer: while (i < s.length) {
    for (const [k, v] of pairs) {
      if (k !== '' && s.startsWith(k, i)) {
        out += v;
        i += k.length;
        continue outer;
      }
    }
    out += s[i];
    i++;
  }
  s = out;
  return s;
});
def('strings.any_prefix_match', 2, (args) => {
  const ss = anyStrings('strings.any_prefix_match', args, 0);
  const ps = anyStrings('strings.any_prefix_match', args, 1);
  return ss.some((s) => ps.some((p) => s.startsWith(p)));
});
def('strings.any_suffix_match', 2, (args) => {
  const ss = anyStrings('strings.any_suffix_match', args, 0);
  const ps = anyStrings('strings.any_suffix_match', args, 1);
  return ss.some((s) => ps.some((p) => s.endsWith(p)));
});

function anyStrings(fname: string, args: Value[], i: number): string[] {
  const v = args[i]!;
  if (typeof v === 'string') return [v];
  if (Array.isArray(v) || v instanceof RSet) {
    const items = Array.isArray(v) ? v : v.values();
    return items.map((x) => {
      if (typeof x !== 'string') throw typeError(`${fname}: operand ${i + 1} must be ${typeName(v)} of strings but got ${typeName(v)} containing ${typeName(x)}`);
      return x;
    });
  }
  throw typeError(`${fname}: operand ${i + 1} must be one of {string, set, array} but got ${typeName(v)}`);
}

def('format_int', 2, (args) => {
  const n = num('format_int', args, 0);
  const base = int('format_int', args, 1);
  if (![2, 8, 10, 16].includes(base)) throw typeError('format_int: operand 2 must be one of {2, 8, 10, 16}');
  const i = typeof n === 'bigint' ? n : BigInt(Math.trunc(n));
  return i.toString(base);
});

def('sprintf', 2, (args) => sprintf(str('sprintf', args, 0), arr('sprintf', args, 1)));

/** Go's fmt verbs over Rego values: %v %s %d %f %x %q %t %% with width/precision. */
export function sprintf(format: string, values: Value[]): string {
  let ai = 0;
  return format.replace(/%([-+ 0#]*)(\d+)?(?:\.(\d+))?([a-zA-Z%])/g, (_match, flags: string, width: string | undefined, prec: string | undefined, verb: string) => {
    if (verb === '%') return '%';
    if (ai >= values.length) return `%!${verb}(MISSING)`;
    const v = values[ai++]!;
    let s: string;
    switch (verb) {
      case 'd':
        s = isNumber(v) ? (typeof v === 'bigint' ? v.toString() : Number.isInteger(v) ? String(v) : `%!d(big.Float=${v})`) : `%!d(${typeName(v)}=${formatRego(v)})`;
        break;
      case 'f':
      case 'e':
      case 'g':
        s = isNumber(v) ? (verb === 'f' ? Number(v).toFixed(prec === undefined ? 6 : Number(prec)) : verb === 'e' ? Number(v).toExponential(prec === undefined ? 6 : Number(prec)) : String(Number(v))) : formatRego(v);
        break;
      case 'x':
      case 'X':
        s = isNumber(v) ? BigInt(Math.trunc(Number(v))).toString(16) : typeof v === 'string' ? Buffer.from(v).toString('hex') : formatRego(v);
        if (verb === 'X') s = s.toUpperCase();
        break;
      case 'o':
        s = isNumber(v) ? BigInt(Math.trunc(Number(v))).toString(8) : formatRego(v);
        break;
      case 'b':
        s = isNumber(v) ? BigInt(Math.trunc(Number(v))).toString(2) : formatRego(v);
        break;
      case 'q':
        s = typeof v === 'string' ? JSON.stringify(v) : formatRego(v);
        break;
      case 't':
        s = typeof v === 'boolean' ? String(v) : formatRego(v);
        break;
      case 's':
      case 'v':
      default:
        s = typeof v === 'string' ? v : formatRego(v);
    }
    if (prec !== undefined && (verb === 's' || verb === 'v') && typeof v === 'string') s = s.slice(0, Number(prec));
    if (flags.includes('+') && isNumber(v) && Number(v) >= 0 && 'dfeg'.includes(verb)) s = '+' + s;
    if (width && s.length < Number(width)) {
      const pad = Number(width) - s.length;
      if (flags.includes('-')) s = s + ' '.repeat(pad);
      else if (flags.includes('0') && isNumber(v)) s = s.startsWith('-') ? '-' + '0'.repeat(pad) + s.slice(1) : '0'.repeat(pad) + s;
      else s = ' '.repeat(pad) + s;
    }
    return s;
  });
}
