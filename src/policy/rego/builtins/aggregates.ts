// Aggregates: count, sum, product, max, min, sort, all, any.

import { typeError } from '../errors.js';
import { compare, isNumber, RObject, RSet, typeName, type Value } from '../value.js';
import { add, mul } from './arithmetic.js';
import { collection, def } from './registry.js';

def('count', 1, ([v]) => {
  if (typeof v === 'string') return [...v].length;
  if (Array.isArray(v)) return v.length;
  if (v instanceof RSet || v instanceof RObject) return v.size;
  throw typeError(`count: operand 1 must be one of {array, object, set, string} but got ${typeName(v!)}`);
});

function numbers(fname: string, args: Value[]): (number | bigint)[] {
  return collection(fname, args, 0).map((x) => {
    if (!isNumber(x)) throw typeError(`${fname}: operand 1 must be one of {array, set} of numbers but got ${typeName(x)}`);
    return x;
  });
}

def('sum', 1, (args) => numbers('sum', args).reduce<number | bigint>((a, b) => add(a, b), 0));
def('product', 1, (args) => numbers('product', args).reduce<number | bigint>((a, b) => mul(a, b), 1));
def('max', 1, (args) => {
  const xs = collection('max', args, 0);
  return xs.length === 0 ? undefined : xs.reduce((a, b) => (compare(a, b) >= 0 ? a : b));
});
def('min', 1, (args) => {
  const xs = collection('min', args, 0);
  return xs.length === 0 ? undefined : xs.reduce((a, b) => (compare(a, b) <= 0 ? a : b));
});
def('sort', 1, (args) => [...collection('sort', args, 0)].sort(compare));
def('all', 1, (args) => collection('all', args, 0).every((x) => x === true));
def('any', 1, (args) => collection('any', args, 0).some((x) => x === true));
