// Model traffic: OpenAI chat completions, and provider-native passthrough for any other POST that names its
// upstream in X-Warden-Target-URL. Bodies arrive as raw bytes: a clean request is forwarded byte for byte.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ProxyContext } from '../context.js';
import { forward } from '../forward.js';
import type { InFlight } from '../in-flight.js';
import { PROXY_LIMITS } from '../limits.js';

export const PROXY_BODY_LIMIT = PROXY_LIMITS.maxRequestBodyBytes;

export function proxiedRoutes(app: FastifyInstance, ctx: ProxyContext, inFlight: InFlight): void {
  // Every content type as a Buffer; forward() decides what it accepts (JSON only, inspected).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: PROXY_BODY_LIMIT }, (_request, body, done) => done(null, body));

  const handle = (chatRoute: boolean) => async (request: FastifyRequest, reply: FastifyReply) => {
    reply.hijack();
    const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const done = inFlight.begin();
    try {
      await forward(ctx, { method: request.method, url: request.url, headers: request.headers, body, chatRoute }, reply.raw);
    } catch (err) {
      ctx.logger.error({ err: (err as Error).message }, 'proxied request failed');
      if (!reply.raw.headersSent) reply.raw.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"internal error","type":"server_error"}}');
      else reply.raw.destroy();
    } finally {
      done();
    }
  };
  app.post('/v1/chat/completions', { bodyLimit: PROXY_BODY_LIMIT }, handle(true));
  app.post('/chat/completions', { bodyLimit: PROXY_BODY_LIMIT }, handle(true));
  app.post('/*', { bodyLimit: PROXY_BODY_LIMIT }, handle(false));
}
