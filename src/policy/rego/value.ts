// Rego values and their order and equality. Scalars are plain JS values (numbers stay `number` while they are
// exact, and become `bigint` beyond 2^53 so large integers keep every digit); arrays are JS arrays; sets and
// objects are classes keyed by a canonical string of each value, so `1` and `1.0` are one key as in OPA.

export type Value = null | boolean | number | bigint | string | Value[] | RSet | RObject;

/** A Rego set: canonical key → element. */
export class RSet {
  readonly items = new Map<string, Value>();
  constructor(values: Iterable<Value> = []) {
    for (const v of values) this.add(v);
  }
  add(v: Value): void {
    const k = keyOf(v);
    if (!this.items.has(k)) this.items.set(k, v);
  }
  has(v: Value): boolean {
    return this.items.has(keyOf(v));
  }
  get size(): number {
    return this.items.size;
  }
  values(): Value[] {
    return [...this.items.values()];
  }
  sorted(): Value[] {
    return this.values().sort(compare);
  }
}

/** A Rego object: canonical key → [key, value]. */
export class RObject {
  readonly items = new Map<string, [Value, Value]>();
  constructor(entries: Iterable<[Value, Value]> = []) {
    for (const [k, v] of entries) this.set(k, v);
  }
  set(k: Value, v: Value): void {
    this.items.set(keyOf(k), [k, v]);
  }
  get(k: Value): Value | undefined {
    return this.items.get(keyOf(k))?.[1];
  }
  has(k: Value): boolean {
    return this.items.has(keyOf(k));
  }
  delete(k: Value): void {
    this.items.delete(keyOf(k));
  }
  get size(): number {
    return this.items.size;
  }
  entries(): [Value, Value][] {
    return [...this.items.values()];
  }
  keys(): Value[] {
    return [...this.items.values()].map((e) => e[0]);
  }
  sortedEntries(): [Value, Value][] {
    return this.entries().sort((a, b) => compare(a[0], b[0]));
  }
}

export function isNumber(v: Value | undefined): v is number | bigint {
  return typeof v === 'number' || typeof v === 'bigint';
}

export function isObject(v: Value | undefined): v is RObject {
  return v instanceof RObject;
}

/** Normal form of a number: a safe integer is a `number`, a larger one a `bigint`, a fraction a `number`. */
export function normNum(n: number | bigint): number | bigint {
  if (typeof n === 'bigint') {
    return n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n;
  }
  return n;
}

function numKey(n: number | bigint): string {
  if (typeof n === 'bigint') return n.toString();
  if (Number.isInteger(n) && Math.abs(n) >= 1e21) return BigInt(n).toString();
  return Object.is(n, -0) ? '0' : String(n);
}

/** A string equal for two values iff Rego calls them equal. A top-level string is its own text behind a quote
 * (the hot path: object keys); inside collections strings are JSON-quoted so separators stay unambiguous. */
export function keyOf(v: Value): string {
  return typeof v === 'string' ? '"' + v : nestedKey(v);
}

function nestedKey(v: Value): string {
  if (v === null) return 'n';
  switch (typeof v) {
    case 'boolean':
      return v ? 't' : 'f';
    case 'number':
    case 'bigint':
      return '#' + numKey(v);
    case 'string':
      return JSON.stringify(v);
  }
  if (Array.isArray(v)) return '[' + v.map(nestedKey).join(',') + ']';
  if (v instanceof RSet) return '{' + v.values().map(nestedKey).sort().join(',') + '}';
  return '<' + v.entries().map(([k, e]) => nestedKey(k) + ':' + nestedKey(e)).sort().join(',') + '>';
}

export function equal(a: Value, b: Value): boolean {
  if (a === b) return true;
  // a string equals only the same string: skip building keys for the common case
  if (typeof a === 'string' || typeof b === 'string') return false;
  return keyOf(a) === keyOf(b);
}

function typeRank(v: Value): number {
  if (v === null) return 0;
  switch (typeof v) {
    case 'boolean':
      return 1;
    case 'number':
    case 'bigint':
      return 2;
    case 'string':
      return 3;
  }
  if (Array.isArray(v)) return 4;
  if (v instanceof RObject) return 5;
  return 6;
}

