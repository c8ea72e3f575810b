// The guardrail proxy listener on guardrail.port. The inspected LLM proxy itself arrives in a later step;
// until then the listener is up (so ports, binds and the ready line are real) and says plainly that it
// cannot serve model traffic yet.
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';

export async function buildProxy(logger: FastifyBaseLogger): Promise<FastifyInstance> {
  const app = Fastify({ loggerInstance: logger, logController: new LogController({ disableRequestLogging: true }), return503OnClosing: true });
  app.get('/health', async () => ({ status: 'unavailable', reason: 'guardrail proxy is not available in this build' }));
  app.all('/*', async (_request, reply) =>
    reply.code(503).send({ error: { message: 'guardrail proxy is not available in this build', type: 'service_unavailable' } }),
  );
  await app.ready();
  return app;
}
