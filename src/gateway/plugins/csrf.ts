// CSRF guard for mutating sidecar requests (spec "CSRF guard"). A browser page can make a loopback request
// to the sidecar, but it cannot add a custom header or a JSON content type without a preflight, and its
// Origin / Sec-Fetch-Site headers say where it comes from.
import type { FastifyInstance } from 'fastify';

const SAFE_METHODS = new Set(['GET', 'HEAD']);
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

export function isLocalOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && LOCAL_HOSTS.has(url.hostname);
  } catch {
    return false; // includes the opaque origin "null"
  }
}

export function isJsonContentType(value: string | undefined): boolean {
  if (!value) return false;
  return value.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

export function installCsrfGuard(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (SAFE_METHODS.has(request.method)) return done();
    const client = request.headers['x-warden-client'];
    if (typeof client !== 'string' || client.trim() === '') {
      return reply.code(403).send({ error: 'missing X-Warden-Client header' });
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !isLocalOrigin(origin)) {
      return reply.code(403).send({ error: 'cross-origin request refused' });
    }
    const fetchSite = request.headers['sec-fetch-site'];
    if (fetchSite === 'cross-site' || fetchSite === 'same-site') {
      return reply.code(403).send({ error: 'cross-site request refused' });
    }
    if (BODY_METHODS.has(request.method) && !isJsonContentType(request.headers['content-type'])) {
      return reply.code(415).send({ error: 'Content-Type must be application/json' });
    }
    done();
  });
}
