// The MCP servers a connector's agent has configured, read from the agent's own configuration files (the
// sidecar's GET /mcps). Only what identifies a server is returned: headers and environment can hold keys.
// A file that is missing, unreadable or malformed contributes nothing (spec: such input gives an empty list).
import { expandHome } from '../paths.js';
import { AGENT_MCP_CONFIGS, readDefinitions, type McpAgent } from './definitions.js';

/** Warden connector name → the MCP agent whose configuration files hold its servers. */
const CONNECTOR_AGENTS: Readonly<Record<string, McpAgent>> = {
  claudecode: 'claude-code',
  cursor: 'cursor',
  windsurf: 'windsurf',
  geminicli: 'gemini-cli',
  codex: 'codex',
  copilot: 'vscode',
};

/** OpenClaw keeps its servers under `mcp.servers` of its own config file (`~/.openclaw/openclaw.json`). */
const OPENCLAW_CONFIG = '~/.openclaw/openclaw.json';

export interface ConnectorMcpServer {
  name: string;
  command?: string;
  args: string[];
  url?: string;
  source?: string;
}

function connectorConfigFiles(connector: string, home: string): string[] {
  const agent = CONNECTOR_AGENTS[connector];
  const files = connector === 'openclaw' ? [OPENCLAW_CONFIG] : AGENT_MCP_CONFIGS.filter((c) => c.agent === agent).map((c) => c.path);
  return files.map((file) => expandHome(file, home));
}

export function connectorMcpServers(connector: string, home: string): ConnectorMcpServer[] {
  return connectorConfigFiles(connector, home).flatMap((file) => {
    try {
      return readDefinitions(file).map(({ name, command, args, url, source }) => ({
        name, args, ...(command ? { command } : {}), ...(url ? { url } : {}), ...(source ? { source } : {}),
      }));
    } catch {
      return [];
    }
  });
}
