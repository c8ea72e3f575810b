// GET /api/v1/correlation/{graph,explain,timeline,conflicts} (spec "Correlation ledger"): each takes exactly one
// identity anchor and a page (opaque `cursor`, `limit` up to 500); the ledger (telemetry/correlation/) does the rest.
import Type, { type TSchema } from 'typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { anchorOf, ANCHOR_KEYS } from '../../telemetry/correlation/anchor.js';
import type { TelemetryContext } from '../../telemetry/context.js';
import { TELEMETRY_LIMITS } from '../../telemetry/limits.js';

const Id = (description: string) => Type.Optional(Type.String({ minLength: 1, maxLength: 512, description }));

const CorrelationQuery = Type.Object({
  record_id: Id('an audit, egress or OTLP record id'),
  semantic_event_id: Id('one tool call as every source saw it (`sem_…`, from an earlier answer)'),
  session_id: Id('the agent session'),
  trace_id: Id('an OTLP trace id (hex)'),
  tool_invocation_id: Id("the agent's tool call id (Claude Code tool_use_id, Codex call_id)"),
  evaluation_id: Id('not an identity anchor: refused with 400'),
  cursor: Type.Optional(Type.String({ maxLength: 1024, description: 'next_cursor of the previous page' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: TELEMETRY_LIMITS.correlationPageMax, description: `items per page (default ${TELEMETRY_LIMITS.correlationPageDefault})` })),
}, { description: `exactly one of ${ANCHOR_KEYS.join(', ')}` });

const Page = (description: string, extra: Record<string, TSchema> = {}) => Type.Object({
  items: Type.Array(Type.Record(Type.String(), Type.Unknown()), { description }),
  next_cursor: Type.Optional(Type.String({ description: 'pass as `cursor` for the next page; absent on the last page' })),
  ...extra,
}, { additionalProperties: true });

const ANSWERS = {
  timeline: Page("the anchor's records (hook and inspect verdicts, proxy calls, egress, OTLP events and spans) in time order"),
  graph: Page('the page\'s records as nodes', { edges: Type.Array(Type.Record(Type.String(), Type.Unknown()), { description: 'same_tool_call and in_span links between them' }) }),
  conflicts: Page('tool calls the agent\'s telemetry says ran with no hook verdict (no_hook_verdict) or after a block (ran_after_block)'),
  explain: Type.Object({}, { additionalProperties: true, description: 'counts per kind, hook bypasses, runs after a block, and the first page of the timeline (records)' }),
};

export function correlationRoutes(fastify: FastifyInstance, telemetry: TelemetryContext): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { ledger } = telemetry;
  const schema = (route: keyof typeof ANSWERS) => ({ querystring: CorrelationQuery, response: { 200: ANSWERS[route] } });
  app.get('/api/v1/correlation/timeline', { schema: schema('timeline') }, async (request) => ledger.timeline(anchorOf(request.query), request.query.cursor, request.query.limit));
  app.get('/api/v1/correlation/graph', { schema: schema('graph') }, async (request) => ledger.graph(anchorOf(request.query), request.query.cursor, request.query.limit));
  app.get('/api/v1/correlation/conflicts', { schema: schema('conflicts') }, async (request) => ledger.conflicts(anchorOf(request.query), request.query.cursor, request.query.limit));
  app.get('/api/v1/correlation/explain', { schema: schema('explain') }, async (request) => ledger.explain(anchorOf(request.query), request.query.cursor, request.query.limit));
}
