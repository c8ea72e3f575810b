// units.parse and units.parse_bytes: amounts with SI (K, M, …) and binary (Ki, Mi, …) suffixes, computed on
// exact decimals so 10Ei keeps every digit.

import { builtinError } from '../errors.js';
import { normNum } from '../value.js';
import { def, str } from './registry.js';

const POWERS: Record<string, number> = { k: 1, m: 2, g: 3, t: 4, p: 5, e: 6 };

/** `-3.5E2` → mantissa and power of ten, or undefined when it is not a number. */
function decimal(text: string): { m: bigint; e: number } | undefined {
  const r = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!r || (r[2] === '' && (r[3] ?? '') === '')) return undefined;
  const frac = r[3] ?? '';
  const m = BigInt((r[1] === '-' ? '-' : '') + ((r[2] ?? '') + frac || '0'));
  return { m, e: Number(r[4] ?? 0) - frac.length };
}

function value(m: bigint, e: number, mult: bigint, truncate: boolean): number | bigint {
  let n = m * mult;
  if (e >= 0) return normNum(n * 10n ** BigInt(e));
  const d = 10n ** BigInt(-e);
  if (truncate || n % d === 0n) return normNum(n / d);
  // a fraction: divide in floating point once, from exact parts
  n = n * 1n;
  return Number(n) / Number(d);
}

function split(s: string): [string, string] {
  const r = /^[+-]?(\d*\.?\d*)([eE][+-]?\d+)?/.exec(s)!;
  return [r[0], s.slice(r[0].length)];
}

def('units.parse', 1, (args) => {
  let s = str('units.parse', args, 0);
  if (s.includes(' ')) throw builtinError('units.parse: spaces not allowed in resource strings');
  s = s.replace(/"/g, '');
  const [numText, unit] = split(s);
  if (numText === '' || numText === '.' || /^[+-]$/.test(numText)) throw builtinError('units.parse: no amount provided');
  const d = decimal(numText);
  if (!d || /^[.\d]/.test(unit)) throw builtinError('units.parse: could not parse amount to a number');
  let mult = 1n;
  let e = d.e;
  if (unit === 'm') e -= 3;
  else if (unit !== '') {
    const u = unit.toLowerCase();
    const p = POWERS[u[0]!];
    if (p === undefined || u.length > 2 || (u.length === 2 && u[1] !== 'i')) throw builtinError(`units.parse: unknown unit ${unit}`);
    mult = u.length === 2 ? 1024n ** BigInt(p) : 1000n ** BigInt(p);
  }
  return value(d.m, e, mult, false);
});

def('units.parse_bytes', 1, (args) => {
  let s = str('units.parse_bytes', args, 0);
  if (s.includes(' ')) throw builtinError('units.parse_bytes: spaces not allowed in resource strings');
  s = s.replace(/"/g, '');
  const [numText, unitRaw] = split(s);
  if (numText === '' || numText === '.' || /^[+-]$/.test(numText)) throw builtinError('units.parse_bytes: no byte amount provided');
  const d = decimal(numText);
  if (!d || /^[.\d]/.test(unitRaw)) throw builtinError('units.parse_bytes: could not parse byte amount to a number');
  let u = unitRaw.toLowerCase();
  if (u.endsWith('b')) u = u.slice(0, -1);
  let mult = 1n;
  if (u !== '') {
    const p = POWERS[u[0]!];
    if (p === undefined || u.length > 2 || (u.length === 2 && u[1] !== 'i')) throw builtinError(`units.parse_bytes: byte size unit ${unitRaw} not recognized`);
    mult = u.length === 2 ? 1024n ** BigInt(p) : 1000n ** BigInt(p);
  }
  return value(d.m, d.e, mult, true);
});
