// Everything the gateway needs from disk at start: the data directory, config.yaml and the gateway token.
import { wardenPaths, ensureHome, type WardenPaths } from './home.js';
import { loadConfigFile, type LegacyConversion, type LoadedConfig } from './load.js';
import { generateToken, readDotenv, resolveToken, TOKEN_VARIABLE, writeDotenvVariable, type ResolvedToken } from './token.js';

export interface Settings extends LoadedConfig {
  paths: WardenPaths;
  token?: ResolvedToken;
  createdConfig: boolean;
  createdToken: boolean;
  /** The process environment over $WARDEN_HOME/.env: what every later lookup of a variable should read. */
  env: Record<string, string | undefined>;
}

export interface LoadOptions {
  env?: NodeJS.ProcessEnv;
  /** First boot: create config.yaml and a token in .env when nothing supplies one (the gateway does; the CLI doesn't). */
  initialise?: boolean;
  /** Migrates an older config.yaml in memory (the gateway passes src/migration's); without it one is refused. */
  legacy?: LegacyConversion;
}

export function loadSettings({ env = process.env, initialise = false, legacy }: LoadOptions = {}): Settings {
  const paths = wardenPaths(env);
  const createdConfig = initialise ? ensureHome(paths).createdConfig : false;
  const loaded = loadConfigFile(paths.config, { legacy });
  let dotenv = readDotenv(paths.dotenv);
  let token = resolveToken(loaded.config, env, dotenv);
  let createdToken = false;
  if (!token && initialise) {
    writeDotenvVariable(paths.dotenv, TOKEN_VARIABLE, generateToken());
    dotenv = readDotenv(paths.dotenv);
    token = resolveToken(loaded.config, env, dotenv);
    createdToken = true;
  }
  return { ...loaded, paths, token, createdConfig, createdToken, env: { ...dotenv, ...env } };
}
