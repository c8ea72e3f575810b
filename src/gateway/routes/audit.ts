import Type from 'typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { AUDIT_SEVERITIES } from '../../audit/events.js';
import { oneOf } from '../../config/schema.js';
import { redactCallerData } from '../caller-data.js';
import type { GatewayContext } from '../context.js';
import { SIDECAR_LIMITS } from '../limits.js';
import { StatusOk } from './answers.js';

const Text = (maxLength: number) => Type.String({ maxLength });

export const AuditEventBody = Type.Object(
  {
    action: Type.String({ minLength: 1, maxLength: 200 }),
    timestamp: Type.Optional(Type.String({ format: 'date-time' })),
    target: Type.Optional(Text(4096)),
    actor: Type.Optional(Text(512)),
    severity: Type.Optional(oneOf(AUDIT_SEVERITIES)),
    details: Type.Optional(Text(65536)),
    structured: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    connector: Type.Optional(Text(64)),
    session_id: Type.Optional(Text(256)),
    trace_id: Type.Optional(Text(256)),
    evaluation_id: Type.Optional(Text(256)),
  },
  { additionalProperties: false },
);

const AppendedBody = StatusOk;

/** A stored audit event as GET /alerts answers it. */
const StoredEvent = Type.Object({
  id: Type.String(),
  timestamp: Type.String(),
  action: Type.String(),
  severity: Type.String(),
  target: Type.Optional(Type.String()),
  actor: Type.Optional(Type.String()),
  details: Type.Optional(Type.String()),
  structured: Type.Optional(Type.Unknown()),
  connector: Type.Optional(Type.String()),
  session_id: Type.Optional(Type.String()),
  trace_id: Type.Optional(Type.String()),
  evaluation_id: Type.Optional(Type.String()),
  schema: Type.Optional(Type.String()),
});

export const ALERTS_DEFAULT_LIMIT = SIDECAR_LIMITS.alertsPageDefault;
export const ALERTS_MAX_LIMIT = SIDECAR_LIMITS.alertsPageMax;

const AlertsQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 0, description: `rows to return; 0 or absent: ${ALERTS_DEFAULT_LIMIT}; at most ${ALERTS_MAX_LIMIT}` })),
});

export function auditRoutes(fastify: FastifyInstance, ctx: GatewayContext): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post('/audit/event', { schema: { body: AuditEventBody, response: { 200: AppendedBody } } }, async (request) => {
    // Answered only once the row is committed: "ok" means recorded.
    const { target, details, structured } = request.body;
    await ctx.audit.append({ ...request.body, ...redactCallerData(ctx, { target, details, structured }) });
    return { status: 'ok' as const };
  });
  app.get('/alerts', { schema: { querystring: AlertsQuery, response: { 200: Type.Object({ alerts: Type.Array(StoredEvent) }) } } }, async (request) => {
    const limit = Math.min(request.query.limit || ALERTS_DEFAULT_LIMIT, ALERTS_MAX_LIMIT);
    return { alerts: await ctx.audit.recentAlerts(limit) };
  });
}
