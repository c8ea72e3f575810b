// The proxy's own routes: health, the model list, the provider registry and egress event ingestion.
import Type from 'typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { oneOf } from '../../config/schema.js';
import type { ProxyContext } from '../context.js';
import '../../util/route-config.js';

/** How an interceptor classified an outbound request (documented in docs/proxy.md). */
export const EGRESS_BRANCHES = ['provider', 'shape', 'passthrough', 'direct'] as const;
/** What was done with it. */
export const EGRESS_DECISIONS = ['allow', 'alert', 'block', 'observe'] as const;
export const EGRESS_BODY_LIMIT = 8 * 1024;

/** The control routes taking POST: every other POST is model traffic (chat or provider passthrough). */
const RELOAD_PATH = '/v1/config/providers/reload';
const EGRESS_EVENTS_PATH = '/v1/events/egress';
const CONTROL_POSTS = new Set([RELOAD_PATH, EGRESS_EVENTS_PATH]);

/**
 * Whether the proxy serves `method url` as model traffic: a POST that is not a control route. For a caller that
 * adds the gateway token to requests it relays (the sandbox egress proxy), so the token only ever opens model
 * routes. The path is compared decoded, in any case and with slashes collapsed: a spelling the router might
 * still match to a control route is never taken for model traffic.
 */
export function isModelCall(method: string, url: string): boolean {
  if (method.toUpperCase() !== 'POST') return false;
  let path = url.split('?')[0]!;
  try {
    path = decodeURIComponent(path);
  } catch {
    return false;
  }
  path = path.toLowerCase().replace(/\/+/g, '/').replace(/(.)\/$/, '$1');
  return !CONTROL_POSTS.has(path);
}

const Short = (max: number) => Type.String({ maxLength: max });
const EgressEvent = Type.Object(
  {
    target_host: Type.String({ minLength: 1, maxLength: 255 }),
    target_path: Type.Optional(Short(2048)),
    body_shape: Type.Optional(Short(256)),
    looks_like_llm: Type.Optional(Type.Boolean()),
    branch: oneOf(EGRESS_BRANCHES),
    decision: oneOf(EGRESS_DECISIONS),
    reason: Type.Optional(Short(1024)),
    // Sent by some interceptors; always replaced by `ts` (spec "Events" 5).
    source: Type.Optional(Short(64)),
  },
  { additionalProperties: false },
);

export function controlRoutes(fastify: FastifyInstance, ctx: ProxyContext): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  // Open without the proxy key (declared here, read by the auth hook in server.ts): liveness and the registry.
  app.get('/health', { config: { auth: 'public' } }, async () => ({ status: 'ok', mode: ctx.config.guardrail.mode, providers: ctx.registry.list().providers.length }));

  app.get('/v1/models', async () => ({
    object: 'list',
    data: ctx.config.llm.models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'warden' })),
  }));

  // GET also answers HEAD (Fastify exposeHeadRoutes).
  app.get('/v1/config/providers', { config: { auth: 'public' } }, async () => {
    const { providers, status } = ctx.registry.list();
    return { providers, ...status };
  });

  app.post(RELOAD_PATH, async (_request, reply) => {
    const result = ctx.registry.reload(ctx.readConfig);
    if (!result.ok) return reply.code(422).send({ error: { message: `reload refused, registry unchanged: ${result.error}`, type: 'invalid_request_error' } });
    const { providers, status } = ctx.registry.list();
    return { status: 'reloaded', providers: providers.length, loaded_at: status.loaded_at };
  });

  const jsonOnly = (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    if (/^application\/json\b/i.test(request.headers['content-type'] ?? '')) return done();
    void reply.code(415).send({ error: { message: 'egress events must be sent as application/json', type: 'invalid_request_error' } });
  };
  app.post(EGRESS_EVENTS_PATH, { bodyLimit: EGRESS_BODY_LIMIT, schema: { body: EgressEvent }, onRequest: jsonOnly }, async (request, reply) => {
    const event = request.body;
    await ctx.audit.appendEgress({
      hostname: event.target_host,
      path: event.target_path,
      body_shape: event.body_shape,
      looks_like_llm: event.looks_like_llm,
      branch: event.branch,
      decision: event.decision,
      reason: event.reason,
      blocked: event.decision === 'block',
      source: 'ts',
    });
    return reply.code(204).send();
  });
}
