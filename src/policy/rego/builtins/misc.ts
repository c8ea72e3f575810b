// Builtins that are about documents rather than one type: walk (a relation), graph reachability, bits,
// semver, print and opa.runtime.

import { builtinError, typeError } from '../errors.js';
import { members, normNum, RObject, RSet, type Value } from '../value.js';
import { def, int, obj, str, MultiResult } from './registry.js';

def('walk', 1, ([x]) => {
  const out: Value[] = [];
  const rec = (path: Value[], v: Value): void => {
    out.push([path, v]);
    for (const [k, c] of members(v)) rec([...path, k], c);
  };
  rec([], x!);
  return new MultiResult(out);
});

def('print', 1, () => true);
def('opa.runtime', 0, () => new RObject());

function neighbours(graph: RObject, n: Value): Value[] {
  const e = graph.get(n);
  return e instanceof RSet ? e.values() : Array.isArray(e) ? e : [];
}

def('graph.reachable', 2, (args) => {
  const g = obj('graph.reachable', args, 0);
  const start = args[1] instanceof RSet ? args[1].values() : Array.isArray(args[1]) ? args[1] : [];
  const seen = new RSet();
  const queue = [...start];
  while (queue.length) {
    const n = queue.shift()!;
    if (seen.has(n) || !g.has(n)) continue;
    seen.add(n);
    queue.push(...neighbours(g, n));
  }
  return seen;
});
def('graph.reachable_paths', 2, (args) => {
  const g = obj('graph.reachable_paths', args, 0);
  const start = args[1] instanceof RSet ? args[1].values() : Array.isArray(args[1]) ? args[1] : [];
  const out = new RSet();
  const rec = (path: Value[], onPath: RSet): void => {
    const last = path[path.length - 1]!;
    const next = neighbours(g, last).filter((n) => !onPath.has(n) && g.has(n));
    if (next.length === 0) {
      out.add(path);
      return;
    }
    for (const n of next) rec([...path, n], new RSet([...onPath.values(), n]));
  };
  for (const s of start) if (g.has(s)) rec([s], new RSet([s]));
  return out;
});

const big = (fname: string, args: Value[], i: number): bigint => BigInt(int(fname, args, i));
def('bits.or', 2, (a) => normNum(big('bits.or', a, 0) | big('bits.or', a, 1)));
def('bits.and', 2, (a) => normNum(big('bits.and', a, 0) & big('bits.and', a, 1)));
def('bits.xor', 2, (a) => normNum(big('bits.xor', a, 0) ^ big('bits.xor', a, 1)));
def('bits.negate', 1, (a) => normNum(~big('bits.negate', a, 0)));
def('bits.lsh', 2, (a) => {
  const s = big('bits.lsh', a, 1);
  if (s < 0n) throw typeError('bits.lsh: operand 2 must be an unsigned integer number but got a negative integer');
  return normNum(big('bits.lsh', a, 0) << s);
});
def('bits.rsh', 2, (a) => {
  const s = big('bits.rsh', a, 1);
  if (s < 0n) throw typeError('bits.rsh: operand 2 must be an unsigned integer number but got a negative integer');
  return normNum(big('bits.rsh', a, 0) >> s);
});

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

def('semver.is_valid', 1, ([v]) => typeof v === 'string' && SEMVER.test(v));
def('semver.compare', 2, (args) => {
  const parse = (i: number): RegExpExecArray => {
    const s = str('semver.compare', args, i);
    const m = SEMVER.exec(s);
    if (!m) throw builtinError(`semver.compare: operand ${i + 1}: string ${JSON.stringify(s)} is not a valid SemVer`);
    return m;
  };
  const a = parse(0);
  const b = parse(1);
  for (let i = 1; i <= 3; i++) {
    const d = BigInt(a[i]!) - BigInt(b[i]!);
    if (d !== 0n) return d < 0n ? -1 : 1;
  }
  const pa = a[4];
  const pb = b[4];
  if (pa === pb) return 0;
  if (pa === undefined) return 1;
  if (pb === undefined) return -1;
  const xa = pa.split('.');
  const xb = pb.split('.');
  for (let i = 0; i < Math.min(xa.length, xb.length); i++) {
    const x = xa[i]!;
    const y = xb[i]!;
    if (x === y) continue;
    const nx = /^\d+$/.test(x);
    const ny = /^\d+$/.test(y);
    if (nx && ny) return BigInt(x) < BigInt(y) ? -1 : 1;
    if (nx) return -1;
    if (ny) return 1;
    return x < y ? -1 : 1;
  }
  return xa.length === xb.length ? 0 : xa.length < xb.length ? -1 : 1;
});
