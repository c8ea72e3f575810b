// Sidecar token authentication (spec "Authentication / Sidecar" 1, 2, 5). Installed only when a token is
// configured; tokens are compared in constant time (util/token-matcher.ts). What a route asks for is its own
// declaration (`config.auth`, see util/route-config.ts); a route that declares nothing asks for the gateway token.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isLoopbackAddress } from '../../config/bind.js';
import type { HookTokens } from '../../connectors/hook-tokens.js';
import { WardenError } from '../../errors.js';
import { decideOtlpAccess, type OtlpAccessGrant } from '../../telemetry/otlp/access.js';
import type { ScopedCredentials } from '../../telemetry/otlp/credentials.js';
import { bearerToken, SANDBOX_CREDENTIAL_PREFIX } from '../../util/bearer.js';
import { TokenMatcher } from '../../util/token-matcher.js';
import '../../util/route-config.js';

/** The credentials a request presents, from every accepted header form. */
export function presentedCredentials(request: FastifyRequest): string[] {
  const found: string[] = [];
  const fromAuthorization = bearerToken(request.headers.authorization);
  if (fromAuthorization) found.push(fromAuthorization);
  const token = request.headers['x-warden-token'];
  if (typeof token === 'string' && token.trim() !== '') found.push(token.trim());
  const fromAuthHeader = bearerToken(request.headers['x-warden-auth']);
  if (fromAuthHeader) found.push(fromAuthHeader);
  return found;
}

/**
 * The connector whose hook token may authorise a request to a `hook-token` route (loopback only; see
 * hook-tokens.ts): the one its URL names (`:connector`), else the one the X-Warden-Connector header names.
 */
function hookTokenScope(request: FastifyRequest): string | undefined {
  if (!isLoopbackAddress(request.ip)) return undefined;
  const fromRoute = (request.params as { connector?: unknown } | undefined)?.connector;
  if (typeof fromRoute === 'string') return fromRoute;
  const connector = request.headers['x-warden-connector'];
  return typeof connector === 'string' ? connector : undefined;
}

export function installAuth(app: FastifyInstance, token: string | undefined, hookTokens?: HookTokens): void {
  if (!token) return;
  const matcher = new TokenMatcher(token);
  // Callback-style hook: this runs on every request, and an async hook costs a promise per call.
  app.addHook('onRequest', (request, reply, done) => {
    const mode = request.routeOptions.config.auth ?? 'token';
    if (mode === 'public' || mode === 'otlp' || mode === 'otlp-path') return done();
    const credentials = presentedCredentials(request);
    // Sandbox-binding credentials belong to the hook ingress only; refuse them before anything else.
    if (credentials.some((c) => c.startsWith(SANDBOX_CREDENTIAL_PREFIX))) {
      return done(new WardenError('WARDEN_ERR_AUTH_SANDBOX_CREDENTIAL', 'sandbox binding credentials are not accepted on this API', { statusCode: 401 }));
    }
    // Evaluate every candidate (no short-circuit) so timing does not say which header carried the token.
    let ok = credentials.map((c) => matcher.matches(c)).includes(true);
    const scope = ok || !hookTokens || mode !== 'hook-token' ? undefined : hookTokenScope(request);
    if (scope) ok = credentials.map((c) => hookTokens!.matches(scope, c)).includes(true);
    if (!ok) {
      reply.header('www-authenticate', 'Bearer');
      return done(credentials.length === 0
        ? new WardenError('WARDEN_ERR_AUTH_TOKEN_MISSING', 'missing gateway token', { statusCode: 401 })
        : new WardenError('WARDEN_ERR_AUTH_TOKEN_INVALID', 'invalid gateway token', { statusCode: 401 }));
    }
    done();
  });
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set on the OTLP routes by installOtlpAuth: the source the request may file records under. */
    otlpGrant: OtlpAccessGrant | null;
  }
}

/**
 * The OTLP receiver's routes (`auth: 'otlp' | 'otlp-path'`): scoped OTLP tokens and the gateway token, decided
 * by telemetry/otlp/access.ts. Installed even without a gateway token, because the path route's scoped token
 * is checked regardless.
 */
export function installOtlpAuth(app: FastifyInstance, token: string | undefined, scoped: ScopedCredentials): void {
  const master = token ? new TokenMatcher(token) : undefined;
  app.decorateRequest('otlpGrant', null);
  app.addHook('onRequest', (request, reply, done) => {
    const mode = request.routeOptions.config.auth;
    if (mode !== 'otlp' && mode !== 'otlp-path') return done();
    const params = (request.params ?? {}) as { source?: unknown; token?: unknown };
    const declared = request.headers['x-warden-source'];
    try {
      request.otlpGrant = decideOtlpAccess({
        mode,
        loopback: isLoopbackAddress(request.ip),
        credentials: presentedCredentials(request),
        declaredSource: typeof declared === 'string' ? declared.trim() : undefined,
        pathSource: typeof params.source === 'string' ? params.source : undefined,
        pathToken: typeof params.token === 'string' ? params.token : undefined,
      }, master, scoped);
    } catch (err) {
      if ((err as WardenError).statusCode === 401) reply.header('www-authenticate', 'Bearer');
      return done(err as WardenError);
    }
    done();
  });
}
