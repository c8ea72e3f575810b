// Arrays, sets and objects: array.*, intersection/union, object.* and the json.filter/remove/patch family's
// path helpers live in json.ts.

import { builtinError, typeError } from '../errors.js';
import { equal, isNumber, RObject, RSet, typeName, type Value } from '../value.js';
import { arr, def, int, obj, set } from './registry.js';

def('array.concat', 2, (args) => [...arr('array.concat', args, 0), ...arr('array.concat', args, 1)]);
def('array.reverse', 1, (args) => [...arr('array.reverse', args, 0)].reverse());
def('array.slice', 3, (args) => {
  const a = arr('array.slice', args, 0);
  let s = Math.max(0, int('array.slice', args, 1));
  const e = Math.min(a.length, int('array.slice', args, 2));
  if (s > e) s = e;
  return a.slice(s, e);
});
def('array.flatten', 1, (args) => {
  const out: Value[] = [];
  for (const x of arr('array.flatten', args, 0)) out.push(...(Array.isArray(x) ? x : [x]));
  return out;
});

def('intersection', 1, (args) => {
  const sets = set('intersection', args, 0).values();
  if (sets.length === 0) return new RSet();
  const [first, ...rest] = sets.map((s, i) => {
    if (!(s instanceof RSet)) throw typeError(`intersection: operand 1 must be set of sets but got set containing ${typeName(s)}`);
    return i >= 0 ? s : s;
  });
  return new RSet(first!.values().filter((x) => rest.every((r) => r.has(x))));
});
def('union', 1, (args) => {
  const out = new RSet();
  for (const s of set('union', args, 0).values()) {
    if (!(s instanceof RSet)) throw typeError(`union: operand 1 must be set of sets but got set containing ${typeName(s)}`);
    s.values().forEach((x) => out.add(x));
  }
  return out;
});

def('object.get', 3, (args) => {
  const o = obj('object.get', args, 0);
  const key = args[1]!;
  if (Array.isArray(key)) {
    let cur: Value = o;
    for (const k of key) {
      let next: Value | undefined;
      if (cur instanceof RObject) next = cur.get(k);
      else if (Array.isArray(cur) && isNumber(k)) next = cur[Number(k)];
      else if (cur instanceof RSet) next = cur.has(k) ? k : undefined;
      if (next === undefined) return args[2]!;
      cur = next;
    }
    return cur;
  }
  return o.get(key) ?? args[2]!;
});
def('object.keys', 1, (args) => new RSet(obj('object.keys', args, 0).keys()));

function keySet(fname: string, args: Value[], i: number): Value[] {
  const v = args[i]!;
  if (v instanceof RObject) return v.keys();
  if (v instanceof RSet) return v.values();
  if (Array.isArray(v)) return v;
  throw typeError(`${fname}: operand ${i + 1} must be one of {object, set, array} but got ${typeName(v)}`);
}

def('object.remove', 2, (args) => {
  const o = obj('object.remove', args, 0);
  const drop = new RSet(keySet('object.remove', args, 1));
  return new RObject(o.entries().filter(([k]) => !drop.has(k)));
});
def('object.filter', 2, (args) => {
  const o = obj('object.filter', args, 0);
  const keep = new RSet(keySet('object.filter', args, 1));
  return new RObject(o.entries().filter(([k]) => keep.has(k)));
});

export function mergeObjects(a: RObject, b: RObject): RObject {
  const out = new RObject(a.entries());
  for (const [k, v] of b.entries()) {
    const old = out.get(k);
    out.set(k, old instanceof RObject && v instanceof RObject ? mergeObjects(old, v) : v);
  }
  return out;
}

def('object.union', 2, (args) => mergeObjects(obj('object.union', args, 0), obj('object.union', args, 1)));
def('object.union_n', 1, (args) => {
  let out = new RObject();
  for (const o of arr('object.union_n', args, 0)) {
    if (!(o instanceof RObject)) throw typeError(`object.union_n: operand 1 must be array of objects but got array containing ${typeName(o)}`);
    out = mergeObjects(out, o);
  }
  return out;
});

function subset(sup: Value, sub: Value): boolean {
  if (sup instanceof RObject && sub instanceof RObject) {
    return sub.entries().every(([k, v]) => {
      const x = sup.get(k);
      if (x === undefined) return false;
      if ((x instanceof RObject && v instanceof RObject) || (x instanceof RSet && v instanceof RSet) || (Array.isArray(x) && Array.isArray(v))) return subset(x, v);
      return equal(x, v);
    });
  }
  if (sup instanceof RSet && sub instanceof RSet) return sub.values().every((x) => sup.has(x));
  if (Array.isArray(sup) && Array.isArray(sub)) {
    if (sub.length === 0) return true;
    for (let i = 0; i + sub.length <= sup.length; i++) if (sub.every((x, j) => equal(x, sup[i + j]!))) return true;
    return false;
  }
  if (Array.isArray(sup) && sub instanceof RSet) return sub.values().every((x) => sup.some((y) => equal(x, y)));
  return false;
}

def('object.subset', 2, (args) => {
  const [a, b] = args;
  const ok = (v: Value): boolean => v instanceof RObject || v instanceof RSet || Array.isArray(v);
  if (!ok(a!)) throw typeError(`object.subset: operand 1 must be one of {object, set, array} but got ${typeName(a!)}`);
  if (!ok(b!)) throw typeError(`object.subset: operand 2 must be one of {object, set, array} but got ${typeName(b!)}`);
  if (a instanceof RObject !== b instanceof RObject) throw typeError('object.subset: both arguments must be objects, or neither');
  return subset(a!, b!);
});

def('numbers.range', 2, (args) => {
  const a = int('numbers.range', args, 0);
  const b = int('numbers.range', args, 1);
  const out: Value[] = [];
  if (Math.abs(b - a) > 10_000_000) throw builtinError('numbers.range: range too large');
  for (let i = a; a <= b ? i <= b : i >= b; a <= b ? i++ : i--) out.push(i);
  return out;
});
def('numbers.range_step', 3, (args) => {
  const a = int('numbers.range_step', args, 0);
  const b = int('numbers.range_step', args, 1);
  const step = int('numbers.range_step', args, 2);
  if (step <= 0) throw builtinError('numbers.range_step: step must be a positive integer');
  const out: Value[] = [];
  if (Math.abs(b - a) / step > 10_000_000) throw builtinError('numbers.range_step: range too large');
  for (let i = a; a <= b ? i <= b : i >= b; a <= b ? (i += step) : (i -= step)) out.push(i);
  return out;
});

