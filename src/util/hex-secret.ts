// 32-byte secrets given as 64 hex digits in the environment (fleet signing keys, the fleet vault key).
export function hexSecret(env: Record<string, string | undefined>, name: string): Buffer | undefined {
  const value = env[name]?.trim();
  if (!value) return undefined;
  if (!/^[0-9a-f]{64}$/i.test(value)) throw new Error(`${name} must be 64 hex digits (32 bytes)`);
  return Buffer.from(value, 'hex');
}
