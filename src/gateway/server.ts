// The sidecar API: a Fastify app with, in order, request id, auth, CSRF guard and body limits, then thin
// route modules that call the domain.
import { randomBytes } from 'node:crypto';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { GatewayContext } from './context.js';
import { installAuth } from './plugins/auth.js';
import { installCsrfGuard } from './plugins/csrf.js';
import { installErrorHandling } from './plugins/errors.js';
import { installBodyLimits, ORDINARY_BODY_LIMIT } from './plugins/limits.js';
import { auditRoutes } from './routes/audit.js';
import { connectorRoutes } from './routes/connectors.js';
import { FLEET_PREFIX, fleetRoutes } from './routes/fleet.js';
import { healthRoutes } from './routes/health.js';
import { hookRoutes } from './routes/hooks.js';
import { inspectRoutes } from './routes/inspect.js';
import { scanRoutes } from './routes/scan.js';
import { statusRoutes } from './routes/status.js';
import { installPerIpLimiter } from './plugins/rate-limit.js';
import { capConnectionsPerIp, slowClientTimeouts } from '../util/connection-limits.js';

const HOOK_OR_INSPECT = /^\/api\/v1\/(?:inspect\/|[a-z0-9]+\/hook(?:\?|$))/;

export function requestIdGenerator(): () => string {
  // A per-process prefix and a counter: unique, cheap, and it does not trust a client-supplied id.
  const prefix = randomBytes(4).toString('hex');
  let counter = 0;
  return () => `${prefix}-${(++counter).toString(36)}`;
}

export async function buildSidecar(ctx: GatewayContext, logger: FastifyBaseLogger): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: logger,
    // Every decision is in the audit trail; per-request log lines would cost more than the work itself.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: requestIdGenerator(),
    bodyLimit: ORDINARY_BODY_LIMIT,
    return503OnClosing: true,
    ajv: { customOptions: { removeAdditional: false } }, // unknown fields are errors, not silently dropped
    ...slowClientTimeouts(),
  });
  capConnectionsPerIp(app.server);
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  // The fleet API, when mounted, authenticates with its own tokens (spec document 2).
  const isPublic = (r: { method: string; url: string }) =>
    ((r.method === 'GET' || r.method === 'HEAD') && (r.url === '/health' || r.url.startsWith('/health?'))) ||
    (ctx.fleet !== undefined && r.url.startsWith(`${FLEET_PREFIX}/`));
  installAuth(app, ctx.settings.token?.token, isPublic, ctx.hookTokens);
  installCsrfGuard(app);
  // Hook and inspect routes share one per-IP budget (spec "Limits"); loopback callers are exempt.
  installPerIpLimiter(app, { ratePerSecond: 20, burst: 40, applies: (r) => HOOK_OR_INSPECT.test(r.url) });
  installBodyLimits(app);
  installErrorHandling(app);

  healthRoutes(app, ctx);
  statusRoutes(app, ctx);
  connectorRoutes(app, ctx);
  auditRoutes(app, ctx);
  inspectRoutes(app, ctx);
  hookRoutes(app, ctx);
  scanRoutes(app, ctx);
  const fleet = ctx.fleet;
  if (fleet) await app.register(async (instance) => fleetRoutes(instance, fleet), { prefix: FLEET_PREFIX });
  await app.ready();
  return app;
}
