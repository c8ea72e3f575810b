// From a decoded OTLP request to Warden's records (records.ts): each log record becomes an agent event mapped
// by its agent's definition (agents/), each span a span summary, each metric a metric summary. Ids arrive as
// bytes (protobuf) or hex text (JSON); a record whose trace or span id is present but malformed is rejected
// (counted in the OTLP partial-success answer), the rest of the request is kept.
import { createHash } from 'node:crypto';
import { isoNow } from '../../util/iso-now.js';
import { uuidv7 } from '../../util/uuidv7.js';
import type { AgentEventRecord, MetricRecord, SpanRecord, TelemetryRecord } from '../records.js';
import { anyValueText, attributesOf, text, type Attributes } from './attributes.js';
import { telemetryOfEvent, telemetryOfService, telemetryOfSource } from './agents/index.js';
import type { AgentEventFields } from './agents/types.js';
import type { Signal } from './proto.js';

export interface NormaliseOptions {
  /** The authenticated or declared source; undefined: detected per record. */
  source?: string;
  /** Keep prompt text (telemetry.store_prompt_text). */
  storePromptText: boolean;
  /** Sources whose records this request may not carry (they hold a scoped credential the request did not use). */
  refusedSources?: ReadonlySet<string>;
}

export interface Normalised {
  records: TelemetryRecord[];
  rejected: number;
  reasons: Set<string>;
}

const HEX_ID = /^[0-9a-f]*$/;

/** An id as lowercase hex: undefined when absent or all zero, null when malformed. */
function idOf(value: unknown, bytes: number): string | undefined | null {
  if (value === undefined || value === null || value === '') return undefined;
  let hex: string;
  if (typeof value === 'string') {
    hex = value.toLowerCase();
    if (!HEX_ID.test(hex)) return null;
  } else if (value instanceof Uint8Array) {
    if (value.length === 0) return undefined;
    hex = Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex');
  } else return null;
  if (hex.length !== bytes * 2) return null;
  return /^0+$/.test(hex) ? undefined : hex;
}

function isoOfNanos(value: unknown, fallback: string): string {
  if (value === undefined || value === null) return fallback;
  try {
    const nanos = BigInt(typeof value === 'number' ? Math.trunc(value) : String(value));
    if (nanos <= 0n) return fallback;
    const date = new Date(Number(nanos / 1_000_000n));
    return Number.isNaN(date.getTime()) ? fallback : date.toISOString();
  } catch {
    return fallback;
  }
}

function durationMs(start: unknown, end: unknown): number | undefined {
  try {
    const d = BigInt(String(end ?? 0)) - BigInt(String(start ?? 0));
    return d > 0n ? Number(d) / 1e6 : undefined;
  } catch {
    return undefined;
  }
}

const list = (value: unknown): Record<string, unknown>[] => (Array.isArray(value) ? value.filter((v) => typeof v === 'object' && v !== null) : []);

/** The attributes without content keys (their size is bounded where they are stored: store/store.ts). */
function keptAttributes(attrs: Attributes, contentKeys: readonly string[]): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const k in attrs) if (!contentKeys.includes(k)) kept[k] = attrs[k];
  return kept;
}

/** The event's full name: the first candidate naming a known agent, else the first one given. */
function eventNameOf(record: Record<string, unknown>, attrs: Attributes, prefixFor: string | undefined): string {
  const candidates = [record.eventName, attrs['event.name'], anyValueText(record.body)].filter((c): c is string => typeof c === 'string' && c !== '');
  const known = candidates.find((c) => telemetryOfEvent(c));
  if (known) return known;
  // Claude Code's `event.name` is the bare name (`tool_result`) beside the prefixed body.
  if (prefixFor && candidates[0] && !candidates[0].includes('.')) return `${prefixFor}${candidates[0]}`;
  return candidates[0] ?? 'log';
}

const dropUndefined = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

