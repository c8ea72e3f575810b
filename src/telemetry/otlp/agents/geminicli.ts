// Gemini CLI's OpenTelemetry events (docs/telemetry.md: `telemetry` in settings.json): log records named
// `gemini_cli.<event>` with `session.id`; `gemini_cli.user_prompt` (prompt_length, prompt_id, prompt only with
// logPrompts), `gemini_cli.tool_call` (function_name, function_args, duration_ms, success, decision
// accept/reject/modify/auto_accept, prompt_id), `gemini_cli.api_request` (model), `gemini_cli.api_response`
// (model, status_code, duration_ms, input_token_count, output_token_count) and `gemini_cli.api_error`.
import { flag, number, text, type Attributes } from '../attributes.js';
import type { AgentEventFields, AgentTelemetryMap, EventCategory } from './types.js';

const CATEGORIES: Record<string, EventCategory> = {
  user_prompt: 'prompt',
  tool_call: 'tool_result',
  api_response: 'api_request',
  api_error: 'api_error',
};

export const geminiCliTelemetry: AgentTelemetryMap = {
  source: 'geminicli',
  eventPrefix: 'gemini_cli.',
  serviceNames: ['gemini-cli'],
  contentKeys: ['prompt', 'function_args', 'request_text', 'response_text', 'error'],
  fields(event: string, attrs: Attributes): AgentEventFields {
    const prompt = text(attrs, 'prompt');
    return {
      category: CATEGORIES[event] ?? 'other',
      session_id: text(attrs, 'session.id'),
      prompt_id: text(attrs, 'prompt_id'),
      tool_invocation_id: text(attrs, 'call_id', 'tool_call_id'),
      tool_name: text(attrs, 'function_name'),
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
