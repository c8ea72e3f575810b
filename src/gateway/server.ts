// The sidecar API: a Fastify app with, in order, request id, auth, CSRF guard and the per-IP limiter, then
// thin route modules that call the domain. What each route needs from those plugins it declares itself
// (route `config` and `bodyLimit`, see util/route-config.ts); families that share declarations are
// registered inside one encapsulated register() that declares them once.
import { randomBytes } from 'node:crypto';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type RouteOptions } from 'fastify';
import type { GatewayContext } from './context.js';
import { installAuth, installOtlpAuth } from './plugins/auth.js';
import { installCsrfGuard } from './plugins/csrf.js';
import { installErrorHandling } from './plugins/errors.js';
import { SIDECAR_LIMITS } from './limits.js';
import { declareFamily } from '../util/route-config.js';
import { aiUsageRoutes } from './routes/ai-usage.js';
import { auditRoutes } from './routes/audit.js';
import { networkEgressRoutes } from './routes/network-egress.js';
import { connectorRoutes } from './routes/connectors.js';
import { correlationRoutes } from './routes/correlation.js';
import { enforceRoutes } from './routes/enforce.js';
import { FLEET_PREFIX, fleetRoutes } from './routes/fleet.js';
import { guardrailRoutes } from './routes/guardrail.js';
import { healthRoutes } from './routes/health.js';
import { hookRoutes } from './routes/hooks.js';
import { inspectRoutes } from './routes/inspect.js';
import { otlpRoutes } from './routes/otlp.js';
import { policyRoutes } from './routes/policy.js';
import { sandboxRoutes } from './routes/sandbox.js';
import { runtimeRoutes } from './routes/runtime.js';
import { providerRoutes } from './routes/providers.js';
import { scanRoutes } from './routes/scan.js';
import { statusRoutes } from './routes/status.js';
import { upstreamRoutes } from './routes/upstream.js';
import { installPerIpLimiter } from './plugins/rate-limit.js';
import { capConnectionsPerIp, slowClientTimeouts } from '../util/connection-limits.js';
import { isLoopbackAddress, sidecarBindAddress } from '../config/bind.js';
import { metricsRoute } from '../telemetry/metrics-route.js';

export function requestIdGenerator(): () => string {
  // A per-process prefix and a counter: unique, cheap, and it does not trust a client-supplied id.
  const prefix = randomBytes(4).toString('hex');
  let counter = 0;
  return () => `${prefix}-${(++counter).toString(36)}`;
}

export interface SidecarOptions {
  /** Hears every route as it is registered (the OpenAPI completeness test lists them this way). */
  onRoute?: (route: RouteOptions) => void;
}

export async function buildSidecar(ctx: GatewayContext, logger: FastifyBaseLogger, options: SidecarOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: logger,
    // Every decision is in the audit trail; per-request log lines would cost more than the work itself.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: requestIdGenerator(),
    // Spec "Limits": the ordinary limit, for every route that declares none; a route that needs another
    // declares its own `bodyLimit` (values in ./limits.ts). Fastify refuses an oversized body with 413 while
    // reading it, before any handler runs.
    bodyLimit: SIDECAR_LIMITS.ordinaryBodyBytes,
    return503OnClosing: true,
    ajv: { customOptions: { removeAdditional: false } }, // unknown fields are errors, not silently dropped
    ...slowClientTimeouts(),
  });
  capConnectionsPerIp(app.server);
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  installAuth(app, ctx.settings.token?.token, ctx.hookTokens);
  if (ctx.telemetry) installOtlpAuth(app, ctx.settings.token?.token, ctx.telemetry.credentials);
  installCsrfGuard(app);
  // Spec "Limits": 20 requests/s, burst 40 per client address, for the routes that declare it.
  installPerIpLimiter(app, { ratePerSecond: 20, burst: 40 });
  installErrorHandling(app);
  await installApiDocs(app, ctx);

  healthRoutes(app, ctx);
  statusRoutes(app, ctx);
  connectorRoutes(app, ctx);
  auditRoutes(app, ctx);
  networkEgressRoutes(app, ctx);
  // The agent-facing family: the connector's hook token opens it over loopback, and it shares one per-IP budget.
  await app.register(async (agentFacing) => {
    declareFamily(agentFacing, { auth: 'hook-token', perIpLimit: true });
    const metrics = ctx.metrics;
    if (metrics) {
      // Answered verdicts only: a refusal (401, 400, 429) says nothing about how long a verdict takes.
      agentFacing.addHook('onResponse', (request, reply, done) => {
        if (reply.statusCode === 200) metrics.observeVerdictLatency(request.routeOptions.url ?? 'unknown', reply.elapsedTime / 1000);
        done();
      });
    }
    inspectRoutes(agentFacing, ctx);
    hookRoutes(agentFacing, ctx);
  });
  scanRoutes(app, ctx);
  enforceRoutes(app, ctx);
  policyRoutes(app, ctx);
  await sandboxRoutes(app, ctx);
  if (ctx.telemetry) {
    await otlpRoutes(app, ctx, ctx.telemetry);
    correlationRoutes(app, ctx.telemetry);
  }
  if (ctx.metrics) metricsRoute(app, ctx.metrics);
  guardrailRoutes(app, ctx);
  await app.register(async (instance) => runtimeRoutes(instance, ctx));
  aiUsageRoutes(app, ctx);
  upstreamRoutes(app, ctx);
  if (ctx.registry) providerRoutes(app, ctx, ctx.registry);
  const fleet = ctx.fleet;
  if (fleet) {
    await app.register(async (instance) => {
      // The fleet API authenticates with its own tokens (spec document 2), not the sidecar's.
      declareFamily(instance, { auth: 'public' });
      fleetRoutes(instance, fleet);
    }, { prefix: FLEET_PREFIX });
  }
  await app.ready();
  return app;
}

/**
 * GET /openapi.json and the interactive docs at /docs, generated from the route schemas. Public when the
 * sidecar listens on loopback (only local processes reach it, and the API is described in the open-source
 * docs anyway); behind the gateway token on any other bind, where handing the API map to the network would
 * help nobody but an attacker.
 */
async function installApiDocs(app: FastifyInstance, ctx: GatewayContext): Promise<void> {
  const auth = isLoopbackAddress(sidecarBindAddress(ctx.settings.config)) ? 'public' : 'token';
  await app.register(swagger, {
    openapi: {
      info: { title: 'Warden sidecar API', version: ctx.version, description: 'The sidecar API of the Warden gateway (README.md "Calling the sidecar").' },
      components: { securitySchemes: { gatewayToken: { type: 'http', scheme: 'bearer' } } },
      security: [{ gatewayToken: [] }],
    },
  });
  await app.register(async (docs) => {
    declareFamily(docs, { auth });
    await docs.register(swaggerUi, { routePrefix: '/docs' });
    docs.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  });
}
