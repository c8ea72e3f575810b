// The sidecar's network egress records (spec document 1, "Scanning, egress records, assets"): `GET` lists the
// persisted rows (the sandbox egress proxy's decisions, the guardrail proxy's forwards and refusals, the
// interceptors' reports) newest first under the spec's filters; `POST` appends one observed egress event to the
// audit trail. A posted record is an observation, never an allow or block decision: nothing is enforced from it.
import Type from 'typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { GatewayContext } from '../context.js';
import { SIDECAR_LIMITS } from '../limits.js';

const Id = (description: string) => Type.Optional(Type.String({ minLength: 1, maxLength: 256, description }));

const ListQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 0, description: `records to return, newest first; 0 or absent: ${SIDECAR_LIMITS.egressPageDefault}; at most ${SIDECAR_LIMITS.egressPageMax}` })),
    hostname: Type.Optional(Type.String({ minLength: 1, maxLength: 253, description: 'exact destination host' })),
    session_id: Id('session (for the sandbox egress proxy: `<sandbox>#<session>`)'),
    agent_id: Id('agent (for the sandbox egress proxy: the sandbox name)'),
    root_agent_id: Id('root agent'),
    user_id: Id('user'),
    blocked: Type.Optional(Type.Boolean({ description: 'only refused (`true`) or only allowed (`false`) egress' })),
    since: Type.Optional(Type.String({ format: 'date-time', description: 'RFC 3339: records at or after this time' })),
  },
  { additionalProperties: false },
);

const Text = (maxLength: number) => Type.Optional(Type.String({ maxLength }));

const RecordBody = Type.Object(
  {
    hostname: Type.String({ minLength: 1, maxLength: 253, pattern: '^[^\\s/]+$', description: 'destination host' }),
    timestamp: Type.Optional(Type.String({ format: 'date-time', description: 'when it was observed (default: now)' })),
    path: Text(4096),
    method: Type.Optional(Type.String({ minLength: 1, maxLength: 32, pattern: '^[A-Za-z]+$' })),
    session_id: Text(256),
    agent_id: Text(256),
    root_agent_id: Text(256),
    user_id: Text(256),
    blocked: Type.Optional(Type.Boolean({ description: 'whether the observer saw it refused (default false)' })),
    decision: Text(64),
    branch: Text(64),
    reason: Text(1024),
    body_shape: Text(256),
    looks_like_llm: Type.Optional(Type.Boolean()),
    source: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z0-9._-]+$', description: 'who observed it (default `api`)' })),
    details: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { additionalProperties: false },
);

const EgressRecord = Type.Object(
  {
    id: Type.String(), timestamp: Type.String(), hostname: Type.String(), blocked: Type.Boolean(), source: Type.String(),
    path: Type.Optional(Type.String()), method: Type.Optional(Type.String()), session_id: Type.Optional(Type.String()),
    agent_id: Type.Optional(Type.String()), root_agent_id: Type.Optional(Type.String()), user_id: Type.Optional(Type.String()),
    decision: Type.Optional(Type.String()), branch: Type.Optional(Type.String()), reason: Type.Optional(Type.String()),
    body_shape: Type.Optional(Type.String()), looks_like_llm: Type.Optional(Type.Boolean()), details: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
);

const ListAnswer = Type.Object({ records: Type.Array(EgressRecord), count: Type.Integer() });
const Appended = Type.Object({ status: Type.Literal('ok') });

export function networkEgressRoutes(fastify: FastifyInstance, ctx: GatewayContext): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/api/v1/network-egress', { schema: { querystring: ListQuery, response: { 200: ListAnswer } } }, async (request) => {
    const { limit, since, ...filters } = request.query;
    const records = await ctx.audit.egress({
      ...filters,
      limit: Math.min(limit || SIDECAR_LIMITS.egressPageDefault, SIDECAR_LIMITS.egressPageMax),
      // Rows are stored in UTC ISO form; an offset in the query is brought to it.
      ...(since !== undefined ? { since: new Date(since).toISOString() } : {}),
    });
    return { records: records as never[], count: records.length };
  });
  app.post('/api/v1/network-egress', { bodyLimit: SIDECAR_LIMITS.egressRecordBytes, schema: { body: RecordBody, response: { 200: Appended } } }, async (request) => {
    const { blocked, source, timestamp, ...record } = request.body;
    // Answered once the row is committed: "ok" means recorded.
    await ctx.audit.appendEgress({
      ...record, blocked: blocked ?? false, source: source ?? 'api',
      ...(timestamp !== undefined ? { timestamp: new Date(timestamp).toISOString() } : {}),
    });
    return { status: 'ok' as const };
  });
}
