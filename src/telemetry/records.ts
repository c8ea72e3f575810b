// The normalised records the OTLP receiver keeps (store/) and hands to its `onRecord` callback: agent events
// with their identity anchors, span summaries and metric summaries. Prompt text is never in a record unless
// `telemetry.store_prompt_text` is on; its length and SHA-256 always are.
import type { EventCategory } from './otlp/agents/types.js';

interface Common {
  /** uuidv7, unique across the three kinds. */
  id: string;
  /** The connector the record came from (authenticated scoped source, declared source, or detected agent). */
  source: string;
  received_at: string;
  /** When it happened, by the agent's clock (RFC 3339); received_at when the agent sent no time. */
  timestamp: string;
  session_id?: string;
  trace_id?: string;
  span_id?: string;
}

export interface AgentEventRecord extends Common {
  record_type: 'agent_event';
  /** Full native name (`claude_code.tool_result`). */
  event_name: string;
  category: EventCategory;
  prompt_id?: string;
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
  prompt_sha256?: string;
  prompt_text?: string;
  /** The record's attributes without the agent's content keys. */
  attributes: Record<string, unknown>;
}

export interface SpanRecord extends Common {
  record_type: 'span';
  trace_id: string;
  span_id: string;
  parent_span_id?: string;
  name: string;
  duration_ms?: number;
  /** OTLP status code: 0 unset, 1 ok, 2 error. */
  status_code?: number;
  tool_invocation_id?: string;
}

export interface MetricRecord extends Common {
  record_type: 'metric';
  name: string;
  unit?: string;
  /** gauge, sum, histogram, exponential_histogram or summary. */
  data_type: string;
  points: number;
  /** Sum of the points' values (number points) or of their `sum` (histograms, summaries). */
  value_sum?: number;
}

export type TelemetryRecord = AgentEventRecord | SpanRecord | MetricRecord;
