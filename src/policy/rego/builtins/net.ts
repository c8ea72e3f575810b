// net.cidr_* on IPv4 and IPv6 networks held as bigint ranges: contains, intersects, is_valid, expand, merge and
// contains_matches.

import { isIP } from 'node:net';
import { builtinError, typeError } from '../errors.js';
import { RObject, RSet, typeName, type Value } from '../value.js';
import { def, defIsValid, str } from './registry.js';

interface Net {
  v6: boolean;
  start: bigint;
  end: bigint;
  bits: number;
}

function parseIPv4(s: string): bigint | undefined {
  const parts = s.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^(0|[1-9]\d{0,2})$/.test(p) || Number(p) > 255)) return undefined;
  return parts.reduce((a, p) => (a << 8n) | BigInt(p), 0n);
}

function parseIPv6(s: string): bigint | undefined {
  if (isIP(s) !== 6) return undefined;
  let text = s;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const n = parseIPv4(v4[1]!);
    if (n === undefined) return undefined;
    text = text.slice(0, -v4[1]!.length) + ((n >> 16n).toString(16) + ':' + (n & 0xffffn).toString(16));
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...new Array<string>(8 - h.length - t.length).fill('0'), ...t];
  if (groups.length !== 8) return undefined;
  return groups.reduce((a, g) => (a << 16n) | BigInt('0x' + (g || '0')), 0n);
}

function parseAddr(s: string): { v6: boolean; n: bigint } | undefined {
  const v4 = parseIPv4(s);
  if (v4 !== undefined) return { v6: false, n: v4 };
  const v6 = parseIPv6(s);
  return v6 !== undefined ? { v6: true, n: v6 } : undefined;
}

function toNet(addr: { v6: boolean; n: bigint }, bits: number): Net {
  const width = addr.v6 ? 128 : 32;
  const host = (1n << BigInt(width - bits)) - 1n;
  const start = addr.n & ~host & ((1n << BigInt(width)) - 1n);
  return { v6: addr.v6, start, end: start | host, bits };
}

function parseCIDR(fname: string, s: string): Net {
  const i = s.indexOf('/');
  const addr = parseAddr(i < 0 ? s : s.slice(0, i));
  const bits = i < 0 ? NaN : Number(s.slice(i + 1));
  if (!addr || i < 0 || !/^\d+$/.test(s.slice(i + 1)) || bits > (addr.v6 ? 128 : 32)) throw builtinError(`${fname}: invalid CIDR address: ${s}`);
  return toNet(addr, bits);
}

/** A CIDR, or a bare address as its single-host network. */
function parseCIDROrIP(fname: string, s: string): Net {
  if (s.includes('/')) return parseCIDR(fname, s);
  const addr = parseAddr(s);
  if (!addr) throw builtinError(`${fname}: invalid IP address: ${s}`);
  return toNet(addr, addr.v6 ? 128 : 32);
}

function formatAddr(v6: boolean, n: bigint): string {
  if (!v6) return [24n, 16n, 8n, 0n].map((sh) => String((n >> sh) & 255n)).join('.');
  const groups = [...Array(8).keys()].map((i) => Number((n >> BigInt(112 - 16 * i)) & 0xffffn));
  // longest run of zero groups (length ≥ 2) becomes ::
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best < 0) return hex.join(':');
  return hex.slice(0, best).join(':') + '::' + hex.slice(best + bestLen).join(':');
}

def('net.cidr_contains', 2, (args) => {
  const a = parseCIDR('net.cidr_contains', str('net.cidr_contains', args, 0));
  const b = parseCIDROrIP('net.cidr_contains', str('net.cidr_contains', args, 1));
  return a.v6 === b.v6 && a.start <= b.start && b.end <= a.end;
});
def('net.cidr_intersects', 2, (args) => {
  const a = parseCIDR('net.cidr_intersects', str('net.cidr_intersects', args, 0));
  const b = parseCIDR('net.cidr_intersects', str('net.cidr_intersects', args, 1));
  return a.v6 === b.v6 && a.start <= b.end && b.start <= a.end;
});
defIsValid('net.cidr_is_valid', (v) => parseCIDR('net.cidr_is_valid', v));
def('net.cidr_expand', 1, (args) => {
  const n = parseCIDR('net.cidr_expand', str('net.cidr_expand', args, 0));
  if (n.end - n.start > 65536n) throw builtinError('net.cidr_expand: network too large to expand');
  const out = new RSet();
  for (let a = n.start; a <= n.end; a++) out.add(formatAddr(n.v6, a));
  return out;
});

