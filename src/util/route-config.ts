// What a sidecar route declares about itself in its Fastify route `config`, read by the plugins from
// `request.routeOptions.config` (never by matching the URL): who may call it and whether the per-IP budget
// applies. The body limit is the route's own `bodyLimit` (limits.ts). A route that declares nothing gets the
// secure default: the gateway token, no per-IP budget (only agent-facing routes need one), the ordinary body limit.
import type { FastifyInstance } from 'fastify';

/**
 * - `public`: no sidecar token asked (the route is open, or authenticates its callers itself, as the fleet API does);
 * - `token`: the gateway token (the default);
 * - `hook-token`: the gateway token, or over loopback the hook token of the connector the request names
 *   (the `:connector` route parameter, else the X-Warden-Connector header): see connectors/hook-tokens.ts.
 */
export type AuthMode = 'public' | 'token' | 'hook-token';

export interface SidecarRouteConfig {
  auth?: AuthMode;
  /** Counted against the per-IP token bucket (plugins/rate-limit.ts). */
  perIpLimit?: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthMode;
    perIpLimit?: boolean;
  }
}

/**
 * Gives every route registered in `instance` (an encapsulated `register()` holding one family) these
 * declarations, under whatever a route declares itself.
 */
export function declareFamily(instance: FastifyInstance, declarations: SidecarRouteConfig): void {
  instance.addHook('onRoute', (route) => {
    route.config = { ...declarations, ...route.config };
  });
}
