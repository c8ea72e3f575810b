// The builtin table and the operand checks every family shares. A builtin takes its operands as values and
// returns a value, `undefined` (no result) or a MultiResult (relations such as `walk`); it throws a
// BuiltinError for a type or domain failure, which the evaluator turns into an error (strict) or undefined.

import { typeError } from '../errors.js';
import { isNumber, RObject, RSet, typeName, type Value } from '../value.js';

export interface BuiltinContext {
  /** Query start time, ns since the epoch (time.now_ns is constant within a query). */
  now: bigint;
  strict: boolean;
  /** Per-query memory of non-deterministic builtins (uuid.rfc4122, rand.intn give one answer per argument). */
  memo: Map<string, Value>;
}

export interface Builtin {
  arity: number;
  fn: (args: Value[], ctx: BuiltinContext) => Value | MultiResult | undefined;
}

/** Several results of a relation builtin such as `walk`. */
export class MultiResult {
  constructor(readonly values: Value[]) {}
}

export const BUILTINS = new Map<string, Builtin>();

export function def(name: string, arity: number, fn: Builtin['fn']): void {
  BUILTINS.set(name, { arity, fn });
}

/** A `*.is_valid` builtin: false for a non-string, else whether `parse` accepts the string without throwing. */
export function defIsValid(name: string, parse: (s: string) => unknown): void {
  def(name, 1, ([s]) => {
    if (typeof s !== 'string') return false;
    try {
      parse(s);
      return true;
    } catch {
      return false;
    }
  });
}

function operandError(fname: string, i: number, want: string, got: Value): never {
  throw typeError(`${fname}: operand ${i + 1} must be ${want} but got ${typeName(got)}`);
}

export function str(fname: string, args: Value[], i: number): string {
  const v = args[i]!;
  if (typeof v !== 'string') operandError(fname, i, 'string', v);
  return v;
}

export function num(fname: string, args: Value[], i: number): number | bigint {
  const v = args[i]!;
  if (!isNumber(v)) operandError(fname, i, 'number', v);
  return v;
}

export function int(fname: string, args: Value[], i: number): number {
  const v = num(fname, args, i);
  if (typeof v === 'number' && !Number.isInteger(v)) throw typeError(`${fname}: operand ${i + 1} must be integer number but got floating-point number`);
  return Number(v);
}

export function arr(fname: string, args: Value[], i: number): Value[] {
  const v = args[i]!;
  if (!Array.isArray(v)) operandError(fname, i, 'array', v);
  return v;
}

export function set(fname: string, args: Value[], i: number): RSet {
  const v = args[i]!;
  if (!(v instanceof RSet)) operandError(fname, i, 'set', v);
  return v;
}

export function obj(fname: string, args: Value[], i: number): RObject {
  const v = args[i]!;
  if (!(v instanceof RObject)) operandError(fname, i, 'object', v);
  return v;
}

export function bool(fname: string, args: Value[], i: number): boolean {
  const v = args[i]!;
  if (typeof v !== 'boolean') operandError(fname, i, 'boolean', v);
  return v;
}

/** Elements of an array or set operand (`one of {array, set}`). */
export function collection(fname: string, args: Value[], i: number, want = 'one of {array, set}'): Value[] {
  const v = args[i]!;
  if (Array.isArray(v)) return v;
  if (v instanceof RSet) return v.sorted();
  operandError(fname, i, want, v);
}

export function strings(fname: string, args: Value[], i: number, want = 'one of {array, set}'): string[] {
  const items = collection(fname, args, i, want);
  return items.map((x) => {
    if (typeof x !== 'string') throw typeError(`${fname}: operand ${i + 1} must be ${want.replace('}', '}')} of strings but got ${typeName(args[i]!)} containing ${typeName(x)}`);
    return x;
  });
}
