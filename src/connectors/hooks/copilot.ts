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
import { hookEvent, json, notice, obj, outputText, phaseOf, readPayload, str, toolArgs } from './shared.js';
import type { ConnectorHooks, HookPhase } from './types.js';

const PHASES: Readonly<Record<string, HookPhase>> = {
  userPromptSubmitted: 'prompt',
  UserPromptSubmit: 'prompt',
  preToolUse: 'pre_tool',
  PreToolUse: 'pre_tool',
  postToolUse: 'post_tool',
  PostToolUse: 'post_tool',
  postToolUseFailure: 'post_tool',
  PostToolUseFailure: 'post_tool',
  sessionStart: 'session',
  SessionStart: 'session',
  sessionEnd: 'session',
  SessionEnd: 'session',
  agentStop: 'session',
  Stop: 'session',
  subagentStart: 'session',
  subagentStop: 'session',
  SubagentStop: 'session',
  errorOccurred: 'session',
  ErrorOccurred: 'session',
  preCompact: 'session',
  PreCompact: 'session',
  notification: 'session',
  Notification: 'session',
};

const FAILURE_EVENTS = new Set(['postToolUseFailure', 'PostToolUseFailure']);

export const copilot: ConnectorHooks = {
  decode(payload) {
    const { p, event } = readPayload(payload, ['hook_event_name']);
    const phase = phaseOf(PHASES, event);
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
};
