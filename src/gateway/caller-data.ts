// Text a caller asks the sidecar to store (audit events, scanner results) is stored with the secrets the
// rule pack recognises redacted, the way verdict evidence is: the audit trail never holds them in clear.
import { MAX_ROW_OBJECT_DEPTH } from '../audit/row-data.js';
import { redactStrings } from '../guardrail/redact.js';
import type { FastifyRequest } from 'fastify';
import type { GatewayContext } from './context.js';

/** `value` (a string or any JSON value) with every string in it redacted; depth past the row limit is left for the store to refuse. */
export function redactCallerData<T>(ctx: GatewayContext, value: T): T {
  return redactStrings(value, (text) => ctx.inspector.redactSecrets(text), MAX_ROW_OBJECT_DEPTH + 1) as T;
}

/** The caller's own name for itself (`X-Warden-Client`, which the CSRF guard requires), recorded as the actor. */
export function callerClient(request: FastifyRequest): string | undefined {
  const client = request.headers['x-warden-client'];
  return typeof client === 'string' ? client : undefined;
}
