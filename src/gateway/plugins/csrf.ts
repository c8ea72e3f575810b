// CSRF guard for mutating sidecar requests (spec "CSRF guard"). A browser page can make a loopback request
// to the sidecar, but it cannot add a custom header or a JSON content type without a preflight, and its
// Origin / Sec-Fetch-Site headers say where it comes from.
import type { FastifyInstance } from 'fastify';
import { WardenError } from '../../errors.js';
import { otlpEncodingOf } from '../../telemetry/otlp/decode.js';

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
  app.addHook('onRequest', (request, _reply, done) => {
    if (SAFE_METHODS.has(request.method)) return done();
    const auth = request.routeOptions.config.auth;
    const otlp = auth === 'otlp' || auth === 'otlp-path';
    const client = request.headers['x-warden-client'];
    // Spec "CSRF guard" 3: the loopback scoped-token OTLP path may omit the client header (its exporters cannot
    // set one); it still needs an OTLP content type and refuses a non-local Origin, below.
    const clientOptional = auth === 'otlp-path';
    if (!clientOptional && (typeof client !== 'string' || client.trim() === '')) {
      return done(new WardenError('WARDEN_ERR_REQUEST_CLIENT_MISSING', 'missing X-Warden-Client header', { statusCode: 403 }));
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !isLocalOrigin(origin)) {
      return done(new WardenError('WARDEN_ERR_REQUEST_CROSS_SITE', 'cross-origin request refused', { statusCode: 403 }));
    }
    const fetchSite = request.headers['sec-fetch-site'];
    if (fetchSite === 'cross-site' || fetchSite === 'same-site') {
      return done(new WardenError('WARDEN_ERR_REQUEST_CROSS_SITE', 'cross-site request refused', { statusCode: 403 }));
    }
    if (otlp) {
      if (otlpEncodingOf(request.headers['content-type']) === undefined) {
        return done(new WardenError('WARDEN_ERR_REQUEST_CONTENT_TYPE', 'Content-Type must be application/json or application/x-protobuf', { statusCode: 415 }));
      }
      return done();
    }
    if (BODY_METHODS.has(request.method) && !isJsonContentType(request.headers['content-type'])) {
      return done(new WardenError('WARDEN_ERR_REQUEST_CONTENT_TYPE', 'Content-Type must be application/json', { statusCode: 415 }));
    }
    done();
  });
}
