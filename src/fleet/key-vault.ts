// Device keys at rest. A device's 32-byte key must be recoverable (the gateway verifies the device's HMACs with
// it), so it cannot be hashed: it is sealed with AES-256-GCM under the vault key, which lives outside the
// database ($WARDEN_HOME/fleet.key, 0600, created on first use, or WARDEN_FLEET_VAULT_KEY as 64 hex digits).
// A stolen fleet.db alone yields no device key.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { lstatSync, readFileSync } from 'node:fs';
import { hexSecret } from '../util/hex-secret.js';
import { readOrCreateSecretFile } from '../util/secret-file.js';

const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export class KeyVault {
  constructor(private readonly key: Buffer) {
    if (key.length !== KEY_BYTES) throw new Error('the fleet vault key must be 32 bytes');
  }

  /** The vault key from WARDEN_FLEET_VAULT_KEY, else from `path` (created, owner-only, when absent). */
  static open(path: string, env: Record<string, string | undefined>): KeyVault {
    return new KeyVault(hexSecret(env, 'WARDEN_FLEET_VAULT_KEY') ?? readOrCreateKeyFile(path));
  }

  /** nonce ‖ ciphertext ‖ tag; `context` (the composite id) is bound in, so a sealed key cannot be moved to another row. */
  seal(plain: Buffer, context: string): Buffer {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    cipher.setAAD(Buffer.from(context));
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    return Buffer.concat([nonce, body, cipher.getAuthTag()]);
  }

  /** Throws when the box was altered, sealed under another vault key, or for another context. */
  open(sealed: Buffer, context: string): Buffer {
    if (sealed.length < NONCE_BYTES + TAG_BYTES) throw new Error('sealed key is truncated');
    const decipher = createDecipheriv('aes-256-gcm', this.key, sealed.subarray(0, NONCE_BYTES));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    return Buffer.concat([decipher.update(sealed.subarray(NONCE_BYTES, sealed.length - TAG_BYTES)), decipher.final()]);
  }
}

function readKeyFile(path: string): Buffer {
  if (!lstatSync(path).isFile()) throw new Error(`${path} is not a regular file`);
  const text = readFileSync(path, 'utf8').trim();
  if (!/^[0-9a-f]{64}$/i.test(text)) throw new Error(`${path} must hold 64 hex digits`);
  return Buffer.from(text, 'hex');
}

function readOrCreateKeyFile(path: string): Buffer {
  return readOrCreateSecretFile(path, readKeyFile, () => randomBytes(KEY_BYTES).toString('hex'));
}
