// Where the sidecar's gateway token comes from, in the spec's order: the variable named by
// gateway.token_env, WARDEN_GATEWAY_TOKEN, the legacy AGENT_GATEWAY_TOKEN, then gateway.token.
// $WARDEN_HOME/.env supplies variables the real environment does not set (the real environment wins).
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { writeFileAtomic } from '../util/atomic-write.js';
import type { Config } from './schema.js';

export const TOKEN_VARIABLE = 'WARDEN_GATEWAY_TOKEN';
const LEGACY_TOKEN_VARIABLE = 'AGENT_GATEWAY_TOKEN';

export interface ResolvedToken {
  token: string;
  /** Human-readable origin, e.g. "environment WARDEN_GATEWAY_TOKEN" or ".env WARDEN_GATEWAY_TOKEN". */
  source: string;
  /** True when the token lives in $WARDEN_HOME/.env, so `setup rotate-token` may replace it. */
  locallyManaged: boolean;
}

export function readDotenv(path: string): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw err;
  }
  return parseEnv(text) as Record<string, string>;
}

export function resolveToken(config: Config, env: NodeJS.ProcessEnv, dotenv: Record<string, string>): ResolvedToken | undefined {
  const names = [config.gateway.token_env, TOKEN_VARIABLE, LEGACY_TOKEN_VARIABLE].filter((n) => n !== '');
  for (const name of names) {
    const fromEnv = env[name];
    if (fromEnv) return { token: fromEnv, source: `environment ${name}`, locallyManaged: false };
    const fromFile = dotenv[name];
    if (fromFile) return { token: fromFile, source: `.env ${name}`, locallyManaged: name === TOKEN_VARIABLE };
  }
  if (config.gateway.token) return { token: config.gateway.token, source: 'config.yaml gateway.token', locallyManaged: false };
  return undefined;
}

export function generateToken(): string {
  return randomBytes(32).toString('hex');
}

/** Set one variable in a .env file, keeping every other line, atomically and owner-readable only. */
export function writeDotenvVariable(path: string, name: string, value: string): void {
  let lines: string[] = [];
  try {
    lines = readFileSync(path, 'utf8').split('\n');
    if (lines.at(-1) === '') lines.pop();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const assignment = new RegExp(`^\\s*(?:export\\s+)?${name}\\s*=`);
  const line = `${name}=${value}`;
  const index = lines.findIndex((l) => assignment.test(l));
  if (index >= 0) lines[index] = line;
  else lines.push(line);
  writeFileAtomic(path, `${lines.join('\n')}\n`, 0o600);
}
