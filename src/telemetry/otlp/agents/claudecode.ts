// Claude Code's OpenTelemetry events (docs "Monitoring usage": CLAUDE_CODE_ENABLE_TELEMETRY=1, logs exporter
// otlp): log records named `claude_code.<event>` (the body, and `event.name` without the prefix), every one with
// `session.id`; `claude_code.user_prompt` (prompt_length, prompt only with OTEL_LOG_USER_PROMPTS=1, prompt.id),
// `claude_code.tool_decision` (tool_name, decision accept/reject, source), `claude_code.tool_result` (tool_name,
// success, duration_ms, decision, tool_parameters, and tool_use_id where the version sends it),
// `claude_code.api_request` (model, cost_usd, duration_ms, input_tokens, output_tokens, cache tokens) and
// `claude_code.api_error` (model, error, status_code, duration_ms).
import { flag, number, text, type Attributes } from '../attributes.js';
import type { AgentEventFields, AgentTelemetryMap, EventCategory } from './types.js';

const CATEGORIES: Record<string, EventCategory> = {
  user_prompt: 'prompt',
  tool_decision: 'tool_decision',
  tool_result: 'tool_result',
  api_request: 'api_request',
  api_error: 'api_error',
};

export const claudeCodeTelemetry: AgentTelemetryMap = {
  source: 'claudecode',
  eventPrefix: 'claude_code.',
  serviceNames: ['claude-code'],
  contentKeys: ['prompt', 'tool_parameters', 'tool_input', 'error', 'body'],
  fields(event: string, attrs: Attributes): AgentEventFields {
    const prompt = text(attrs, 'prompt');
    return {
      category: CATEGORIES[event] ?? 'other',
      session_id: text(attrs, 'session.id'),
      prompt_id: text(attrs, 'prompt.id', 'prompt_id'),
      tool_invocation_id: text(attrs, 'tool_use_id', 'tool_use.id'),
      tool_name: text(attrs, 'tool_name'),
      decision: text(attrs, 'decision'),
      success: flag(attrs, 'success'),
      model: text(attrs, 'model'),
      input_tokens: number(attrs, 'input_tokens'),
      output_tokens: number(attrs, 'output_tokens'),
      cost_usd: number(attrs, 'cost_usd'),
      duration_ms: number(attrs, 'duration_ms'),
      prompt_length: number(attrs, 'prompt_length') ?? prompt?.length,
      prompt_text: prompt,
    };
  },
};