export function normalise(signal: Signal, request: Record<string, unknown>, options: NormaliseOptions): Normalised {
  const out: Normalised = { records: [], rejected: 0, reasons: new Set() };
  const receivedAt = isoNow();
  const reject = (reason: string, count = 1) => {
    out.rejected += count;
    out.reasons.add(reason);
  };
  const resources = list(request[signal === 'logs' ? 'resourceLogs' : signal === 'traces' ? 'resourceSpans' : 'resourceMetrics']);
  for (const resource of resources) {
    const resourceAttrs = attributesOf((resource.resource as { attributes?: unknown } | undefined)?.attributes);
    const byService = telemetryOfService(text(resourceAttrs, 'service.name'));
    const scopes = list(resource[signal === 'logs' ? 'scopeLogs' : signal === 'traces' ? 'scopeSpans' : 'scopeMetrics']);
    for (const scope of scopes) {
      if (signal === 'logs') for (const r of list(scope.logRecords)) logRecord(r, resourceAttrs, byService?.source);
      else if (signal === 'traces') for (const s of list(scope.spans)) span(s, resourceAttrs, byService?.source);
      else for (const m of list(scope.metrics)) metric(m, resourceAttrs, byService?.source);
    }
  }
  return out;

  function sourceFor(detected: string | undefined): string | null {
    const source = options.source ?? detected ?? 'unknown';
    if (options.refusedSources?.has(source)) return null;
    return source;
  }

  function logRecord(r: Record<string, unknown>, resourceAttrs: Attributes, serviceSource: string | undefined): void {
    const traceId = idOf(r.traceId, 16);
    const spanId = idOf(r.spanId, 8);
    if (traceId === null || spanId === null) return reject('invalid trace or span id');
    const attrs = { ...resourceAttrs, ...attributesOf(r.attributes) };
    const declared = telemetryOfSource(options.source ?? serviceSource);
    const name = eventNameOf(r, attrs, declared?.eventPrefix);
    const agent = telemetryOfEvent(name) ?? declared;
    const source = sourceFor(agent?.source ?? serviceSource);
    if (source === null) return reject('this source must send with its scoped credential');
    const fields: AgentEventFields = agent ? agent.fields(name.slice(agent.eventPrefix.length), attrs) : { category: 'other', session_id: text(attrs, 'session.id') };
    const { prompt_text: promptText, ...mapped } = fields;
    const event: AgentEventRecord = dropUndefined({
      record_type: 'agent_event' as const,
      id: uuidv7(),
      source,
      received_at: receivedAt,
      timestamp: isoOfNanos(r.timeUnixNano ?? r.observedTimeUnixNano, receivedAt),
      event_name: name,
      ...mapped,
      trace_id: traceId,
      span_id: spanId,
      prompt_sha256: promptText === undefined ? undefined : createHash('sha256').update(promptText).digest('hex'),
      prompt_text: options.storePromptText ? promptText : undefined,
      attributes: keptAttributes(attrs, agent?.contentKeys ?? ['prompt']),
    });
    out.records.push(event);
  }

  function span(s: Record<string, unknown>, resourceAttrs: Attributes, serviceSource: string | undefined): void {
    const traceId = idOf(s.traceId, 16);
    const spanId = idOf(s.spanId, 8);
    const parent = idOf(s.parentSpanId, 8);
    if (!traceId || !spanId || parent === null) return reject('span without a valid trace and span id');
    const source = sourceFor(serviceSource);
    if (source === null) return reject('this source must send with its scoped credential');
    const attrs = { ...resourceAttrs, ...attributesOf(s.attributes) };
    const record: SpanRecord = dropUndefined({
      record_type: 'span' as const,
      id: uuidv7(),
      source,
      received_at: receivedAt,
      timestamp: isoOfNanos(s.startTimeUnixNano, receivedAt),
      trace_id: traceId,
      span_id: spanId,
      parent_span_id: parent,
      name: typeof s.name === 'string' && s.name !== '' ? s.name : 'span',
      duration_ms: durationMs(s.startTimeUnixNano, s.endTimeUnixNano),
      status_code: typeof (s.status as { code?: unknown } | undefined)?.code === 'number' ? (s.status as { code: number }).code : undefined,
      session_id: text(attrs, 'session.id', 'conversation.id'),
      tool_invocation_id: text(attrs, 'tool_use_id', 'call_id', 'gen_ai.tool.call.id'),
    });
    out.records.push(record);
  }

  function metric(m: Record<string, unknown>, resourceAttrs: Attributes, serviceSource: string | undefined): void {
    const dataType = ['gauge', 'sum', 'histogram', 'exponentialHistogram', 'summary'].find((k) => m[k] !== undefined && m[k] !== null);
    const points = dataType ? list((m[dataType] as { dataPoints?: unknown }).dataPoints) : [];
    if (typeof m.name !== 'string' || m.name === '') return reject('metric without a name', Math.max(points.length, 1));
    const source = sourceFor(serviceSource);
    if (source === null) return reject('this source must send with its scoped credential', Math.max(points.length, 1));
    let sum: number | undefined;
    let latest: unknown;
    let sessionId = text(resourceAttrs, 'session.id');
    for (const p of points) {
      const v = p.asDouble ?? p.asInt ?? p.sum;
      const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN;
      if (Number.isFinite(n)) sum = (sum ?? 0) + n;
      latest = p.timeUnixNano ?? latest;
      sessionId ??= text(attributesOf(p.attributes), 'session.id', 'conversation.id');
    }
    const record: MetricRecord = dropUndefined({
      record_type: 'metric' as const,
      id: uuidv7(),
      source,
      received_at: receivedAt,
      timestamp: isoOfNanos(latest, receivedAt),
      name: m.name,
      unit: typeof m.unit === 'string' && m.unit !== '' ? m.unit : undefined,
      data_type: dataType === 'exponentialHistogram' ? 'exponential_histogram' : dataType ?? 'none',
      points: points.length,
      value_sum: sum,
      session_id: sessionId,
    });
    out.records.push(record);
  }
}
