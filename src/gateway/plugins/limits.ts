// Body size limits (spec "Limits"): set per route when it is registered, so Fastify refuses an oversized
// body with 413 while reading it, before any handler runs.
import type { FastifyInstance } from 'fastify';

export const MiB = 1024 * 1024;
export const ORDINARY_BODY_LIMIT = 1 * MiB;
export const OTLP_BODY_LIMIT = 64 * MiB;
export const SANDBOX_BODY_LIMIT = 256 * 1024;

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
