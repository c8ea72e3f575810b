// The audit trail and its alerts: append an event, list recent alerts with their dispositions, and preview or
// apply a disposition (audit/dispositions.ts), each change an audit row committed with it.
import Type from 'typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ALERT_SEVERITIES, DISPOSITIONS } from '../../audit/dispositions.js';
import { AUDIT_SEVERITIES } from '../../audit/events.js';
import { WardenError } from '../../errors.js';
import { oneOf } from '../../config/schema.js';
import { callerClient, redactCallerData } from '../caller-data.js';
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

const Disposition = oneOf(DISPOSITIONS, { description: '`acknowledged` (seen, being handled), `false_positive` or `resolved`.' });

const DispositionBody = Type.Object(
  {
    alert_ids: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: ALERTS_MAX_LIMIT, description: 'The alerts\' `id`s (as `GET /alerts` lists them).' })),
    filter: Type.Optional(Type.Object({
      severity: Type.Optional(Type.Array(oneOf(ALERT_SEVERITIES), { minItems: 1, maxItems: 4 })),
      action: Type.Optional(Text(200)),
      connector: Type.Optional(Text(64)),
      since: Type.Optional(Type.String({ format: 'date-time' })),
      until: Type.Optional(Type.String({ format: 'date-time' })),
      disposition: Type.Optional(oneOf([...DISPOSITIONS, 'none'] as const, { description: 'Only alerts with this disposition now; `none`: not yet disposed of.' })),
    }, { additionalProperties: false, description: 'Every alert matching all the given conditions.' })),
    disposition: Disposition,
    note: Type.Optional(Text(1024)),
    apply: Type.Optional(Type.Boolean({ default: false, description: '`false` (the default): only answer what would change.' })),
  },
  { additionalProperties: false, description: 'Exactly one of `alert_ids` and `filter`.' },
);

const Change = Type.Object({
  alert_id: Type.String(), severity: Type.String(), action: Type.String(), timestamp: Type.String(), previous: Type.Optional(Disposition),
});
/** An alert as GET /alerts lists it: the stored event and, once someone disposed of it, that disposition. */
const AlertRow = Type.Object({
  ...StoredEvent.properties,
  disposition: Type.Optional(Type.Object({
    status: Disposition, note: Type.String(), actor: Type.Optional(Type.String()), updated_at: Type.String(),
  })),
});

const DispositionAnswer = Type.Object({
  applied: Type.Boolean(),
  disposition: Disposition,
  matched: Type.Integer(),
  changes: Type.Array(Change),
  unchanged: Type.Array(Type.String()),
  not_found: Type.Array(Type.String()),
});

export function auditRoutes(fastify: FastifyInstance, ctx: GatewayContext): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post('/audit/event', { schema: { body: AuditEventBody, response: { 200: AppendedBody } } }, async (request) => {
    // Answered only once the row is committed: "ok" means recorded.
    const { target, details, structured } = request.body;
    await ctx.audit.append({ ...request.body, ...redactCallerData(ctx, { target, details, structured }) });
    return { status: 'ok' as const };
  });
  app.get('/alerts', { schema: { querystring: AlertsQuery, response: { 200: Type.Object({ alerts: Type.Array(AlertRow) }) } } }, async (request) => {
    const limit = Math.min(request.query.limit || ALERTS_DEFAULT_LIMIT, ALERTS_MAX_LIMIT);
    return { alerts: await ctx.audit.recentAlerts(limit) };
  });
  app.post('/api/v1/alerts/disposition', { schema: { body: DispositionBody, response: { 200: DispositionAnswer } } }, async (request) => {
    const { alert_ids: alertIds, filter, disposition, note, apply } = request.body;
    if ((alertIds === undefined) === (filter === undefined)) {
      throw new WardenError('WARDEN_ERR_AUDIT_DISPOSITION_TARGET', 'name the alerts with exactly one of alert_ids and filter', { statusCode: 400 });
    }
    const ask = {
      alertIds, filter, disposition, note: note ? redactCallerData(ctx, note) : '', actor: callerClient(request),
    };
    const plan = apply ? ctx.audit.applyDisposition(ask) : ctx.audit.previewDisposition(ask);
    return { applied: apply === true, disposition, ...plan };
  });
}
