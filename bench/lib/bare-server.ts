// The baseline: a bare Fastify app with one JSON route per method, nothing else. Run as its own process so
// it gets the same share of the machine as the gateway it is compared with.
import Fastify from 'fastify';

const app = Fastify();
app.get('/json', async () => ({ status: 'ok' }));
app.post('/json', async (request) => ({ status: 'ok', size: JSON.stringify(request.body).length }));
await app.listen({ host: '127.0.0.1', port: 0 });
const { port } = app.server.address() as { port: number };
process.stdout.write(`ready http://127.0.0.1:${port}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
