// One error shape for the sidecar: `{error}` with a sentence, never a stack trace, and `code` when the error
// is one of Warden's own (WardenError: a stable code callers can match on).
import type { FastifyError, FastifyInstance } from 'fastify';
import { WardenError } from '../../errors.js';

export function installErrorHandling(app: FastifyInstance): void {
  app.setNotFoundHandler((request, reply) => {
    void reply.code(404).send({ error: `no route ${request.method} ${request.url.split('?')[0]}` });
  });
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    if (error instanceof WardenError) {
      if (status >= 500) request.log.error({ err: error.message, code: error.code }, 'request failed');
      return reply.code(status).send({ error: error.message, code: error.code });
    }
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.code(status).send({ error: 'internal error' });
    }
    if (error.validation) return reply.code(400).send({ error: `invalid request: ${error.message}` });
    return reply.code(status).send({ error: error.message });
  });
}
