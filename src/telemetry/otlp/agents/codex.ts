// Codex's OpenTelemetry events (docs/config.md "[otel]"): log records whose `event.name` is `codex.<event>`, each
// with `conversation.id` (the session), `model`; `codex.user_prompt` (prompt_length, prompt only with
// log_user_prompt = true), `codex.tool_decision` (tool_name, call_id, decision approved / approved_for_session /
// denied / abort, source), `codex.tool_result` (tool_name, call_id, arguments, duration_ms, success, output),
// `codex.api_request` (attempt, duration_ms, http.response.status_code, error.message) and `codex.sse_event`
// (event.kind; on response.completed the token counts input_token_count, output_token_count, …).
import { flag, number, text, type Attributes } from '../attributes.js';
import type { AgentEventFields, AgentTelemetryMap, EventCategory } from './types.js';

function category(event: string, attrs: Attributes): EventCategory {
  switch (event) {
    case 'user_prompt': return 'prompt';
    case 'tool_decision': return 'tool_decision';
    case 'tool_result': return 'tool_result';
    case 'api_request': return text(attrs, 'error.message') ? 'api_error' : 'api_request';
    case 'sse_event': return text(attrs, 'event.kind') === 'response.completed' ? 'api_request' : 'other';
    default: return 'other';
  }
}

export const codexTelemetry: AgentTelemetryMap = {
  source: 'codex',
  eventPrefix: 'codex.',
  serviceNames: ['codex_cli_rs', 'codex-cli', 'codex'],
  contentKeys: ['prompt', 'arguments', 'output', 'error.message'],
  fields(event: string, attrs: Attributes): AgentEventFields {
    const prompt = text(attrs, 'prompt');
    return {
      category: category(event, attrs),
      session_id: text(attrs, 'conversation.id', 'session.id'),
      tool_invocation_id: text(attrs, 'call_id'),
      tool_name: text(attrs, 'tool_name'),
      decision: text(attrs, 'decision'),
      success: flag(attrs, 'success'),
      model: text(attrs, 'model'),
      input_tokens: number(attrs, 'input_token_count'),
      output_tokens: number(attrs, 'output_token_count'),
      duration_ms: number(attrs, 'duration_ms'),
      prompt_length: number(attrs, 'prompt_length') ?? prompt?.length,
      prompt_text: prompt,
    };
  },
};
