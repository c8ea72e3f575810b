// MCP server definitions as the agents themselves keep them: where each agent's configuration lives, and how a
// file is read into a list of servers (name, command and arguments, or URL). JSON files may hold comments and
// trailing commas (VS Code, Cursor and Gemini CLI accept them), so they are read with jsonc-parser; Codex keeps
// its servers in TOML (`[mcp_servers.<name>]`), read with smol-toml. Nothing here starts or contacts a server.
import { readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { WardenError } from '../../errors.js';
import { isObject } from '../../util/json.js';
import { SCANNER_LIMITS } from '../limits.js';

export type McpAgent = 'claude-code' | 'cursor' | 'windsurf' | 'gemini-cli' | 'codex' | 'vscode' | 'unknown';

export interface McpServerDefinition {
  name: string;
  /** The file the definition was read from (absent for a URL given directly). */
  source?: string;
  agent: McpAgent;
  /** A local server: the program the agent starts, and its arguments. */
  command?: string;
  args: string[];
  /** A remote server. */
  url?: string;
  /**
   * Headers the agent sends to a remote server (an API key, say), written literally in the configuration; a
   * value that refers to a variable (`${…}`) is left out, since the agent's environment is not the scanner's.
   * Sent to that server only, never reported.
   */
  headers?: Record<string, string>;
}

/** A configuration file that cannot be read or is not valid JSON/TOML. */
export class McpConfigError extends WardenError {
  constructor(message: string, statusCode: 400 | 422 = 422) {
    super('WARDEN_ERR_SCAN_MCP_CONFIG_INVALID', message, { statusCode });
  }
}

/**
 * Where each agent keeps the user's MCP servers, as its documentation gives it (`~`: the home folder). Project
 * files (`.mcp.json`, `.cursor/mcp.json`, `.vscode/mcp.json`, `.gemini/settings.json`) are read when a scan names them.
 */
export const AGENT_MCP_CONFIGS: readonly { agent: McpAgent; path: string }[] = [
  { agent: 'claude-code', path: '~/.claude.json' },
  { agent: 'cursor', path: '~/.cursor/mcp.json' },
  { agent: 'windsurf', path: '~/.codeium/windsurf/mcp_config.json' },
  { agent: 'gemini-cli', path: '~/.gemini/settings.json' },
  { agent: 'codex', path: '~/.codex/config.toml' },
  { agent: 'vscode', path: '~/.config/Code/User/mcp.json' },
  { agent: 'vscode', path: '~/Library/Application Support/Code/User/mcp.json' },
];

/** The agent a file belongs to, from its name and folder (a given file may be any of them). */
function agentOf(path: string): McpAgent {
  const known = AGENT_MCP_CONFIGS.find((entry) => path.endsWith(entry.path.slice(1)));
  if (known) return known.agent;
  const name = basename(path);
  if (name === '.mcp.json' || name === '.claude.json') return 'claude-code';
  if (path.endsWith(join('.cursor', 'mcp.json'))) return 'cursor';
  if (path.endsWith(join('.vscode', 'mcp.json'))) return 'vscode';
  if (path.endsWith(join('.gemini', 'settings.json'))) return 'gemini-cli';
  if (name.endsWith('.toml')) return 'codex';
  return 'unknown';
}

const str = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value : undefined);

/** One entry of a server map, whatever the agent calls its fields (`url`, Windsurf's `serverUrl`, Gemini's `httpUrl`). */
function definitionOf(name: string, entry: unknown, source: string | undefined, agent: McpAgent): McpServerDefinition | undefined {
  if (!isObject(entry)) return undefined;
  const args = Array.isArray(entry.args) ? entry.args.filter((a): a is string => typeof a === 'string') : [];
  const url = str(entry.url) ?? str(entry.serverUrl) ?? str(entry.httpUrl);
  const command = str(entry.command);
  if (!url && !command) return undefined;
  const headers = isObject(entry.headers)
    ? Object.fromEntries(Object.entries(entry.headers).filter((h): h is [string, string] => typeof h[1] === 'string' && !h[1].includes('${')))
    : {};
  return {
    name, source, agent, args, ...(command ? { command } : {}), ...(url ? { url } : {}),
    ...(url && Object.keys(headers).length > 0 ? { headers } : {}),
  };
}

function serversOf(map: unknown, source: string | undefined, agent: McpAgent): McpServerDefinition[] {
  if (!isObject(map)) return [];
  return Object.entries(map).flatMap(([name, entry]) => definitionOf(name, entry, source, agent) ?? []);
}

/**
 * Every server a parsed configuration defines: `mcpServers` (Claude Code, Cursor, Windsurf, Gemini CLI), Claude
 * Code's per-project `projects.<path>.mcpServers`, VS Code's `servers` (and `mcp.servers` in settings.json),
 * and Codex's `mcp_servers`.
 */
export function definitionsIn(document: unknown, source: string | undefined, agent: McpAgent): McpServerDefinition[] {
  if (!isObject(document)) return [];
  const found = [
    ...serversOf(document.mcpServers, source, agent),
    ...serversOf(document.mcp_servers, source, agent),
    ...serversOf(document.servers, source, agent),
    ...(isObject(document.mcp) ? serversOf(document.mcp.servers, source, agent) : []),
  ];
  if (isObject(document.projects)) {
    for (const [project, settings] of Object.entries(document.projects)) {
      if (isObject(settings)) found.push(...serversOf(settings.mcpServers, source, agent).map((d) => ({ ...d, name: `${d.name} (${project})` })));
    }
  }
  return found;
}

/** JSON as agents write it (comments, trailing commas): the value, or the first parse error with its offset. */
export function parseJsonWithComments(text: string): { value?: unknown; error?: string } {
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(text, errors, { allowTrailingComma: true, disallowComments: false });
  return errors.length > 0 ? { error: `${printParseErrorCode(errors[0]!.error)} at offset ${errors[0]!.offset}` } : { value };
}

/** The servers a configuration file defines; throws McpConfigError when it cannot be read or parsed. */
export function readDefinitions(path: string): McpServerDefinition[] {
  const size = statSync(path, { throwIfNoEntry: false })?.size;
  if (size === undefined) throw new McpConfigError(`MCP configuration not found: ${path}`, 400);
  if (size > SCANNER_LIMITS.mcpConfigBytes) throw new McpConfigError(`MCP configuration ${path} is larger than ${SCANNER_LIMITS.mcpConfigBytes} bytes`, 400);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new McpConfigError(`cannot read MCP configuration ${path} (${(err as NodeJS.ErrnoException).code ?? 'error'})`, 400);
  }
  const agent = agentOf(path);
  if (path.endsWith('.toml')) {
    try {
      return definitionsIn(parseToml(text), path, agent);
    } catch (err) {
      throw new McpConfigError(`${path} is not valid TOML: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  const { value, error } = parseJsonWithComments(text);
  if (error !== undefined) throw new McpConfigError(`${path} is not valid JSON: ${error}`);
  return definitionsIn(value, path, agent);
}
