// GET /metrics, the same route on the sidecar and on the guardrail proxy: each listener's own authentication
// applies (the route declares nothing, so the sidecar asks its gateway token and the proxy its proxy auth).
import Type from 'typebox';
import type { FastifyInstance } from 'fastify';
import type { GatewayMetrics } from './metrics.js';

export function metricsRoute(app: FastifyInstance, metrics: GatewayMetrics): void {
  app.get('/metrics', {
    schema: {
      description: 'Prometheus metrics of this gateway (text exposition format); see docs/telemetry.md "Metrics".',
      produces: ['text/plain'],
      response: { 200: Type.String({ description: 'Prometheus text exposition format 0.0.4' }) },
    },
  }, async (_request, reply) => {
    const { text, contentType } = await metrics.scrape();
    return reply.type(contentType).send(text);
  });
}
