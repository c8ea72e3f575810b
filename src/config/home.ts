// The data directory ($WARDEN_HOME, default ~/.warden) and the files Warden keeps in it.
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { envVar } from './env.js';
import { DEFAULT_CONFIG_TEXT } from './write.js';

export interface WardenPaths {
  home: string;
  config: string;
  dotenv: string;
  auditDb: string;
  /** Random secret the proxy master key is derived from. */
  deviceKey: string;
  /** Device fleet state (fleet.enabled). */
  fleetDb: string;
  /** Vault key sealing device keys in fleet.db. */
  fleetVaultKey: string;
  /** Ordered-chain state (masks and fingerprints, never commands). */
  chainsDb: string;
  /** Tool definition hashes of scanned MCP servers (rug-pull detection, src/scanners/mcp/tool-hashes.ts). */
  mcpDb: string;
  pidFile: string;
  /** Connector hook tokens, one `<connector>.token` each. */
  hooksDir: string;
  /** Operator rule packs, one folder each (see policies/rules.md). */
  rulesDir: string;
}

export function wardenPaths(env: NodeJS.ProcessEnv = process.env): WardenPaths {
  const home = resolve(envVar(env, 'WARDEN_HOME') ?? join(homedir(), '.warden'));
  return {
    home,
    config: join(home, 'config.yaml'),
    dotenv: join(home, '.env'),
    auditDb: join(home, 'audit.db'),
    deviceKey: join(home, 'device.key'),
    fleetDb: join(home, 'fleet.db'),
    fleetVaultKey: join(home, 'fleet.key'),
    chainsDb: join(home, 'chains.db'),
    mcpDb: join(home, 'mcp.db'),
    pidFile: join(home, 'gateway.json'),
    hooksDir: join(home, 'hooks'),
    rulesDir: join(home, 'rules'),
  };
}

/** Create the data directory (owner-only) and a default config.yaml when none exists yet. */
export function ensureHome(paths: WardenPaths): { createdConfig: boolean } {
  if (!existsSync(paths.home)) {
    mkdirSync(paths.home, { recursive: true, mode: 0o700 });
    chmodSync(paths.home, 0o700);
  }
  if (existsSync(paths.config)) return { createdConfig: false };
  // 'wx' so two first starts racing each other cannot clobber one another's file.
  try {
    writeFileSync(paths.config, DEFAULT_CONFIG_TEXT, { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return { createdConfig: false };
  }
  return { createdConfig: true };
}
