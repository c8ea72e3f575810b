// uuid.rfc4122 (random v4, one value per key within a query) and uuid.parse (version and variant, plus the
// time-based fields of versions 1 and 2).

import { randomInt, randomUUID } from 'node:crypto';
import { normNum, RObject } from '../value.js';
import { def, int, str } from './registry.js';

def('uuid.rfc4122', 1, (args, ctx) => {
  const key = 'uuid:' + str('uuid.rfc4122', args, 0);
  let v = ctx.memo.get(key);
  if (v === undefined) ctx.memo.set(key, (v = randomUUID()));
  return v;
});

def('rand.intn', 2, (args, ctx) => {
  const n = int('rand.intn', args, 1);
  const key = `rand:${str('rand.intn', args, 0)}:${n}`;
  let v = ctx.memo.get(key);
  if (v === undefined) ctx.memo.set(key, (v = n === 0 ? 0 : randomInt(Math.abs(n))));
  return v;
});

def('uuid.parse', 1, ([v]) => {
  if (typeof v !== 'string') return undefined;
  let s = v.toLowerCase();
  if (s.startsWith('urn:uuid:')) s = s.slice(9);
  if (s.startsWith('{') && s.endsWith('}')) s = s.slice(1, -1);
  const hex = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/.test(s) ? s.replace(/-/g, '') : undefined;
  if (!hex || (s.includes('-') && s.length !== 36)) return undefined;
  const b = Buffer.from(hex, 'hex');
  const version = b[6]! >> 4;
  const vb = b[8]!;
  const variant = (vb & 0x80) === 0 ? 'Reserved, NCS backward compatibility' : (vb & 0xc0) === 0x80 ? 'RFC4122' : (vb & 0xe0) === 0xc0 ? 'Reserved, Microsoft Corporation backward compatibility' : 'Reserved, reserved for future definition';
  const out = new RObject([
    ['version', version],
    ['variant', variant],
  ]);
  if (version === 1 || version === 2) {
    const timeLow = BigInt(b.readUInt32BE(0));
    const timeMid = BigInt(b.readUInt16BE(4));
    const timeHi = BigInt(b.readUInt16BE(6) & 0x0fff);
    const ts = (timeHi << 48n) | (timeMid << 32n) | timeLow;
    // 100 ns intervals since 1582-10-15 → ns since the epoch
    out.set('time', normNum((ts - 122192928000000000n) * 100n));
    // in version 2 the low byte of the clock sequence holds the domain
    out.set('clocksequence', ((b[8]! & 0x3f) << 8) | (version === 2 ? 0 : b[9]!));
    const node = b.subarray(10);
    out.set('nodeid', [...node].map((x) => x.toString(16).padStart(2, '0')).join('-'));
    out.set('macvariables', (node[0]! & 0x02 ? 'local' : 'global') + ':' + (node[0]! & 0x01 ? 'multicast' : 'unicast'));
    if (version === 2) {
      out.set('id', b.readUInt32BE(0));
      out.set('domain', ['Person', 'Group', 'Org'][b[9]!] ?? 'Unknown');
    }
  }
  return out;
});
