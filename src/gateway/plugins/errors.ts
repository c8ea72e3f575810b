// One error shape for the sidecar: `{error, code}`, a sentence and a stable code (docs/errors.md), never a
// stack trace. Warden's own operator errors (WardenError) answer their message and code; Fastify's request
// errors (validation, body too large, bad JSON) their message under a WARDEN_ERR_REQUEST_* code; anything
// else is a bug: logged with its stack, answered with a generic message and WARDEN_ERR_INTERNAL.
import type { FastifyError, FastifyInstance } from 'fastify';
import { INTERNAL_ERROR, isOperatorError, WardenError } from '../../errors.js';

export interface ErrorAnswer {
  status: number;
  body: { error: string; code: string };
  /** A bug: log it with its stack. */
  unexpected: boolean;
}

/** Codes for Fastify's own request errors, by the status Fastify gives them. */
const REQUEST_CODES: Record<number, string> = {
  413: 'WARDEN_ERR_REQUEST_TOO_LARGE',
  415: 'WARDEN_ERR_REQUEST_CONTENT_TYPE',
};

export function errorAnswer(error: FastifyError | WardenError): ErrorAnswer {
  if (isOperatorError(error)) {
    const status = error.statusCode ?? 500;
    return { status, body: { error: error.message, code: error.code }, unexpected: false };
  }
  const status = !(error instanceof WardenError) && error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
  if (status >= 500) return { status, body: { error: INTERNAL_ERROR.message, code: INTERNAL_ERROR.code }, unexpected: true };
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) return { status: 400, body: { error: `invalid request: ${fastifyError.message}`, code: 'WARDEN_ERR_REQUEST_INVALID' }, unexpected: false };
  return { status, body: { error: fastifyError.message, code: REQUEST_CODES[status] ?? 'WARDEN_ERR_REQUEST_INVALID' }, unexpected: false };
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setNotFoundHandler((request, reply) => {
    void reply.code(404).send({ error: `no route ${request.method} ${request.url.split('?')[0]}`, code: 'WARDEN_ERR_REQUEST_NO_ROUTE' });
  });
  app.setErrorHandler((error: FastifyError | WardenError, request, reply) => {
    const answer = errorAnswer(error);
    if (answer.unexpected) request.log.error({ err: error }, 'request failed');
    else if (answer.status >= 500) request.log.error({ err: error.message, code: answer.body.code }, 'request failed');
    return reply.code(answer.status).send(answer.body);
  });
}
