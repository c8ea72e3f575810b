// Body size limits (spec "Limits"): set per route when it is registered, so Fastify refuses an oversized
// body with 413 while reading it, before any handler runs.
import type { FastifyInstance } from 'fastify';
import { SIDECAR_LIMITS } from '../limits.js';

export { MiB } from '../../util/limit-table.js';
export const ORDINARY_BODY_LIMIT = SIDECAR_LIMITS.ordinaryBodyBytes;
export const OTLP_BODY_LIMIT = SIDECAR_LIMITS.otlpBodyBytes;
export const SANDBOX_BODY_LIMIT = SIDECAR_LIMITS.sandboxBodyBytes;

const OTLP_ROUTE = /^\/(?:v1\/(?:logs|metrics|traces)$|otlp\/)/;

export function bodyLimitFor(url: string): number {
  if (url.startsWith('/api/v1/sandbox/')) return SANDBOX_BODY_LIMIT;
  if (OTLP_ROUTE.test(url)) return OTLP_BODY_LIMIT;
  return ORDINARY_BODY_LIMIT;
}

export function installBodyLimits(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    route.bodyLimit ??= bodyLimitFor(route.url ?? route.path);
  });
}
