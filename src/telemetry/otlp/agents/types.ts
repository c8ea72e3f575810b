// The contract between the OTLP receiver and one agent's telemetry: which events are the agent's (their name
// prefix, its `service.name`), how its event names and attributes map to Warden's normalised agent event, and
// which attributes carry content (prompt text, tool arguments and output) that is never stored as an attribute.
import type { Attributes } from '../attributes.js';

export type EventCategory = 'prompt' | 'tool_decision' | 'tool_result' | 'api_request' | 'api_error' | 'other';

export interface AgentEventFields {
  category: EventCategory;
  session_id?: string;
  prompt_id?: string;
  /** The agent's id of one tool call (Claude Code's tool_use_id, Codex's call_id), shared with its hook payloads. */
  tool_invocation_id?: string;
  tool_name?: string;
  decision?: string;
  success?: boolean;
  model?: string;
  input_tokens?: number;
  output_tokens?: number;
  cost_usd?: number;
  duration_ms?: number;
  prompt_length?: number;
  /** The prompt as the agent sent it (only when the agent logs prompts); hashed, stored only when configured. */
  prompt_text?: string;
}

export interface AgentTelemetryMap {
  /** The connector name the records are filed under. */
  source: string;
  /** Event names start with it (`claude_code.`). */
  eventPrefix: string;
  /** Resource `service.name` values the agent's SDK sets. */
  serviceNames: readonly string[];
  /** Attributes holding content: read for the normalised fields, never kept in the stored attributes. */
  contentKeys: readonly string[];
  /** `event` without the prefix (`tool_result`). */
  fields(event: string, attrs: Attributes): AgentEventFields;
}
