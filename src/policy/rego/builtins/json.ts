// JSON and YAML: marshal/unmarshal/is_valid (YAML through the `yaml` package), and the document editors
// json.filter, json.remove and json.patch (RFC 6902).

import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { builtinError, typeError } from '../errors.js';
import { equal, formatJSON, fromJSON, RObject, RSet, toJSON, typeName, type Value } from '../value.js';
import { arr, def, defIsValid, obj, str } from './registry.js';

/** Go's encoding/json escapes <, > and & (HTML safety); OPA's output follows it. */
export function goJSON(v: Value): string {
  return formatJSON(v).replace(/[<>&\u2028\u2029]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

export function parseJSONText(text: string): Value {
  return fromJSON(
    JSON.parse(text, (_k, value: unknown, context?: { source?: string }) => {
      if (typeof value === 'number' && !Number.isSafeInteger(value) && context?.source && /^-?\d+$/.test(context.source)) return BigInt(context.source);
      return value;
    }),
  );
}

def('json.marshal', 1, ([v]) => goJSON(v!));
def('json.unmarshal', 1, (args) => {
  try {
    return parseJSONText(str('json.unmarshal', args, 0));
  } catch (err) {
    if (err instanceof SyntaxError) throw builtinError(`json.unmarshal: ${err.message}`);
    throw err;
  }
});
defIsValid('json.is_valid', (s) => JSON.parse(s));

function indent(v: Value, prefix: string, ind: string, level: number): string {
  const pad = prefix + ind.repeat(level + 1);
  const end = prefix + ind.repeat(level);
  if (Array.isArray(v) || v instanceof RSet) {
    const items = Array.isArray(v) ? v : v.sorted();
    if (items.length === 0) return '[]';
    return '[\n' + items.map((x) => pad + indent(x, prefix, ind, level + 1)).join(',\n') + '\n' + end + ']';
  }
  if (v instanceof RObject) {
    if (v.size === 0) return '{}';
    return '{\n' + v.sortedEntries().map(([k, x]) => pad + goJSON(typeof k === 'string' ? k : formatJSON(k)) + ': ' + indent(x, prefix, ind, level + 1)).join(',\n') + '\n' + end + '}';
  }
  return goJSON(v);
}

def('json.marshal_with_options', 2, (args) => {
  const opts = obj('json.marshal_with_options', args, 1);
  let pretty: boolean | undefined;
  let prefix = '';
  let ind = '\t';
  for (const [k, v] of opts.entries()) {
    if (k === 'pretty' && typeof v === 'boolean') pretty = v;
    else if (k === 'prefix' && typeof v === 'string') prefix = v;
    else if (k === 'indent' && typeof v === 'string') ind = v;
    else throw typeError(`json.marshal_with_options: object contained unknown key ${formatJSON(k)}`);
  }
  if (pretty === undefined) pretty = opts.has('prefix') || opts.has('indent');
  if (!pretty) return goJSON(args[0]!);
  return prefix + indent(args[0]!, prefix, ind, 0);
});

def('yaml.marshal', 1, ([v]) => stringifyYaml(toJSON(v!), { version: '1.2' }));
def('yaml.unmarshal', 1, (args) => {
  try {
    return fromJSON(parseYaml(str('yaml.unmarshal', args, 0)) as unknown);
  } catch (err) {
    throw builtinError(`yaml: line 1: did not find expected node content: ${(err as Error).message}`);
  }
});
defIsValid('yaml.is_valid', (s) => parseYaml(s));

/** Paths as segment lists: "a/b/c" strings or arrays of segments. */
function paths(fname: string, v: Value): Value[][] {
  let items: Value[];
  if (Array.isArray(v)) items = v;
  else if (v instanceof RSet) items = v.sorted();
  else throw typeError(`${fname}: operand 2 must be one of {set, array} but got ${typeName(v)}`);
  return items.map((p) => {
    if (typeof p === 'string') return p.replace(/^\//, '').split('/').filter((s, i, all) => !(s === '' && all.length === 1)).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (Array.isArray(p)) return p;
    throw typeError(`${fname}: operand 2 must be one of {set, array} containing string paths or array of path segments but got ${typeName(p)}`);
  });
}

function child(v: Value, k: Value): Value | undefined {
  if (v instanceof RObject) return v.get(k);
  if (Array.isArray(v)) {
    const i = typeof k === 'string' && /^\d+$/.test(k) ? Number(k) : typeof k === 'number' ? k : -1;
    return i >= 0 && i < v.length ? v[i] : undefined;
  }
  if (v instanceof RSet) return v.has(k) ? k : undefined;
  return undefined;
}

function filter(v: Value, ps: Value[][]): Value {
  if (ps.some((p) => p.length === 0)) return v;
  if (v instanceof RObject) {
    const out = new RObject();
    for (const [k, x] of v.entries()) {
      const sub = ps.filter((p) => equal(p[0]!, k)).map((p) => p.slice(1));
      if (sub.length) out.set(k, filter(x, sub));
    }
    return out;
  }
  if (Array.isArray(v)) {
    const out: Value[] = [];
    v.forEach((x, i) => {
      const sub = ps.filter((p) => equal(p[0]!, i) || p[0] === String(i)).map((p) => p.slice(1));
      if (sub.length) out.push(filter(x, sub));
    });
    return out;
  }
  if (v instanceof RSet) return new RSet(v.values().filter((x) => ps.some((p) => equal(p[0]!, x))));
  return v;
}

function remove(v: Value, ps: Value[][]): Value {
  if (v instanceof RObject) {
    const out = new RObject();
    for (const [k, x] of v.entries()) {
      const here = ps.filter((p) => equal(p[0]!, k));
      if (here.some((p) => p.length === 1)) continue;
      out.set(k, here.length ? remove(x, here.map((p) => p.slice(1))) : x);
    }
    return out;
  }
  if (Array.isArray(v)) {
    const out: Value[] = [];
    v.forEach((x, i) => {
      const here = ps.filter((p) => equal(p[0]!, i) || p[0] === String(i));
      if (here.some((p) => p.length === 1)) return;
      out.push(here.length ? remove(x, here.map((p) => p.slice(1))) : x);
    });
    return out;
  }
  if (v instanceof RSet) return new RSet(v.values().filter((x) => !ps.some((p) => p.length === 1 && equal(p[0]!, x))));
  return v;
}

def('json.filter', 2, (args) => filter(obj('json.filter', args, 0), paths('json.filter', args[1]!)));
def('json.remove', 2, (args) => remove(obj('json.remove', args, 0), paths('json.remove', args[1]!)));

// ---- json.patch ----

function pointer(p: Value): Value[] {
  if (Array.isArray(p)) return p;
  if (typeof p === 'string') return p === '' ? [] : p.replace(/^\//, '').split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  throw builtinError('json.patch: invalid path');
}

function getAt(doc: Value, path: Value[]): Value | undefined {
  let cur: Value | undefined = doc;
  for (const k of path) {
    if (cur === undefined) return undefined;
    cur = child(cur, k);
  }
  return cur;
}

function update(doc: Value, path: Value[], f: (parent: Value, key: Value) => Value | undefined): Value | undefined {
  if (path.length === 0) return undefined;
  const [k, ...rest] = path;
  if (rest.length === 0) return f(doc, k!);
  const c = child(doc, k!);
  if (c === undefined) return undefined;
  const nc = update(c, rest, f);
  if (nc === undefined) return undefined;
  return replaceChild(doc, k!, nc);
}

function replaceChild(doc: Value, k: Value, v: Value): Value | undefined {
  if (doc instanceof RObject) {
    const o = new RObject(doc.entries());
    o.set(k, v);
    return o;
  }
  if (Array.isArray(doc)) {
    const i = Number(k);
    const a = [...doc];
    a[i] = v;
    return a;
  }
  return undefined;
}

function addAt(parent: Value, k: Value, v: Value): Value | undefined {
  if (parent instanceof RObject) return replaceChild(parent, k, v);
  if (Array.isArray(parent)) {
    const i = k === '-' ? parent.length : typeof k === 'string' && /^\d+$/.test(k) ? Number(k) : typeof k === 'number' ? k : -1;
    if (i < 0 || i > parent.length) return undefined;
    return [...parent.slice(0, i), v, ...parent.slice(i)];
  }
  if (parent instanceof RSet) return new RSet([...parent.values(), v]);
  return undefined;
}

function removeAt(parent: Value, k: Value): Value | undefined {
  if (parent instanceof RObject) {
    if (!parent.has(k)) return undefined;
    return new RObject(parent.entries().filter(([x]) => !equal(x, k)));
  }
  if (Array.isArray(parent)) {
    const i = typeof k === 'string' && /^\d+$/.test(k) ? Number(k) : typeof k === 'number' ? k : -1;
    if (i < 0 || i >= parent.length) return undefined;
    return [...parent.slice(0, i), ...parent.slice(i + 1)];
  }
  if (parent instanceof RSet) return parent.has(k) ? new RSet(parent.values().filter((x) => !equal(x, k))) : undefined;
  return undefined;
}

def('json.patch', 2, (args) => {
  let doc: Value | undefined = args[0]!;
  for (const op of arr('json.patch', args, 1)) {
    if (!(op instanceof RObject)) throw builtinError('json.patch: each operation must be an object');
    const kind = op.get('op');
    const path = pointer(op.get('path') ?? '');
    const value = op.get('value');
    switch (kind) {
      case 'add':
        doc = path.length === 0 ? value : update(doc!, path, (p, k) => addAt(p, k, value!));
        break;
      case 'remove':
        doc = update(doc!, path, removeAt);
        break;
      case 'replace':
        if (getAt(doc!, path) === undefined) return undefined;
        doc = path.length === 0 ? value : update(doc!, path, (p, k) => replaceChild(p, k, value!));
        break;
      case 'move':
      case 'copy': {
        const from = pointer(op.get('from') ?? '');
        const v = getAt(doc!, from);
        if (v === undefined) return undefined;
        if (kind === 'move') doc = update(doc!, from, removeAt);
        if (doc !== undefined) doc = path.length === 0 ? v : update(doc, path, (p, k) => addAt(p, k, v));
        break;
      }
      case 'test': {
        const v = getAt(doc!, path);
        if (v === undefined || !equal(v, value!)) return undefined;
        break;
      }
      default:
        throw builtinError(`json.patch: unknown op ${formatJSON(kind ?? null)}`);
    }
    if (doc === undefined) return undefined;
  }
  return doc;
});
