// Windsurf Cascade hooks (hooks.json).
// Source: Cascade Hooks, https://docs.windsurf.com/windsurf/cascade/hooks: every payload carries
// agent_action_name, trajectory_id (the conversation), execution_id (the agent turn), timestamp and an
// event-specific tool_info: pre/post_run_command {command_line, cwd}; pre/post_read_code {file_path};
// pre/post_write_code {file_path, edits}; pre/post_mcp_tool_use {mcp_server_name, mcp_tool_name,
// mcp_tool_arguments, mcp_result (post)}; pre_user_prompt {user_prompt}; post_cascade_response {response};
// post_cascade_response_with_transcript {transcript_path}. Answers are exit codes only: 0 proceeds; 2 is a blocking
// error whose stderr the Cascade agent sees, and blocks the action on pre-hooks; output is shown in the Cascade UI
// when the hook sets show_output. There is no ask, so confirmation is answered as a block. post_run_command's
// output/exit_code fields are read when present (github.com/CorridorSecurity/hookshot, docs/reference-cascade.md).
import { decodedOnly, gate, hooked, type HookAgent, type HookEventSpec } from '../definition.js';
import type { DecodedHookEvent } from '../hook-event.js';
import { exit2 } from '../native/answers.js';
import { phaseOf, readPayload } from '../native/payload.js';
import type { JsonObject } from '../../util/json.js';
import { mcpTool, outputText, successOf, toolArgs } from '../native/tool-data.js';
import { defined, hookEvent, obj, str } from '../native/values.js';
import { jsonHookFile } from '../setup/json-hooks.js';

const EVENTS: Readonly<Record<string, HookEventSpec>> = {
  pre_user_prompt: gate('prompt'),
  pre_run_command: gate('pre_tool'),
  pre_read_code: gate('pre_tool'),
  pre_write_code: gate('pre_tool'),
  pre_mcp_tool_use: gate('pre_tool'),
  post_run_command: hooked('post_tool'),
  post_read_code: hooked('post_tool'),
  post_write_code: hooked('post_tool'),
  post_mcp_tool_use: hooked('post_tool'),
  post_cascade_response: hooked('response'),
  // The same response with the transcript's path only: post_cascade_response already carries the text.
  post_cascade_response_with_transcript: decodedOnly('response'),
};

type ToolFields = Pick<DecodedHookEvent, 'tool' | 'tool_input' | 'tool_output' | 'tool_succeeded' | 'cwd'>;

function toolFields(event: string, info: JsonObject): ToolFields {
  const action = event.replace(/^(pre|post)_/, '');
  const post = event.startsWith('post_');
  switch (action) {
    case 'run_command':
      return {
        tool: 'run_command',
        tool_input: defined({ command: str(info.command_line) }),
        tool_output: outputText(info.output),
        tool_succeeded: post ? successOf(info) : undefined,
        cwd: str(info.cwd),
      };
    case 'read_code':
      return { tool: 'read_file', tool_input: defined({ file_path: str(info.file_path) }) };
    case 'write_code':
      return { tool: 'write_file', tool_input: defined({ file_path: str(info.file_path), edits: info.edits }) };
    case 'mcp_tool_use': {
      const name = str(info.mcp_tool_name);
      return {
        tool: name && mcpTool(str(info.mcp_server_name), name),
        tool_input: toolArgs(info.mcp_tool_arguments),
        tool_output: outputText(info.mcp_result),
      };
    }
    default:
      return {};
  }
}

export const windsurf: HookAgent = {
  kind: 'hook',
  name: 'windsurf',
  description: 'Windsurf Cascade hooks',
  telemetry: ['hooks'],
  events: EVENTS,
  decode(payload) {
    const { p, event } = readPayload(payload, ['agent_action_name']);
    const info = obj(p.tool_info) ?? {};
    const phase = phaseOf(EVENTS, event);
    return hookEvent({
      event,
      phase,
      session_id: str(p.trajectory_id),
      ...toolFields(event, info),
      prompt: phase === 'prompt' ? str(info.user_prompt) : undefined,
      response: phase === 'response' ? str(info.response) : undefined,
    });
  },
  render(_event, { action, reason }) {
    if (action === 'allow') return { exit_code: 0 };
    if (action === 'alert') return { stderr: reason, exit_code: 0 };
    return { stderr: reason, exit_code: 2 };
  },
  refusal: exit2,
  setup: jsonHookFile('.codeium/windsurf/hooks.json', { shape: 'flat', container: 'hooks', entry: (cmd) => ({ command: cmd, show_output: true }) }),
};
