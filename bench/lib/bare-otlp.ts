// The OTLP benchmark's baseline: a bare Fastify app whose one route reads an OTLP/HTTP protobuf logs body and only
// decodes it (the same protobufjs message definitions Warden uses), answering an empty body. Everything the
// receiver adds on top (auth, normalising, the SQLite commit) is what the ratio measures.
import Fastify from 'fastify';
import { OTLP_MESSAGES } from '../../src/telemetry/otlp/proto.js';

const app = Fastify({ bodyLimit: 64 * 1024 * 1024 });
app.addContentTypeParser('application/x-protobuf', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
const { request: LogsRequest } = OTLP_MESSAGES.logs;
app.post('/v1/logs', async (request, reply) => {
  const decoded = LogsRequest.toObject(LogsRequest.decode(request.body as Buffer), { longs: String, arrays: true });
  if (!Array.isArray(decoded.resourceLogs)) throw new Error('not a logs request');
  return reply.type('application/x-protobuf').send(Buffer.alloc(0));
});
await app.listen({ host: '127.0.0.1', port: 0 });
const { port } = app.server.address() as { port: number };
process.stdout.write(`ready http://127.0.0.1:${port}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
