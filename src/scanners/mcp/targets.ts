// What an MCP scan looks at, from what the caller named: a URL (one remote server), a configuration file of any
// agent, a project folder (its `.mcp.json`, `.cursor/mcp.json`, `.vscode/mcp.json`, `.gemini/settings.json`,
// `.codex/config.toml`), or nothing: every agent configuration in the user's home folder.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expandHome } from '../paths.js';
import { AGENT_MCP_CONFIGS, readDefinitions, type McpServerDefinition } from './definitions.js';

/** MCP configuration files inside a project folder, as each agent names them. */
const PROJECT_MCP_FILES = ['.mcp.json', '.cursor/mcp.json', '.vscode/mcp.json', '.gemini/settings.json', '.codex/config.toml'] as const;

export const isUrlTarget = (target: string) => /^https?:\/\//i.test(target);

/** The agents' own configuration files, `~` expanded (for path confinement: scans may read them). */
const agentConfigFiles = (home: string) => AGENT_MCP_CONFIGS.map((entry) => expandHome(entry.path, home));

/**
 * The definitions a target names. `confine` resolves a path the caller gave (and each project file, which may
 * be a link) and throws when it may not be read.
 */
export function definitionsOf(target: string, confine: (path: string) => string): McpServerDefinition[] {
  if (isUrlTarget(target)) return [{ name: URL.canParse(target) ? new URL(target).host : target, agent: 'unknown', url: target, args: [] }];
  const path = confine(target);
  if (!statSync(path).isDirectory()) return readDefinitions(path);
  return PROJECT_MCP_FILES.map((name) => join(path, name)).filter((file) => existsSync(file)).flatMap((file) => readDefinitions(confine(file)));
}

/** Every server in the agents' configuration files under `home`; a file that cannot be read is reported in `errors`. */
export function discoverDefinitions(home: string): { definitions: McpServerDefinition[]; errors: string[] } {
  const definitions: McpServerDefinition[] = [];
  const errors: string[] = [];
  for (const file of agentConfigFiles(home).filter((f) => existsSync(f))) {
    try {
      definitions.push(...readDefinitions(file));
    } catch (err) {
      errors.push((err as Error).message);
    }
  }
  return { definitions, errors };
}
