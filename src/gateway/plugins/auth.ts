// Sidecar token authentication (spec "Authentication / Sidecar" 1, 2, 5). Installed only when a token is
// configured. Both sides are hashed before the constant-time comparison so neither the content nor the
// length of the token leaks through timing.
import { hash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';

export const SANDBOX_CREDENTIAL_PREFIX = 'wardensb_';

const digest = (value: string): Buffer => hash('sha256', value, 'buffer');

/** The credentials a request presents, from every accepted header form. */
export function presentedCredentials(request: FastifyRequest): string[] {
  const found: string[] = [];
  const bearer = (value: unknown): string | undefined => {
    if (typeof value !== 'string') return undefined;
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(value);
    return match?.[1];
  };
  const fromAuthorization = bearer(request.headers.authorization);
  if (fromAuthorization) found.push(fromAuthorization);
  const token = request.headers['x-warden-token'];
  if (typeof token === 'string' && token.trim() !== '') found.push(token.trim());
  const fromAuthHeader = bearer(request.headers['x-warden-auth']);
  if (fromAuthHeader) found.push(fromAuthHeader);
  return found;
}

export class TokenMatcher {
  private readonly expected: Buffer;
  constructor(token: string) {
    this.expected = digest(token);
  }
  matches(candidate: string): boolean {
    return timingSafeEqual(digest(candidate), this.expected);
  }
}

export function installAuth(app: FastifyInstance, token: string | undefined, isPublic: (request: FastifyRequest) => boolean): void {
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
    const ok = credentials.map((c) => matcher.matches(c)).includes(true);
    if (!ok) {
      reply.header('www-authenticate', 'Bearer');
      return reply.code(401).send({ error: credentials.length === 0 ? 'missing gateway token' : 'invalid gateway token' });
    }
    done();
  });
}
