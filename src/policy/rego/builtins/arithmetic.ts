// Arithmetic (+ - * / %, abs, round, ceil, floor) and the set operators `&` and `|`. Integers stay exact
// (bigint past 2^53); a fraction anywhere makes the operation a float one.

import { builtinError } from '../errors.js';
import { normNum, RSet } from '../value.js';
import { def, num, set } from './registry.js';

export function isInt(n: number | bigint): boolean {
  return typeof n === 'bigint' || Number.isInteger(n);
}

function intOp(a: number | bigint, b: number | bigint, f: (x: bigint, y: bigint) => bigint, g: (x: number, y: number) => number): number | bigint {
  if (isInt(a) && isInt(b)) return normNum(f(BigInt(a), BigInt(b)));
  return g(Number(a), Number(b));
}

export const add = (a: number | bigint, b: number | bigint): number | bigint => intOp(a, b, (x, y) => x + y, (x, y) => x + y);
export const sub = (a: number | bigint, b: number | bigint): number | bigint => intOp(a, b, (x, y) => x - y, (x, y) => x - y);
export const mul = (a: number | bigint, b: number | bigint): number | bigint => intOp(a, b, (x, y) => x * y, (x, y) => x * y);

def('plus', 2, (args) => add(num('plus', args, 0), num('plus', args, 1)));
def('minus', 2, (args) => {
  const [a, b] = args;
  if (a instanceof RSet && b instanceof RSet) return new RSet(a.values().filter((x) => !b.has(x)));
  if (a instanceof RSet) set('minus', args, 1);
  return sub(num('minus', args, 0), num('minus', args, 1));
});
def('mul', 2, (args) => mul(num('mul', args, 0), num('mul', args, 1)));
def('div', 2, (args) => {
  const a = num('div', args, 0);
  const b = num('div', args, 1);
  if (Number(b) === 0) throw builtinError('div: divide by zero');
  if (isInt(a) && isInt(b) && BigInt(a) % BigInt(b) === 0n) return normNum(BigInt(a) / BigInt(b));
  return Number(a) / Number(b);
});
def('rem', 2, (args) => {
  const a = num('rem', args, 0);
  const b = num('rem', args, 1);
  if (!isInt(a) || !isInt(b)) throw builtinError('rem: modulo on floating-point number');
  if (BigInt(b) === 0n) throw builtinError('rem: modulo by zero');
  return normNum(BigInt(a) % BigInt(b));
});
def('abs', 1, (args) => {
  const a = num('abs', args, 0);
  return typeof a === 'bigint' ? normNum(a < 0n ? -a : a) : Math.abs(a);
});
def('round', 1, (args) => {
  const a = num('round', args, 0);
  if (typeof a === 'bigint') return a;
  return a < 0 ? -Math.round(-a) : Math.round(a);
});
def('ceil', 1, (args) => {
  const a = num('ceil', args, 0);
  return typeof a === 'bigint' ? a : Math.ceil(a);
});
def('floor', 1, (args) => {
  const a = num('floor', args, 0);
  return typeof a === 'bigint' ? a : Math.floor(a);
});
def('and', 2, (args) => {
  const a = set('and', args, 0);
  const b = set('and', args, 1);
  return new RSet(a.values().filter((x) => b.has(x)));
});
def('or', 2, (args) => {
  const a = set('or', args, 0);
  const b = set('or', args, 1);
  return new RSet([...a.values(), ...b.values()]);
});
