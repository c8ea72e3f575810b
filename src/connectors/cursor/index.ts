// Cursor agent hooks (hooks.json).
// Sources: Cursor hooks docs, https://cursor.com/docs/agent/hooks (copy in pcomans/caruso reference/cursor_hooks.md):
// common input conversation_id, generation_id, model, hook_event_name, cursor_version, workspace_roots, user_email;
// beforeShellExecution {command, cwd}; beforeMCPExecution {tool_name, tool_input (JSON string), url | command};
// afterShellExecution {command, output, duration}; afterMCPExecution {tool_name, tool_input, result_json, duration};
// beforeReadFile {file_path, content, attachments}; afterFileEdit {file_path, edits}; beforeSubmitPrompt {prompt,
// attachments} answered {continue, user_message}; afterAgentResponse {text}; stop {status, loop_count}; shell/MCP
// answers {permission: allow|deny|ask, user_message, agent_message}; beforeReadFile answers permission allow|deny.
// Generic preToolUse {tool_name, tool_input, tool_use_id, cwd} / postToolUse {tool_output, duration} and
// postToolUseFailure: Cursor docs as summarised at stig.sh/my19940202/cursor-thinking-stat (preToolUse accepts "ask"
// but does not enforce it, so confirmation is answered as deny; postToolUse answers additional_context). Newer
// builds name MCP tools `MCP:<server>:<tool>` (cdot65.github.io/prisma-airs-cursor-hooks, Cursor Hooks API).
import { decodedOnly, gate, hooked, type HookAgent, type HookEventSpec } from '../definition.js';
import type { DecodedHookEvent, NativeHookAnswer } from '../hook-event.js';
import { json, notice } from '../native/answers.js';
import { phaseOf, readPayload } from '../native/payload.js';
import { asArray, type JsonObject } from '../../util/json.js';
import { mcpTool, outputText, toolArgs } from '../native/tool-data.js';
import { defined, hookEvent, id, str } from '../native/values.js';
import { jsonHookFile } from '../setup/json-hooks.js';

const EVENTS: Readonly<Record<string, HookEventSpec>> = {
  beforeSubmitPrompt: gate('prompt'),
  beforeShellExecution: gate('pre_tool'),
  beforeMCPExecution: gate('pre_tool'),
  beforeReadFile: gate('pre_tool'),
  // Every tool call, whichever the tool: decoded and gated since the generic hooks arrived, installed since the
  // event tables became one definition (setup had missed it).
  preToolUse: gate('pre_tool'),
  afterShellExecution: hooked('post_tool'),
  afterMCPExecution: hooked('post_tool'),
  afterFileEdit: hooked('post_tool'),
  afterAgentResponse: hooked('response'),
  stop: hooked('session'),
  // Cursor Tab (inline completion) reads and edits: not the agent's actions, so setup does not hook them.
  beforeTabFileRead: decodedOnly('pre_tool'),
  afterTabFileEdit: decodedOnly('post_tool'),
  // The generic after-hooks and session events duplicate the specific ones above; decoded when a user adds them.
  postToolUse: decodedOnly('post_tool'),
  postToolUseFailure: decodedOnly('post_tool'),
  sessionStart: decodedOnly('session'),
  sessionEnd: decodedOnly('session'),
  preCompact: decodedOnly('session'),
  subagentStart: decodedOnly('session'),
  subagentStop: decodedOnly('session'),
};

/** The only permission events whose "ask" Cursor enforces. */
const ASKABLE = new Set(['beforeShellExecution', 'beforeMCPExecution']);

function mcpName(p: JsonObject): string | undefined {
  const name = str(p.tool_name);
  if (name?.startsWith('MCP:')) {
    const rest = name.slice(4);
    const sep = rest.indexOf(':');
    if (sep > 0) return mcpTool(rest.slice(0, sep), rest.slice(sep + 1));
  }
  return name;
}

type ToolFields = Pick<DecodedHookEvent, 'tool' | 'tool_input' | 'tool_output' | 'tool_succeeded'>;

function toolFields(event: string, p: JsonObject): ToolFields {
  switch (event) {
    case 'beforeShellExecution':
    case 'afterShellExecution':
      return { tool: 'shell', tool_input: defined({ command: str(p.command) }), tool_output: outputText(p.output) };
    case 'beforeMCPExecution':
    case 'afterMCPExecution':
      return { tool: mcpName(p), tool_input: toolArgs(p.tool_input), tool_output: outputText(p.result_json) };
    case 'beforeReadFile':
    case 'beforeTabFileRead':
      return { tool: 'read_file', tool_input: defined({ file_path: str(p.file_path), content: str(p.content) }) };
    case 'afterFileEdit':
    case 'afterTabFileEdit':
      return { tool: 'edit_file', tool_input: defined({ file_path: str(p.file_path), edits: p.edits }) };
    case 'preToolUse':
    case 'postToolUse':
      return {
        tool: str(p.tool_name),
        tool_input: toolArgs(p.tool_input),
        tool_output: outputText(p.tool_output),
        tool_succeeded: event === 'postToolUse' ? true : undefined,
      };
    case 'postToolUseFailure':
      return {
        tool: str(p.tool_name),
        tool_input: toolArgs(p.tool_input),
        tool_output: outputText(p.error_message ?? p.error),
        tool_succeeded: false,
      };
    default:
      return {};
  }
}

export const cursor: HookAgent = {
  kind: 'hook',
  name: 'cursor',
  description: 'Cursor agent (hooks.json)',
  telemetry: ['hooks'],
  events: EVENTS,
  decode(payload) {
    const { p, event } = readPayload(payload, ['hook_event_name']);
    const phase = phaseOf(EVENTS, event);
    return hookEvent({
      event,
      phase,
      session_id: str(p.conversation_id) ?? str(p.session_id),
      ...toolFields(event, p),
      tool_call_id: id(p.tool_use_id),
      prompt: phase === 'prompt' ? str(p.prompt) : undefined,
      response: phase === 'response' ? str(p.text) : undefined,
      cwd: str(p.cwd) ?? str(asArray(p.workspace_roots)[0]),
    });
  },
  render(event, { action, reason }) {
    if (event.phase === 'pre_tool') {
      if (action === 'allow') return json({ permission: 'allow' });
      if (action === 'alert') return json({ permission: 'allow', user_message: reason });
      const permission = action === 'confirm' && ASKABLE.has(event.event) ? 'ask' : 'deny';
      return json({ permission, user_message: reason, agent_message: reason });
    }
    if (event.phase === 'prompt') {
      if (action === 'allow') return json({ continue: true });
      if (action === 'alert') return json({ continue: true, user_message: reason });
      return json({ continue: false, user_message: reason });
    }
    if (event.event === 'postToolUse' && action !== 'allow') return json({ additional_context: reason });
    return notice({ action, reason });
  },
  // One answer that refuses on every gate: prompts read `continue`, permission events read `permission`.
  refusal: (reason): NativeHookAnswer => ({
    stdout: { continue: false, permission: 'deny', user_message: reason, agent_message: reason },
    stderr: reason,
    exit_code: 2,
  }),
  setup: jsonHookFile('.cursor/hooks.json', { shape: 'flat', container: 'hooks', rootDefaults: { version: 1 }, entry: (cmd) => ({ command: cmd }) }),
};
