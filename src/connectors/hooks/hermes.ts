// Hermes agent (Nous Research) shell hooks (hooks: block of ~/.hermes/config.yaml).
// Source: Hermes "Event Hooks" docs, https://hermes-agent.nousresearch.com/docs/user-guide/features/hooks
// (NousResearch/hermes-agent website/docs/user-guide/features/hooks.md): stdin {hook_event_name, tool_name,
// tool_input, session_id, cwd, profile, extra}; extra carries the event's kwargs (pre_llm_call user_message,
// post_llm_call assistant_response, post_tool_call result/duration_ms/tool_call_id, pre_verify final_response).
// Answers: pre_tool_call {"action": "block", "message"} (or exit 2), {"action": "approve", "message"} escalates to
// Hermes' human-approval gate; pre_llm_call {"context"} is appended to the user's turn (it cannot stop the turn, so a
// blocked prompt is answered with the reason as context); pre_verify {"action": "continue", "message"} keeps the
// agent working with the message as a new user turn. Every other event ignores its answer.
import {
  hookEvent,
  id,
  isObject,
  json,
  notice,
  obj,
  outputText,
  parseJson,
  phaseOf,
  readPayload,
  str,
  successOf,
  toolArgs,
} from './shared.js';
import type { ConnectorHooks, HookPhase } from './types.js';

const PHASES: Readonly<Record<string, HookPhase>> = {
  pre_llm_call: 'prompt',
  pre_tool_call: 'pre_tool',
  post_tool_call: 'post_tool',
  post_llm_call: 'response',
  pre_verify: 'response',
  on_session_start: 'session',
  on_session_end: 'session',
  on_session_finalize: 'session',
  on_session_reset: 'session',
  subagent_start: 'session',
  subagent_stop: 'session',
};

/** A user message is a string, or (multimodal turns) a list of content parts. */
function messageText(message: unknown): string | undefined {
  if (!Array.isArray(message)) return str(message);
  const texts = message.flatMap((part: unknown) => {
    const text = obj(part)?.text;
    return typeof text === 'string' ? [text] : [];
  });
  return texts.length > 0 ? texts.join('\n') : undefined;
}

export const hermes: ConnectorHooks = {
  decode(payload) {
    const { p, event } = readPayload(payload, ['hook_event_name']);
    const phase = phaseOf(PHASES, event);
    const extra = obj(p.extra) ?? {};
    const result = phase === 'post_tool' ? extra.result : undefined;
    const parsed = typeof result === 'string' ? parseJson(result) : result;
    return hookEvent({
      event,
      phase,
      session_id: str(p.session_id),
      tool: str(p.tool_name),
      tool_input: toolArgs(p.tool_input),
      tool_output: outputText(result),
      tool_succeeded: isObject(parsed) ? successOf(parsed) : undefined,
      tool_call_id: id(extra.tool_call_id),
      prompt: phase === 'prompt' ? messageText(extra.user_message) : undefined,
      response: str(extra.assistant_response) ?? str(extra.final_response),
      cwd: str(p.cwd),
    });
  },
  render(event, { action, reason }) {
    if (action === 'allow') return { exit_code: 0 };
    if (event.phase === 'prompt') return json({ context: reason });
    if (action === 'alert') return notice({ action, reason });
    if (event.phase === 'pre_tool') return json({ action: action === 'confirm' ? 'approve' : 'block', message: reason });
    if (event.event === 'pre_verify') return json({ action: 'continue', message: reason });
    return notice({ action, reason });
  },
};
