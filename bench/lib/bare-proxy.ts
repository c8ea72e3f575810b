// The floor for the proxy benchmark: the least a separate proxy process can do (node:http in, undici out, the
// answer relayed as it comes), with no authentication, inspection or audit. What Warden adds over this is
// the cost of its work; what this adds over calling the upstream directly is the cost of one more hop.
import { createServer } from 'node:http';
import { Agent } from 'undici';

const upstream = new URL(process.argv[2]!);
const agent = new Agent({ keepAliveTimeout: 30_000 });

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', async () => {
    try {
      const answer = await agent.request({
        origin: upstream.origin, path: req.url ?? '/', method: 'POST',
        headers: { 'content-type': 'application/json', authorization: req.headers.authorization ?? '' },
        body: Buffer.concat(chunks),
      });
      res.writeHead(answer.statusCode, { 'content-type': String(answer.headers['content-type']) });
      for await (const chunk of answer.body as AsyncIterable<Buffer>) res.write(chunk);
      res.end();
    } catch {
      res.destroy();
    }
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`ready http://127.0.0.1:${(server.address() as { port: number }).port}\n`));
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
