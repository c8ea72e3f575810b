// Type predicates and conversions: is_*, type_name, to_number.

import { builtinError, typeError } from '../errors.js';
import { normNum, RObject, RSet, typeName } from '../value.js';
import { def } from './registry.js';

def('is_number', 1, ([v]) => typeof v === 'number' || typeof v === 'bigint');
def('is_string', 1, ([v]) => typeof v === 'string');
def('is_boolean', 1, ([v]) => typeof v === 'boolean');
def('is_array', 1, ([v]) => Array.isArray(v));
def('is_set', 1, ([v]) => v instanceof RSet);
def('is_object', 1, ([v]) => v instanceof RObject);
def('is_null', 1, ([v]) => v === null);
def('type_name', 1, ([v]) => typeName(v!));
def('to_number', 1, ([v]) => {
  if (v === null) return 0;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number' || typeof v === 'bigint') return v;
  if (typeof v === 'string') {
    if (/^[+-]?(nan|inf|infinity)$/i.test(v)) throw typeError(`to_number: operand 1 must be a number string but got ${JSON.stringify(v)}`);
    const t = v.trim();
    if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(v) || t !== v) throw builtinError(`strconv.ParseFloat: parsing ${JSON.stringify(v)}: invalid syntax`);
    if (/^[+-]?\d+$/.test(v)) return normNum(BigInt(v));
    return Number(v);
  }
  throw typeError(`to_number: operand 1 must be one of {boolean, null, number, string} but got ${typeName(v!)}`);
});
