// The built-in connectors as the rest of Warden sees them, derived from the definitions in ./index.ts: the summary
// GET /connectors and /status report, the hook agents by name (the hook route and `warden setup`), and the config
// check that connector names are registered.
import type { Config } from '../config/schema.js';
import { installedEvents, type ConnectorDefinition, type HookAgent } from './definition.js';
import { CONNECTORS } from './index.js';

export interface ConnectorInfo {
  name: string;
  description: string;
  source: 'builtin';
  /** Hook events `warden setup` installs; empty for proxy connectors. */
  hook_events: string[];
  /** Whether a pre-tool hook can stop a call (`pre_tool`), only report it (`post_tool`), or the proxy sees it. */
  tool_inspection_mode: 'pre_tool' | 'post_tool' | 'proxy';
  /** Where the agent's LLM traffic flows: through our proxy (`proxy`) or straight to the provider (`direct`). */
  llm_traffic: 'proxy' | 'direct';
  /** Telemetry channels the connector can wire up besides its main data path. */
  telemetry: string[];
}

function info(definition: ConnectorDefinition): ConnectorInfo {
  const { name, description } = definition;
  const telemetry = [...definition.telemetry];
  if (definition.kind === 'proxy') {
    return { name, description, source: 'builtin', hook_events: [], tool_inspection_mode: 'proxy', llm_traffic: 'proxy', telemetry };
  }
  return { name, description, source: 'builtin', hook_events: installedEvents(definition), tool_inspection_mode: 'pre_tool', llm_traffic: 'direct', telemetry };
}

export const BUILTIN_CONNECTORS: readonly ConnectorInfo[] = CONNECTORS.map(info);

/** The hook agents, in registration order. */
export const HOOK_AGENTS: readonly HookAgent[] = CONNECTORS.filter((c): c is HookAgent => c.kind === 'hook');

const byName = new Map(BUILTIN_CONNECTORS.map((c) => [c.name, c]));
const hookAgentByName = new Map(HOOK_AGENTS.map((a) => [a.name, a]));

export function findConnector(name: string): ConnectorInfo | undefined {
  return byName.get(name);
}

/** The hook agent named `name` (the hook route's and `warden setup`'s lookup). */
export function findHookAgent(name: string): HookAgent | undefined {
  return hookAgentByName.get(name);
}

/** The active connectors, primary first; names are checked by `connectorConfigProblems`. */
export function activeConnectors(config: Config): ConnectorInfo[] {
  const names = [config.guardrail.connector, ...config.guardrail.connectors];
  return [...new Set(names)].map((n) => byName.get(n)).filter((c): c is ConnectorInfo => c !== undefined);
}

/** Config problems the schema cannot see: connector names must be registered. */
export function connectorConfigProblems(config: Config): string[] {
  const problems: string[] = [];
  const known = [...byName.keys()].join(', ');
  if (!byName.has(config.guardrail.connector)) {
    problems.push(`guardrail.connector: unknown connector "${config.guardrail.connector}" (known: ${known})`);
  }
  config.guardrail.connectors.forEach((name, i) => {
    if (!byName.has(name)) problems.push(`guardrail.connectors.${i}: unknown connector "${name}" (known: ${known})`);
  });
  return problems;
}
