// Warden's device identity towards the upstream agent gateway: an Ed25519 key pair kept as a PKCS#8 PEM file
// (mode 0600) in $WARDEN_HOME, created on first use. OpenClaw's gateway pairs devices by this key: the device id
// is the SHA-256 (hex) of the raw 32-byte public key, the public key travels as raw base64url, and the connect
// request is signed over the "v3" payload (see signConnect). A stable key means one pairing record upstream.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import { WardenError } from '../errors.js';
import { readOrCreateSecretFile } from '../util/secret-file.js';

export interface DeviceIdentity {
  deviceId: string;
  /** Raw 32-byte public key, base64url. */
  publicKey: string;
  privateKey: KeyObject;
}

/** What the v3 device signature binds (`buildDeviceAuthPayloadV3` in OpenClaw's gateway client). */
export interface ConnectSignatureInput {
  clientId: string;
  clientMode: string;
  role: string;
  scopes: readonly string[];
  signedAtMs: number;
  /** The shared gateway token sent in `auth.token` (empty when none). */
  token: string;
  nonce: string;
  platform: string;
  deviceFamily?: string;
}

/** Lower-cases ASCII letters only, as OpenClaw normalises platform and device family before signing. */
const normaliseMetadata = (value: string | undefined) => (value ?? '').trim().replace(/[A-Z]/g, (c) => c.toLowerCase());

export function connectSignaturePayload(deviceId: string, input: ConnectSignatureInput): string {
  return ['v3', deviceId, input.clientId, input.clientMode, input.role, input.scopes.join(','), String(input.signedAtMs),
    input.token, input.nonce, normaliseMetadata(input.platform), normaliseMetadata(input.deviceFamily)].join('|');
}

export function signConnect(identity: DeviceIdentity, input: ConnectSignatureInput): string {
  return sign(null, Buffer.from(connectSignaturePayload(identity.deviceId, input), 'utf8'), identity.privateKey).toString('base64url');
}

function identityOf(privateKey: KeyObject): DeviceIdentity {
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new WardenError('WARDEN_ERR_UPSTREAM_DEVICE_KEY', 'upstream device key is not an Ed25519 key');
  // SPKI DER of an Ed25519 key is a fixed 12-byte prefix followed by the raw 32-byte key.
  const raw = createPublicKey(privateKey).export({ type: 'spki', format: 'der' }).subarray(12);
  return { deviceId: createHash('sha256').update(raw).digest('hex'), publicKey: raw.toString('base64url'), privateKey };
}

/**
 * Reads the device key at `path`, or creates it (0600, whole or not at all: util/secret-file.ts) when absent. A key
 * file that is a symlink, not a regular file, or readable by others is refused: it is the credential the upstream
 * pairing trusts.
 */
export function loadDeviceIdentity(path: string): DeviceIdentity {
  return readOrCreateSecretFile(path, readDeviceIdentity,
    () => generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }) as string);
}

function readDeviceIdentity(path: string): DeviceIdentity {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw err; // created by readOrCreateSecretFile
    throw new WardenError('WARDEN_ERR_UPSTREAM_DEVICE_KEY', `cannot open upstream device key ${path} (${code ?? 'error'})`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new WardenError('WARDEN_ERR_UPSTREAM_DEVICE_KEY', `upstream device key ${path} is not a regular file`);
    if ((stat.mode & 0o077) !== 0) throw new WardenError('WARDEN_ERR_UPSTREAM_DEVICE_KEY', `upstream device key ${path} must not be readable by others (chmod 600)`);
    return identityOf(createPrivateKey(readFileSync(fd, 'utf8')));
  } finally {
    closeSync(fd);
  }
}
