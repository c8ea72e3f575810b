// The built-in connectors: one per supported agent. Hook connectors receive the agent's lifecycle hooks on
// /api/v1/<name>/hook; proxy connectors send their LLM traffic through the guardrail proxy instead.
import type { Config } from '../config/schema.js';

export interface ConnectorInfo {
  name: string;
  description: string;
  source: 'builtin';
  /** Hook events the agent can send; empty for proxy connectors. */
  hook_events: string[];
  /** Whether a pre-tool hook can stop a call (`pre_tool`), only report it (`post_tool`), or the proxy sees it. */
  tool_inspection_mode: 'pre_tool' | 'post_tool' | 'proxy';
  /** Where the agent's LLM traffic flows: through our proxy (`proxy`) or straight to the provider (`direct`). */
  llm_traffic: 'proxy' | 'direct';
  /** Telemetry channels the connector can wire up besides its main data path. */
  telemetry: string[];
}

const hook = (
  name: string,
  description: string,
  hook_events: string[],
  telemetry: string[] = ['hooks'],
): ConnectorInfo => ({ name, description, source: 'builtin', hook_events, tool_inspection_mode: 'pre_tool', llm_traffic: 'direct', telemetry });

const proxy = (name: string, description: string): ConnectorInfo => ({
  name,
  description,
  source: 'builtin',
  hook_events: [],
  tool_inspection_mode: 'proxy',
  llm_traffic: 'proxy',
  telemetry: ['proxy'],
});

const LIFECYCLE = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop', 'SessionEnd'];

export const BUILTIN_CONNECTORS: readonly ConnectorInfo[] = [
  hook('claudecode', 'Anthropic Claude Code (settings.json hooks)', [...LIFECYCLE, 'SubagentStop', 'Notification', 'PreCompact'], ['hooks', 'otel']),
  hook('codex', 'OpenAI Codex CLI (hooks and notify)', [...LIFECYCLE], ['hooks', 'otel', 'notify']),
  hook('cursor', 'Cursor agent (hooks.json)', [
    'beforeSubmitPrompt', 'beforeShellExecution', 'beforeMCPExecution', 'beforeReadFile',
    'afterShellExecution', 'afterMCPExecution', 'afterFileEdit', 'afterAgentResponse', 'stop',
  ]),
  hook('windsurf', 'Windsurf Cascade hooks', [
    'pre_user_prompt', 'pre_run_command', 'pre_read_code', 'pre_write_code', 'pre_mcp_tool_use',
    'post_run_command', 'post_read_code', 'post_write_code', 'post_mcp_tool_use', 'post_cascade_response',
  ]),
  hook('geminicli', 'Google Gemini CLI hooks', [
    'SessionStart', 'BeforeAgent', 'BeforeModel', 'AfterModel', 'BeforeTool', 'AfterTool', 'AfterAgent', 'SessionEnd',
  ], ['hooks', 'otel']),
  hook('copilot', 'GitHub Copilot CLI and coding agent hooks', [
    'sessionStart', 'userPromptSubmitted', 'preToolUse', 'postToolUse', 'errorOccurred', 'sessionEnd',
  ], ['hooks', 'otel']),
  hook('openhands', 'OpenHands agent hooks', LIFECYCLE),
  hook('antigravity', 'Google Antigravity agent hooks', ['PreToolUse', 'PostToolUse', 'PreInvocation', 'PostInvocation', 'Stop']),
  hook('opencode', 'opencode plugin events', ['chat.message', 'tool.execute.before', 'tool.execute.after', 'session.idle']),
  hook('hermes', 'Hermes agent hooks', [
    'on_session_start', 'pre_llm_call', 'pre_tool_call', 'post_tool_call', 'post_llm_call', 'on_session_end',
  ]),
  hook('omnigent', 'Omnigent agent hooks', LIFECYCLE),
  proxy('openclaw', 'OpenClaw gateway; LLM traffic through the guardrail proxy'),
  proxy('zeptoclaw', 'ZeptoClaw; LLM traffic through the guardrail proxy'),
];

const byName = new Map(BUILTIN_CONNECTORS.map((c) => [c.name, c]));

export function findConnector(name: string): ConnectorInfo | undefined {
  return byName.get(name);
}

/** The active connectors, primary first; names are checked by `checkConnectorConfig`. */
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
