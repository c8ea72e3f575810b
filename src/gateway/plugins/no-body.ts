// Routes that take no body (fleet rotate-key, token/rotate). The CSRF guard wants Content-Type:
// application/json on every POST, and Fastify's JSON parser refuses an empty body with that type, so such a
// route could not be called as the spec describes it. Installed on an encapsulated instance holding only those
// routes: every other JSON route keeps refusing an empty JSON body.
import type { FastifyInstance } from 'fastify';
import { SIDECAR_LIMITS } from '../limits.js';

/** A bodyless route reads at most this much before refusing (a real body is refused anyway). */
export const NO_BODY_LIMIT = SIDECAR_LIMITS.noBodyBytes;

const isEmptyObject = (body: unknown): boolean =>
  typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).length === 0;

export function acceptNoBody(instance: FastifyInstance): void {
  // Same poisoning rules as the sidecar's default parser; only the empty body is new.
  const json = instance.getDefaultJsonParser('error', 'error');
  instance.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: NO_BODY_LIMIT }, (request, body, done) => {
    if ((body as string).trim() === '') return done(null, undefined);
    json(request, body as string, done);
  });
  // `{}` is what many clients send for "no fields" and says nothing, so it is accepted; anything else is
  // refused rather than ignored, so a caller who thinks it passes a parameter (a key, a token) learns it does not.
  instance.addHook('preValidation', (request, reply, done) => {
    if (request.body === undefined || isEmptyObject(request.body)) return done();
    void reply.code(400).send({ error: 'this route takes no body', code: 'WARDEN_ERR_REQUEST_BODY_UNEXPECTED', detail: 'send an empty body or {}' });
  });
}

/**
 * Routes whose body is optional (the watchdog's and the canary's callers post nothing): an empty JSON body reads
 * as `{}`, which the route's schema then checks like any other body.
 */
export function acceptEmptyBody(instance: FastifyInstance): void {
  const json = instance.getDefaultJsonParser('error', 'error');
  instance.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if ((body as string).trim() === '') return done(null, {});
    json(request, body as string, done);
  });
}
