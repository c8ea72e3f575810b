// What a route declares about itself in its Fastify route `config`, read by the plugins from
// `request.routeOptions.config` (never by matching the URL): who may call it and whether the per-IP budget
// applies; the body limit is the route's own `bodyLimit` (gateway/limits.ts). A route that declares
// nothing gets the secure default: a token, no per-IP budget (only agent-facing routes need one), the server's
// ordinary body limit. Used by the sidecar (gateway/plugins/auth.ts, rate-limit.ts) and the guardrail proxy
// (proxy/server.ts, which knows `public` and the default only).
import type { FastifyContextConfig, FastifyInstance } from 'fastify';

/**
 * - `public`: no token asked (the route is open, or authenticates its callers itself, as the fleet API does);
 * - `token`: the server's token (the default);
 * - `hook-token` (sidecar): the gateway token, or over loopback the hook token of the connector the request
 *   names (the `:connector` route parameter, else the X-Warden-Connector header): see connectors/hook-tokens.ts;
 * - `otlp` (sidecar): the OTLP receiver's header route: a scoped OTLP token with X-Warden-Source, or the gateway
 *   token (see telemetry/otlp/access.ts); the CSRF guard asks for an OTLP content type;
 * - `otlp-path` (sidecar): the OTLP path-token route, loopback only, the scoped token in the `:token` parameter;
 *   the CSRF guard lets it omit X-Warden-Client.
 */
export type AuthMode = 'public' | 'token' | 'hook-token' | 'otlp' | 'otlp-path';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthMode;
    /** Counted against the per-IP token bucket (gateway/plugins/rate-limit.ts). */
    perIpLimit?: boolean;
  }
}

export type RouteDeclarations = Pick<FastifyContextConfig, 'auth' | 'perIpLimit'>;

/**
 * Gives every route registered in `instance` (an encapsulated `register()` holding one family) these
 * declarations, under whatever a route declares itself.
 */
export function declareFamily(instance: FastifyInstance, declarations: RouteDeclarations): void {
  instance.addHook('onRoute', (route) => {
    route.config = { ...declarations, ...route.config };
  });
}
