// units.parse and units.parse_bytes: amounts with SI (K, M, …) and binary (Ki, Mi, …) suffixes, computed on
// exact decimals so 10Ei keeps every digit.

import { builtinError } from '../errors.js';
import { normNum, type Value } from '../value.js';
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
  const n = m * mult;
  if (e >= 0) return normNum(n * 10n ** BigInt(e));
  const d = 10n ** BigInt(-e);
  if (truncate || n % d === 0n) return normNum(n / d);
  // a fraction: divide in floating point once, from exact parts
  return Number(n) / Number(d);
}

/** The argument of `fn` read as a decimal amount and the unit text after it; `noun` names the amount in errors. */
function amount(fn: string, noun: string, args: Value[]): { d: { m: bigint; e: number }; unit: string } {
  let s = str(fn, args, 0);
  if (s.includes(' ')) throw builtinError(`${fn}: spaces not allowed in resource strings`);
  s = s.replace(/"/g, '');
  const numText = /^[+-]?(\d*\.?\d*)([eE][+-]?\d+)?/.exec(s)![0];
  const unit = s.slice(numText.length);
  if (numText === '' || numText === '.' || /^[+-]$/.test(numText)) throw builtinError(`${fn}: no ${noun} provided`);
  const d = decimal(numText);
  if (!d || /^[.\d]/.test(unit)) throw builtinError(`${fn}: could not parse ${noun} to a number`);
  return { d, unit };
}

def('units.parse', 1, (args) => {
  const { d, unit } = amount('units.parse', 'amount', args);
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
  const { d, unit: unitRaw } = amount('units.parse_bytes', 'byte amount', args);
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
