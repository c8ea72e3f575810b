import Type from 'typebox';
import type { FastifyInstance } from 'fastify';
import type { GatewayContext } from '../context.js';

const Subsystem = Type.Object({
  state: Type.String(),
  since: Type.String(),
  last_error: Type.Optional(Type.String()),
  details: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});

export const HealthBody = Type.Object({
  status: Type.String(),
  version: Type.String(),
  started_at: Type.String(),
  uptime_ms: Type.Integer(),
  subsystems: Type.Record(Type.String(), Subsystem),
});

export function healthBody(ctx: GatewayContext) {
  const subsystems = ctx.health.snapshot();
  const healthy = Object.values(subsystems).every((s) => s.state === 'running' || s.state === 'disabled');
  return {
    status: healthy ? 'ok' : 'degraded',
    version: ctx.version,
    started_at: ctx.startedAt.toISOString(),
    uptime_ms: Date.now() - ctx.startedAt.getTime(),
    subsystems,
  };
}

export function healthRoutes(app: FastifyInstance, ctx: GatewayContext): void {
  // Liveness: answers 200 while the process serves requests, whatever state the subsystems are in.
  app.get('/health', { config: { auth: 'public' }, schema: { response: { 200: HealthBody } } }, async () => healthBody(ctx));
}
