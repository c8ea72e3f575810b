// GET /api/v1/correlation/{graph,explain,timeline,conflicts} (spec "Correlation ledger"): each takes exactly one
// identity anchor and a page (opaque `cursor`, `limit` up to 500); the ledger (telemetry/correlation/) does the rest.
import Type from 'typebox';
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

export function correlationRoutes(fastify: FastifyInstance, telemetry: TelemetryContext): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { ledger } = telemetry;
  const schema = { querystring: CorrelationQuery };
  app.get('/api/v1/correlation/timeline', { schema }, async (request) => ledger.timeline(anchorOf(request.query), request.query.cursor, request.query.limit));
  app.get('/api/v1/correlation/graph', { schema }, async (request) => ledger.graph(anchorOf(request.query), request.query.cursor, request.query.limit));
  app.get('/api/v1/correlation/conflicts', { schema }, async (request) => ledger.conflicts(anchorOf(request.query), request.query.cursor, request.query.limit));
  app.get('/api/v1/correlation/explain', { schema }, async (request) => ledger.explain(anchorOf(request.query), request.query.cursor, request.query.limit));
}
