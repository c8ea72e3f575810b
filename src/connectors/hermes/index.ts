// Hermes agent (Nous Research) shell hooks (hooks: block of ~/.hermes/config.yaml).
// Source: Hermes "Event Hooks" docs, https://hermes-agent.nousresearch.com/docs/user-guide/features/hooks
// (NousResearch/hermes-agent website/docs/user-guide/features/hooks.md): stdin {hook_event_name, tool_name,
// tool_input, session_id, cwd, profile, extra}; extra carries the event's kwargs (pre_llm_call user_message,
// post_llm_call assistant_response, post_tool_call result/duration_ms/tool_call_id, pre_verify final_response).
// Answers: pre_tool_call {"action": "block", "message"} (or exit 2), {"action": "approve", "message"} escalates to
// Hermes' human-approval gate; pre_llm_call {"context"} is appended to the user's turn (it cannot stop the turn, so a
// blocked prompt is answered with the reason as context); pre_verify {"action": "continue", "message"} keeps the
// agent working with the message as a new user turn. Every other event ignores its answer.
import { decodedOnly, gate, gateEvents, hooked, type HookAgent, type HookEventSpec } from '../definition.js';
import { exit2, json, notice } from '../native/answers.js';
import { phaseOf, readPayload } from '../native/payload.js';
import { isObject, parseJson } from '../../util/json.js';
import { outputText, successOf, toolArgs } from '../native/tool-data.js';
import { hookEvent, id, obj, str } from '../native/values.js';
import { hermesConfigInstalled, installHermesConfig, removeHermesConfig } from '../setup/hermes-yaml.js';

const EVENTS: Readonly<Record<string, HookEventSpec>> = {
  on_session_start: hooked('session'),
  // Its answer is only appended to the user's turn: a refusal cannot stop the prompt, so it is no gate.
  pre_llm_call: hooked('prompt'),
  pre_tool_call: gate('pre_tool'),
  post_tool_call: hooked('post_tool'),
  post_llm_call: hooked('response'),
  on_session_end: hooked('session'),
  pre_verify: decodedOnly('response'),
  on_session_finalize: decodedOnly('session'),
  on_session_reset: decodedOnly('session'),
  subagent_start: decodedOnly('session'),
  subagent_stop: decodedOnly('session'),
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

const GATES = gateEvents({ events: EVENTS });

export const hermes: HookAgent = {
  kind: 'hook',
  name: 'hermes',
  description: 'Hermes agent hooks',
  telemetry: ['hooks'],
  events: EVENTS,
  decode(payload) {
    const { p, event } = readPayload(payload, ['hook_event_name']);
    const phase = phaseOf(EVENTS, event);
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
  refusal: exit2,
  setup: {
    file: '.hermes/config.yaml',
    install: (text, events, target) => installHermesConfig(text, events, target, GATES),
    remove: removeHermesConfig,
    installed: hermesConfigInstalled,
    notes: () => ['Hermes asks once per hook before running it (or set hooks_auto_accept: true in config.yaml).'],
  },
};