export function compareNum(a: number | bigint, b: number | bigint): number {
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  // mixed: compare through the float when it is a fraction
  const fa = typeof a === 'number' && !Number.isInteger(a);
  const fb = typeof b === 'number' && !Number.isInteger(b);
  if (fa || fb) {
    const x = Number(a);
    const y = Number(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function compareStr(a: string, b: string): number {
  // Go compares strings by bytes; code point order matches UTF-8 byte order
  if (a === b) return 0;
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return x.length - y.length < 0 ? -1 : x.length > y.length ? 1 : 0;
}

/** Rego's total order: null < boolean < number < string < array < object < set. */
export function compare(a: Value, b: Value): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 0:
      return 0;
    case 1:
      return a === b ? 0 : a ? 1 : -1;
    case 2:
      return compareNum(a as number, b as number);
    case 3:
      return compareStr(a as string, b as string);
    case 4: {
      const x = a as Value[];
      const y = b as Value[];
      for (let i = 0; i < Math.min(x.length, y.length); i++) {
        const c = compare(x[i]!, y[i]!);
        if (c !== 0) return c;
      }
      return x.length === y.length ? 0 : x.length < y.length ? -1 : 1;
    }
    case 5: {
      const x = (a as RObject).sortedEntries();
      const y = (b as RObject).sortedEntries();
      for (let i = 0; i < Math.min(x.length, y.length); i++) {
        const c = compare(x[i]![0], y[i]![0]);
        if (c !== 0) return c;
        const d = compare(x[i]![1], y[i]![1]);
        if (d !== 0) return d;
      }
      return x.length === y.length ? 0 : x.length < y.length ? -1 : 1;
    }
    default: {
      const x = (a as RSet).sorted();
      const y = (b as RSet).sorted();
      for (let i = 0; i < Math.min(x.length, y.length); i++) {
        const c = compare(x[i]!, y[i]!);
        if (c !== 0) return c;
      }
      return x.length === y.length ? 0 : x.length < y.length ? -1 : 1;
    }
  }
}

/** OPA's type names, as builtin errors print them. */
export function typeName(v: Value): string {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'boolean':
      return 'boolean';
    case 'number':
    case 'bigint':
      return 'number';
    case 'string':
      return 'string';
  }
  if (Array.isArray(v)) return 'array';
  if (v instanceof RObject) return 'object';
  return 'set';
}

/** A JSON value (as JSON.parse gives, with bigint for exact large integers) as a Rego value. */
export function fromJSON(j: unknown): Value {
  if (j === null || j === undefined) return null;
  if (typeof j === 'boolean' || typeof j === 'string') return j;
  if (typeof j === 'number' || typeof j === 'bigint') return normNum(j);
  if (Array.isArray(j)) return j.map(fromJSON);
  if (j instanceof RSet || j instanceof RObject) return j;
  const o = new RObject();
  for (const [k, v] of Object.entries(j as Record<string, unknown>)) o.set(k, fromJSON(v));
  return o;
}

/** A Rego value as JSON (sets as sorted arrays, non-string keys as their JSON text), as OPA answers. */
export function toJSON(v: Value): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(toJSON);
  if (v instanceof RSet) return v.sorted().map(toJSON);
  const out: Record<string, unknown> = {};
  for (const [k, e] of v.sortedEntries()) out[typeof k === 'string' ? k : formatJSON(k)] = toJSON(e);
  return out;
}

/** Compact JSON text of a Rego value (bigints exact). */
export function formatJSON(v: Value): string {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'boolean':
      return String(v);
    case 'number':
      return numText(v);
    case 'bigint':
      return v.toString();
    case 'string':
      return JSON.stringify(v);
  }
  if (Array.isArray(v)) return '[' + v.map(formatJSON).join(',') + ']';
  if (v instanceof RSet) return '[' + v.sorted().map(formatJSON).join(',') + ']';
  return '{' + v.sortedEntries().map(([k, e]) => JSON.stringify(typeof k === 'string' ? k : formatJSON(k)) + ':' + formatJSON(e)).join(',') + '}';
}

/** Number text as OPA prints it (integers without exponent). */
export function numText(n: number | bigint): string {
  if (typeof n === 'bigint') return n.toString();
  if (Number.isInteger(n) && Math.abs(n) >= 1e21) return BigInt(n).toString();
  return String(n);
}

/** Rego text of a value (sets as `{…}`, `set()` when empty), as sprintf's %v and errors print them. */
export function formatRego(v: Value): string {
  if (v instanceof RSet) return v.size === 0 ? 'set()' : '{' + v.sorted().map(formatRego).join(', ') + '}';
  if (v instanceof RObject) return '{' + v.sortedEntries().map(([k, e]) => formatRego(k) + ': ' + formatRego(e)).join(', ') + '}';
  if (Array.isArray(v)) return '[' + v.map(formatRego).join(', ') + ']';
  return formatJSON(v);
}

/** Key/value pairs of a collection (set elements are their own keys). */
export function members(v: Value): [Value, Value][] {
  if (Array.isArray(v)) return v.map((x, i) => [i, x]);
  if (v instanceof RSet) return v.values().map((x) => [x, x]);
  if (v instanceof RObject) return v.entries();
  return [];
}

export function lookup(v: Value, k: Value): Value | undefined {
  if (Array.isArray(v)) {
    if (typeof k === 'number' && Number.isInteger(k) && k >= 0 && k < v.length) return v[k];
    return undefined;
  }
  if (v instanceof RObject) return v.get(k);
  if (v instanceof RSet) return v.has(k) ? k : undefined;
  return undefined;
}

