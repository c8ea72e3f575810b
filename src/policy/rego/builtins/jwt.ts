// JSON Web Tokens on node:crypto: io.jwt.decode, the io.jwt.verify_<alg> family (keys as PEM certificates,
// PEM public keys, JWK or JWKS), io.jwt.decode_verify with its constraints, and io.jwt.encode_sign[_raw].

import { createHmac, createPrivateKey, createPublicKey, sign, timingSafeEqual, verify, X509Certificate, constants, type KeyObject } from 'node:crypto';
import { builtinError } from '../errors.js';
import { isNumber, RObject, toJSON, type Value } from '../value.js';
import { parseJSONText, goJSON } from './json.js';
import { def, obj, str } from './registry.js';

const HASH: Record<string, string> = { '256': 'sha256', '384': 'sha384', '512': 'sha512' };

interface Decoded {
  header: RObject;
  payload: Value;
  signature: Buffer;
  signingInput: string;
}

function b64url(s: string): Buffer {
  const bad = /[^A-Za-z0-9_-]/.exec(s.replace(/=+$/, ''));
  if (bad) throw builtinError(`illegal base64 data at input byte ${bad.index}`);
  return Buffer.from(s, 'base64url');
}

function decode(token: string): Decoded {
  const parts = token.split('.');
  if (parts.length === 1) throw builtinError('encoded JWT had no period separators');
  if (parts.length === 5) throw builtinError('JWT is a JWE object, which is not supported');
  if (parts.length !== 3) throw builtinError(`encoded JWT must have 3 sections, found ${parts.length}`);
  const part = (i: number, what: string): Buffer => {
    try {
      return b64url(parts[i]!);
    } catch (err) {
      throw builtinError(`JWT ${what} had invalid encoding: ${(err as Error).message}`);
    }
  };
  const signature = part(2, 'signature');
  let header: Value;
  try {
    header = parseJSONText(part(0, 'header').toString('utf8'));
  } catch (err) {
    throw builtinError(`JWT header had invalid encoding: ${(err as Error).message}`);
  }
  if (!(header instanceof RObject)) throw builtinError('JWT header is not an object');
  const raw = part(1, 'payload').toString('utf8');
  let payload: Value;
  try {
    payload = parseJSONText(raw);
  } catch {
    throw builtinError('type is JWT but payload is not JSON');
  }
  return { header, payload, signature, signingInput: parts[0] + '.' + parts[1] };
}

def('io.jwt.decode', 1, (args) => {
  const d = decode(str('io.jwt.decode', args, 0));
  return [d.header, d.payload, d.signature.toString('hex')];
});

/** Public keys from a PEM certificate, a PEM public key, a JWK or a JWKS. */
function publicKeys(material: string): KeyObject[] {
  const text = material.trim();
  if (text.startsWith('-----BEGIN CERTIFICATE')) {
    try {
      return [new X509Certificate(text).publicKey];
    } catch {
      throw builtinError('failed to parse a PEM certificate');
    }
  }
  if (text.startsWith('-----BEGIN')) {
    try {
      return [createPublicKey(text)];
    } catch {
      throw builtinError('failed to extract a Key from the PEM certificate');
    }
  }
  try {
    const jwk = JSON.parse(text) as { keys?: unknown[] };
    return (jwk.keys ?? [jwk]).map((k) => createPublicKey({ key: k as import('node:crypto').JsonWebKey, format: 'jwk' }));
  } catch {
    throw builtinError('failed to parse a JWK key (set)');
  }
}

function verifyWith(alg: string, d: Decoded, keyMaterial: string): boolean {
  const family = alg.slice(0, 2);
  const bits = alg.slice(2);
  const data = Buffer.from(d.signingInput);
  if (family === 'HS') {
    const mac = createHmac(HASH[bits] ?? 'sha256', keyMaterial).update(data).digest();
    return mac.length === d.signature.length && timingSafeEqual(mac, d.signature);
  }
  return publicKeys(keyMaterial).some((key) => {
    try {
      if (alg === 'EdDSA') return verify(null, data, key, d.signature);
      const hash = HASH[bits];
      if (!hash) return false;
      if (family === 'RS') return verify(hash, data, key, d.signature);
      if (family === 'PS') return verify(hash, data, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_AUTO }, d.signature);
      if (family === 'ES') return verify(hash, data, { key, dsaEncoding: 'ieee-p1363' }, d.signature);
    } catch {
      return false;
    }
    return false;
  });
}

for (const alg of ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'HS256', 'HS384', 'HS512', 'EdDSA']) {
  const fname = `io.jwt.verify_${alg.toLowerCase()}`;
  def(fname, 2, (args) => {
    const token = str(fname, args, 0);
    const key = str(fname, args, 1);
    const parts = token.split('.');
    if (parts.length !== 3) throw builtinError(`encoded JWT must have 3 sections, found ${parts.length}`);
    const d: Decoded = { header: new RObject(), payload: null, signature: b64url(parts[2]!), signingInput: parts[0] + '.' + parts[1] };
    return verifyWith(alg, d, key);
  });
}

const CONSTRAINTS = new Set(['cert', 'secret', 'alg', 'iss', 'aud', 'time']);