/** The smallest list of CIDRs covering [start, end]. */
function rangeToCIDRs(v6: boolean, start: bigint, end: bigint): string[] {
  const width = v6 ? 128 : 32;
  const out: string[] = [];
  let s = start;
  while (s <= end) {
    let bits = width;
    while (bits > 0) {
      const size = 1n << BigInt(width - bits + 1);
      if (s % size !== 0n || s + size - 1n > end) break;
      bits--;
    }
    out.push(`${formatAddr(v6, s)}/${bits}`);
    s += 1n << BigInt(width - bits);
  }
  return out;
}

def('net.cidr_merge', 1, ([v]) => {
  const items = Array.isArray(v) ? v : v instanceof RSet ? v.values() : undefined;
  if (!items) throw typeError(`net.cidr_merge: operand 1 must be one of {array, set} but got ${typeName(v!)}`);
  const nets: Net[] = items.map((x) => {
    if (typeof x !== 'string') throw typeError(`net.cidr_merge: operand 1 must be one of {array, set} of strings but got ${typeName(x)}`);
    if (!x.includes('/')) {
      const addr = parseAddr(x);
      if (!addr) throw builtinError(`net.cidr_merge: invalid IP address: ${x}`);
      if (addr.v6) throw builtinError('net.cidr_merge: IPv6 invalid: needs prefix length');
      return toNet(addr, 32);
    }
    return parseCIDR('net.cidr_merge', x);
  });
  const out = new RSet();
  for (const v6 of [false, true]) {
    const ranges = nets.filter((n) => n.v6 === v6).sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
    let cur: Net | undefined;
    const flush = (): void => {
      if (cur) rangeToCIDRs(v6, cur.start, cur.end).forEach((c) => out.add(c));
    };
    for (const r of ranges) {
      if (cur && r.start <= cur.end + 1n) cur = { ...cur, end: r.end > cur.end ? r.end : cur.end };
      else {
        flush();
        cur = { ...r };
      }
    }
    flush();
  }
  return out;
});

/** Identified members of a cidr_contains_matches operand: a string, or array/set/object of strings or [string, …]. */
function keyed(fname: string, v: Value, i: number): [Value, string][] {
  const cidrOf = (x: Value): string => {
    if (typeof x === 'string') return x;
    if (Array.isArray(x) && typeof x[0] === 'string') return x[0];
    throw builtinError(`${fname}: operand ${i + 1}: element must be string or non-empty array`);
  };
  if (typeof v === 'string') return [[v, v]];
  if (Array.isArray(v)) return v.map((x, k) => [k, cidrOf(x)]);
  if (v instanceof RSet) return v.values().map((x) => [x, cidrOf(x)]);
  if (v instanceof RObject) return v.entries().map(([k, x]) => [k, cidrOf(x)]);
  throw typeError(`${fname}: operand ${i + 1} must be one of {string, array, set, object} but got ${typeName(v)}`);
}

def('net.cidr_contains_matches', 2, (args) => {
  const fname = 'net.cidr_contains_matches';
  const a = keyed(fname, args[0]!, 0);
  const b = keyed(fname, args[1]!, 1);
  const out = new RSet();
  for (const [ka, ca] of a) {
    const na = parseCIDR(fname, ca);
    for (const [kb, cb] of b) {
      const nb = parseCIDROrIP(fname, cb);
      if (na.v6 === nb.v6 && na.start <= nb.start && nb.end <= na.end) out.add([ka, kb]);
    }
  }
  return out;
});
