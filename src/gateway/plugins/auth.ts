// Sidecar token authentication (spec "Authentication / Sidecar" 1, 2, 5). Installed only when a token is
// configured; tokens are compared in constant time (util/token-matcher.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isLoopbackAddress } from '../../config/bind.js';
import type { HookTokens } from '../../connectors/hook-tokens.js';
import { bearerToken } from '../../util/bearer.js';
import { TokenMatcher } from '../../util/token-matcher.js';

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

const HOOK_ROUTE = /^\/api\/v1\/([a-z0-9]+)\/hook$/;

/** The connector whose hook token may authorise this request, if any (loopback only; see hook-tokens.ts). */
function hookTokenScope(request: FastifyRequest): string | undefined {
  if (!isLoopbackAddress(request.ip)) return undefined;
  const path = request.url.split('?')[0]!;
  const hookRoute = HOOK_ROUTE.exec(path);
  if (hookRoute) return hookRoute[1];
  const connector = request.headers['x-warden-connector'];
  if (path.startsWith('/api/v1/inspect/') && typeof connector === 'string') return connector;
  return undefined;
}

export function installAuth(
  app: FastifyInstance,
  token: string | undefined,
  isPublic: (request: FastifyRequest) => boolean,
  hookTokens?: HookTokens,
): void {
  if (!token) return;
  const matcher = new TokenMatcher(token);
  // Callback-style hook: this runs on every request, and an async hook costs a promise per call.
  app.addHook('onRequest', (request, reply, done) => {
    if (isPublic(request)) return done();
    const credentials = presentedCredentials(request);
    // Sandbox-binding credentials belong to the hook ingress only; refuse them before anything else.
    if (credentials.some((c) => c.startsWith(SANDBOX_CREDENTIAL_PREFIX))) {
      return reply.code(401).send({ error: 'sandbox binding credentials are not accepted on this API' });
    }
    // Evaluate every candidate (no short-circuit) so timing does not say which header carried the token.
    let ok = credentials.map((c) => matcher.matches(c)).includes(true);
    const scope = ok || !hookTokens ? undefined : hookTokenScope(request);
    if (scope) ok = credentials.map((c) => hookTokens!.matches(scope, c)).includes(true);
    if (!ok) {
      reply.header('www-authenticate', 'Bearer');
      return reply.code(401).send({ error: credentials.length === 0 ? 'missing gateway token' : 'invalid gateway token' });
    }
    done();
  });
}
