// 32-byte secrets given as 64 hex digits in the environment (fleet signing keys, the fleet vault key); the
// format is checked by the environment schema (src/config/env.ts).
import { envVar, type EnvSource } from '../config/env.js';

export type HexSecretName = 'WARDEN_FLEET_VAULT_KEY' | 'WARDEN_OTA_HMAC_KEY' | 'WARDEN_EMERGENCY_KEY';

export function hexSecret(env: EnvSource, name: HexSecretName): Buffer | undefined {
  const value = envVar(env, name);
  return value === undefined ? undefined : Buffer.from(value, 'hex');
}