def('io.jwt.decode_verify', 2, (args, ctx) => {
  const token = str('io.jwt.decode_verify', args, 0);
  const c = obj('io.jwt.decode_verify', args, 1);
  for (const k of c.keys()) if (typeof k !== 'string' || !CONSTRAINTS.has(k)) throw builtinError(`unknown token validation constraint: ${String(k)}`);
  const invalid: Value = [false, new RObject(), new RObject()];
  const d = decode(token);
  // a critical header this implementation does not understand makes the token invalid (RFC 7515 §4.1.11)
  if (d.header.has('crit')) return invalid;
  const alg = d.header.get('alg');
  if (typeof alg !== 'string') return invalid;
  const want = c.get('alg');
  if (typeof want === 'string' && want !== alg) return invalid;
  const cert = c.get('cert');
  const secret = c.get('secret');
  let ok = false;
  if (alg.startsWith('HS')) ok = typeof secret === 'string' && verifyWith(alg, d, secret);
  else if (typeof cert === 'string') {
    try {
      ok = verifyWith(alg, d, cert);
    } catch {
      ok = false;
    }
  }
  if (!ok) return invalid;
  const p = d.payload;
  if (!(p instanceof RObject)) return invalid;
  const timeV = c.get('time');
  const nowSec = (isNumber(timeV) ? Number(timeV) : Number(ctx.now)) / 1e9;
  const exp = p.get('exp');
  if (exp !== undefined && !isNumber(exp)) throw builtinError('exp value must be a number');
  if (exp !== undefined && nowSec >= Number(exp)) return invalid;
  const nbf = p.get('nbf');
  if (nbf !== undefined && !isNumber(nbf)) throw builtinError('nbf value must be a number');
  if (nbf !== undefined && nowSec < Number(nbf)) return invalid;
  const iss = c.get('iss');
  if (iss !== undefined && p.get('iss') !== iss) return invalid;
  const aud = p.get('aud');
  const wantAud = c.get('aud');
  if (aud !== undefined) {
    if (typeof wantAud !== 'string') return invalid;
    const list = Array.isArray(aud) ? aud : [aud];
    if (!list.includes(wantAud)) return invalid;
  } else if (wantAud !== undefined) return invalid;
  return [true, d.header, p];
});

function signToken(headerText: string, payloadText: string, jwk: Record<string, unknown>, alg: string): string {
  const input = Buffer.from(headerText).toString('base64url') + '.' + Buffer.from(payloadText).toString('base64url');
  const family = alg.slice(0, 2);
  const hash = HASH[alg.slice(2)];
  let sig: Buffer;
  if (family === 'HS') {
    if (typeof jwk.k !== 'string') throw builtinError('invalid JWK: missing k');
    sig = createHmac(hash ?? 'sha256', Buffer.from(jwk.k, 'base64url')).update(input).digest();
  } else {
    const key = createPrivateKey({ key: jwk as import('node:crypto').JsonWebKey, format: 'jwk' });
    if (alg === 'EdDSA') sig = sign(null, Buffer.from(input), key);
    else if (family === 'RS') sig = sign(hash!, Buffer.from(input), key);
    else if (family === 'PS') sig = sign(hash!, Buffer.from(input), { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST });
    else if (family === 'ES') sig = sign(hash!, Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' });
    else throw builtinError(`unknown JWS algorithm: ${alg}`);
  }
  return input + '.' + sig.toString('base64url');
}

function algOf(header: unknown): string {
  const alg = (header as { alg?: unknown } | null)?.alg;
  if (typeof alg !== 'string') throw builtinError("missing or invalid 'alg' header: jwsbb: header \"alg\" not found");
  if (!/^(HS|RS|PS|ES)(256|384|512)$|^EdDSA$/.test(alg)) throw builtinError(`unknown JWS algorithm: ${alg}`);
  return alg;
}

def('io.jwt.encode_sign', 3, (args) => {
  const header = obj('io.jwt.encode_sign', args, 0);
  const payload = obj('io.jwt.encode_sign', args, 1);
  const key = obj('io.jwt.encode_sign', args, 2);
  return signToken(goJSON(header), goJSON(payload), toJSON(key) as Record<string, unknown>, algOf(toJSON(header)));
});
def('io.jwt.encode_sign_raw', 3, (args) => {
  const headerText = str('io.jwt.encode_sign_raw', args, 0);
  const payloadText = str('io.jwt.encode_sign_raw', args, 1);
  const keyText = str('io.jwt.encode_sign_raw', args, 2);
  let header: unknown;
  try {
    header = JSON.parse(headerText);
  } catch (err) {
    throw builtinError(`missing or invalid 'alg' header: cannot parse JSON: ${(err as Error).message}`);
  }
  if ((header as { typ?: unknown }).typ === 'JWT') {
    try {
      JSON.parse(payloadText);
    } catch {
      throw builtinError('type is JWT but payload is not JSON');
    }
  }
  let key: unknown;
  try {
    key = JSON.parse(keyText);
  } catch {
    throw builtinError('failed to parse JWK');
  }
  return signToken(headerText, payloadText, key as Record<string, unknown>, algOf(header));
});

