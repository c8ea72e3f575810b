// Sidecar token authentication (spec "Authentication / Sidecar" 1, 2, 5). Installed only when a token is
// configured; tokens are compared in constant time (util/token-matcher.ts). What a route asks for is its own
// declaration (`config.auth`, see util/route-config.ts); a route that declares nothing asks for the gateway token.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isLoopbackAddress } from '../../config/bind.js';
import type { HookTokens } from '../../connectors/hook-tokens.js';
import { WardenError } from '../../errors.js';
import { bearerToken } from '../../util/bearer.js';
import { TokenMatcher } from '../../util/token-matcher.js';
import '../../util/route-config.js';

export const SANDBOX_CREDENTIAL_PREFIX = 'wardensb_';

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
    if (mode === 'public') return done();
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
