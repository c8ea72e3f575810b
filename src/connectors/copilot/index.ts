// GitHub Copilot CLI and coding agent hooks (.github/hooks/*.json).
// Sources: GitHub Copilot CLI hooks reference, https://docs.github.com/en/copilot/reference/copilot-cli-reference/cli-hooks-reference,
// and Hooks configuration, https://docs.github.com/en/copilot/reference/hooks-configuration (github/docs). Events:
// sessionStart, sessionEnd, userPromptSubmitted {prompt}, preToolUse {toolName, toolArgs (a JSON string)},
// postToolUse {toolResult {resultType, textResultForLlm}}, postToolUseFailure {error}, agentStop, subagentStop,
// errorOccurred, preCompact, notification; camelCase payloads carry sessionId, timestamp, cwd. Hooks configured
// with PascalCase names (PreToolUse, UserPromptSubmit, Stop, …) get the VS Code-compatible payload instead:
// hook_event_name plus snake_case fields (session_id, tool_name, tool_input, tool_result {result_type,
// text_result_for_llm}). camelCase payloads name no event, so Warden's hook script adds hook_event_name with the
// configured event name. Answers: preToolUse {permissionDecision: allow|deny|ask, permissionDecisionReason (shown
// to the agent)}; postToolUseFailure command hooks exiting 2 return stderr to the agent as guidance; the outputs of
// userPromptSubmitted, postToolUse, sessionStart/End and errorOccurred are not processed.
import { decodedOnly, gate, hooked, type HookAgent, type HookEventSpec } from '../definition.js';
import { json, notice } from '../native/answers.js';
import { phaseOf, readPayload } from '../native/payload.js';
import { outputText, toolArgs } from '../native/tool-data.js';
import { hookEvent, obj, str } from '../native/values.js';
import { jsonHookFile } from '../setup/json-hooks.js';

const EVENTS: Readonly<Record<string, HookEventSpec>> = {
  sessionStart: hooked('session'),
  // Copilot does not read this event's answer, so a refusal stops nothing: no gate.
  userPromptSubmitted: hooked('prompt'),
  preToolUse: gate('pre_tool'),
  postToolUse: hooked('post_tool'),
  errorOccurred: hooked('session'),
  sessionEnd: hooked('session'),
  postToolUseFailure: decodedOnly('post_tool'),
  agentStop: decodedOnly('session'),
  subagentStart: decodedOnly('session'),
  subagentStop: decodedOnly('session'),
  preCompact: decodedOnly('session'),
  notification: decodedOnly('session'),
  // The VS Code-compatible PascalCase names, which get the snake_case payload; setup installs the camelCase ones.
  UserPromptSubmit: decodedOnly('prompt'),
  PreToolUse: decodedOnly('pre_tool'),
  PostToolUse: decodedOnly('post_tool'),
  PostToolUseFailure: decodedOnly('post_tool'),
  SessionStart: decodedOnly('session'),
  SessionEnd: decodedOnly('session'),
  Stop: decodedOnly('session'),
  SubagentStop: decodedOnly('session'),
  ErrorOccurred: decodedOnly('session'),
  PreCompact: decodedOnly('session'),
  Notification: decodedOnly('session'),
};

const FAILURE_EVENTS = new Set(['postToolUseFailure', 'PostToolUseFailure']);

export const copilot: HookAgent = {
  kind: 'hook',
  name: 'copilot',
  description: 'GitHub Copilot CLI and coding agent hooks',
  telemetry: ['hooks', 'otel'],
  events: EVENTS,
  decode(payload) {
    const { p, event } = readPayload(payload, ['hook_event_name']);
    const phase = phaseOf(EVENTS, event);
    const result = obj(p.toolResult) ?? obj(p.tool_result);
    const resultType = str(result?.resultType) ?? str(result?.result_type);
    const failed = FAILURE_EVENTS.has(event);
    return hookEvent({
      event,
      phase,
      session_id: str(p.sessionId) ?? str(p.session_id),
      tool: str(p.toolName) ?? str(p.tool_name),
      tool_input: toolArgs(p.toolArgs ?? p.tool_input),
      tool_output: outputText(failed ? p.error : (result?.textResultForLlm ?? result?.text_result_for_llm)),
      tool_succeeded: failed ? false : resultType === undefined ? undefined : resultType === 'success',
      prompt: phase === 'prompt' ? str(p.prompt) : undefined,
      cwd: str(p.cwd),
    });
  },
  render(event, { action, reason }) {
    if (action === 'allow') return { exit_code: 0 };
    if (event.phase === 'pre_tool') {
      const permissionDecision = action === 'alert' ? 'allow' : action === 'confirm' ? 'ask' : 'deny';
      return json({ permissionDecision, permissionDecisionReason: reason });
    }
    if (FAILURE_EVENTS.has(event.event) && action !== 'alert') return { stderr: reason, exit_code: 2 };
    return notice({ action, reason });
  },
  refusal: (reason) => json({ permissionDecision: 'deny', permissionDecisionReason: reason }),
  setup: jsonHookFile('.copilot/hooks/warden.json', {
    shape: 'flat', container: 'hooks', rootDefaults: { version: 1 }, entry: (cmd) => ({ type: 'command', bash: cmd }),
  }),
};
