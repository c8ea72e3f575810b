// The proxy master key (DESIGN.md section 4): `sk-warden-` + hex of PBKDF2-SHA256 over $WARDEN_HOME/device.key
// (100,000 rounds, 32 bytes). Agents that can only set an OpenAI-style API key authenticate to the proxy with
// it. device.key is created on first use: 32 random bytes as hex, owner-only.
import { lstatSync, readFileSync } from 'node:fs';
import { pbkdf2, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { readOrCreateSecretFile } from '../util/secret-file.js';

const ROUNDS = 100_000;
const KEY_BYTES = 32;
/** PBKDF2 wants a salt; the key file is already random, so a fixed, purpose-naming salt suffices. */
const SALT = 'warden proxy master key v1';
const MASTER_KEY_PREFIX = 'sk-warden-';

const pbkdf2Async = promisify(pbkdf2);

/** Reads device.key, creating it when absent. Refuses anything but a regular file (no symlink tricks). */
function readOrCreateDeviceKey(path: string): Buffer {
  return readOrCreateSecretFile(path, readDeviceKey, () => randomBytes(KEY_BYTES).toString('hex'));
}

function readDeviceKey(path: string): Buffer {
  const stat = lstatSync(path);
  if (!stat.isFile()) throw new Error(`${path} is not a regular file; refusing to derive the proxy master key from it`);
  const key = readFileSync(path);
  if (key.length < 16) throw new Error(`${path} holds fewer than 16 bytes; remove it to have a new one created`);
  return key;
}

export async function deriveMasterKey(deviceKeyPath: string): Promise<string> {
  const derived = await pbkdf2Async(readOrCreateDeviceKey(deviceKeyPath), SALT, ROUNDS, KEY_BYTES, 'sha256');
  return MASTER_KEY_PREFIX + derived.toString('hex');
}
