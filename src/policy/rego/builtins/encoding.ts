// Encodings: base64, base64url, hex, URL query strings.

import { builtinError, typeError } from '../errors.js';
import { RObject, RSet, typeName, type Value } from '../value.js';
import { def, obj, str } from './registry.js';

const B64 = /^[A-Za-z0-9+/]*={0,2}$/;
const B64URL = /^[A-Za-z0-9_-]*={0,2}$/;

function decode64(fname: string, s: string, url: boolean): string {
  const re = url ? B64URL : B64;
  const padded = url && s.length % 4 !== 0 && !s.includes('=') ? s + '='.repeat((4 - (s.length % 4)) % 4) : s;
  if (!re.test(padded) || padded.length % 4 !== 0) throw builtinError(`${fname}: illegal base64 data at input byte ${Math.max(0, firstBad(padded, re))}`);
  return Buffer.from(padded, url ? 'base64url' : 'base64').toString('utf8');
}

function firstBad(s: string, re: RegExp): number {
  for (let i = s.length; i >= 0; i--) if (re.test(s.slice(0, i)) && i % 4 === 0) return i;
  return 0;
}

def('base64.encode', 1, (args) => Buffer.from(str('base64.encode', args, 0)).toString('base64'));
def('base64.decode', 1, (args) => decode64('base64.decode', str('base64.decode', args, 0), false));
def('base64.is_valid', 1, (args) => {
  const s = str('base64.is_valid', args, 0);
  return B64.test(s) && s.length % 4 === 0;
});
def('base64url.encode', 1, (args) => {
  const b = Buffer.from(str('base64url.encode', args, 0)).toString('base64url');
  return b + '='.repeat((4 - (b.length % 4)) % 4);
});
def('base64url.encode_no_pad', 1, (args) => Buffer.from(str('base64url.encode_no_pad', args, 0)).toString('base64url'));
def('base64url.decode', 1, (args) => decode64('base64url.decode', str('base64url.decode', args, 0), true));
def('hex.encode', 1, (args) => Buffer.from(str('hex.encode', args, 0)).toString('hex'));
def('hex.decode', 1, (args) => {
  const s = str('hex.decode', args, 0);
  const bad = /[^0-9a-fA-F]/.exec(s);
  if (bad) throw builtinError(`hex.decode: encoding/hex: invalid byte: U+${bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')} ${JSON.stringify(bad[0]).replace(/"/g, "'")}`);
  if (s.length % 2) throw builtinError('hex.decode: encoding/hex: odd length hex string');
  return Buffer.from(s, 'hex').toString('utf8');
});

/** Go's url.QueryEscape: space as +, unreserved kept. */
export function queryEscape(s: string): string {
  return encodeURIComponent(s).replace(/%20/g, '+').replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
}

function queryUnescape(fname: string, s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    throw builtinError(`${fname}: invalid URL escape`);
  }
}

def('urlquery.encode', 1, (args) => queryEscape(str('urlquery.encode', args, 0)));
def('urlquery.decode', 1, (args) => queryUnescape('urlquery.decode', str('urlquery.decode', args, 0)));
def('urlquery.encode_object', 1, (args) => {
  const o = obj('urlquery.encode_object', args, 0);
  const parts: string[] = [];
  for (const [k, v] of o.sortedEntries()) {
    if (typeof k !== 'string') throw typeError('urlquery.encode_object: operand 1 must be object[string: any]');
    const vals = typeof v === 'string' ? [v] : Array.isArray(v) ? v : v instanceof RSet ? v.sorted() : undefined;
    if (!vals) throw typeError(`urlquery.encode_object: operand 1 must be object[string: one of {string, array[string], set[string]}] but got ${typeName(v)}`);
    for (const x of vals) {
      if (typeof x !== 'string') throw typeError('urlquery.encode_object: operand 1 must be object[string: one of {string, array[string], set[string]}]');
      parts.push(queryEscape(k) + '=' + queryEscape(x));
    }
  }
  return parts.join('&');
});
def('urlquery.decode_object', 1, (args) => {
  const s = str('urlquery.decode_object', args, 0);
  const out = new RObject();
  for (const part of s.split(/[&;]/)) {
    if (!part) continue;
    const i = part.indexOf('=');
    const k = queryUnescape('urlquery.decode_object', i < 0 ? part : part.slice(0, i));
    const v = queryUnescape('urlquery.decode_object', i < 0 ? '' : part.slice(i + 1));
    const old = out.get(k);
    out.set(k, [...(Array.isArray(old) ? old : []), v] as Value[]);
  }
  return out;
});
