// The guardrail proxy listener on guardrail.port: agents use it as their LLM base URL. Authentication first
// (spec "Guardrail proxy" 1-6), then the control routes or the inspected model traffic. Every error is
// answered in the error shape of the provider the path belongs to, so SDKs surface it properly.
import Fastify, { type FastifyBaseLogger, type FastifyError, type FastifyInstance, type FastifyRequest } from 'fastify';
import type { ProxyContext } from './context.js';
import { AuthFailureTally } from './auth-failures.js';
import { redactIp, redactUserAgent } from './client-redaction.js';
import { formatForPath } from './formats/index.js';
import { controlRoutes } from './routes/control.js';
import { InFlight } from './in-flight.js';
import { PROXY_BODY_LIMIT, proxiedRoutes } from './routes/proxied.js';
import { capConnectionsPerIp, slowClientTimeouts } from '../util/connection-limits.js';
import { PROXY_LIMITS } from './limits.js';
import '../util/route-config.js';
import { metricsRoute } from '../telemetry/metrics-route.js';

const DRAIN_MS = PROXY_LIMITS.drainMs;

const errorBodyFor = (request: FastifyRequest, status: number, message: string) =>
  formatForPath(request.url.split('?')[0]!).errorBody(status, message);

export async function buildProxy(ctx: ProxyContext, logger: FastifyBaseLogger): Promise<FastifyInstance> {
  // No per-request child logger (a cost on every model call); what the proxy logs goes through `logger`.
  const app = Fastify({
    logger: false,
    return503OnClosing: true,
    bodyLimit: PROXY_BODY_LIMIT,
    ajv: { customOptions: { removeAdditional: false } }, // unknown fields are errors, not silently dropped
    ...slowClientTimeouts(),
  });
  capConnectionsPerIp(app.server);

  const refusals = new AuthFailureTally((event) => {
    // Written from a timer: a failure is logged (and reaches the audit health), never thrown.
    try {
      void ctx.audit.append(event);
    } catch (err) {
      logger.error({ err: (err as Error).message }, 'refusal tally not recorded');
    }
  });
  app.addHook('onClose', async () => refusals.flush());
  app.addHook('onRequest', (request, reply, done) => {
    // A route opens itself with `config.auth: 'public'` (util/route-config.ts); every other one needs the key.
    if (request.routeOptions.config.auth === 'public') return done();
    const result = ctx.auth.check(request.headers, request.ip);
    if (result.ok) return done();
    // Error telemetry without identifying data: a /24 (or /48) and the client's product token.
    const client = { client_ip: redactIp(request.ip), user_agent: redactUserAgent(request.headers['user-agent']) };
    const path = request.url.split('?')[0]!;
    ctx.logger.warn({ ...client, path, reason: result.reason }, 'guardrail proxy refused a request');
    refusals.count({ network: client.client_ip, userAgent: client.user_agent, path, reason: result.reason });
    void reply.code(401).header('www-authenticate', 'Bearer').send(errorBodyFor(request, 401, result.reason));
  });

  app.setNotFoundHandler((request, reply) => {
    void reply.code(404).send(errorBodyFor(request, 404, `no route ${request.method} ${request.url.split('?')[0]}`));
  });
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) logger.error({ err: error.message, path: request.url.split('?')[0] }, 'proxy request failed');
    const message = status >= 500 ? 'internal error' : error.validation ? `invalid request: ${error.message}` : error.message;
    return reply.code(status).send(errorBodyFor(request, status, message));
  });

  controlRoutes(app, ctx);
  if (ctx.metrics) metricsRoute(app, ctx.metrics);
  const inFlight = new InFlight();
  await app.register(async (instance) => proxiedRoutes(instance, ctx, inFlight));
  // A stop or restart lets model calls in progress finish (streams included, up to DRAIN_MS), then closes
  // every connection: idle keep-alive sockets of agents would otherwise hold the listener open.
  app.addHook('preClose', async () => {
    await inFlight.drained(DRAIN_MS);
    app.server.closeAllConnections();
  });
  await app.ready();
  return app;
}
