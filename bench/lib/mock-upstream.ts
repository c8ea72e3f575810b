// The benchmark's stand-in for an OpenAI-compatible provider, in its own process (so its work is not billed
// to a gateway): POST /v1/chat/completions answers a fixed ~1 KB completion, or with `stream: true` the same
// text as SSE chunks of one token each. Chunks are written back to back unless the request carries
// `x-mock-pace-ms`, which spaces them like a model generating.
import { createServer } from 'node:http';

const WORDS = ('The build passed on every platform. I updated the parser to handle quoted heredocs, added tests ' +
  'for the three failing cases, and ran the whole suite twice to be sure nothing else regressed. ').repeat(4).trim().split(' ');
const TEXT = WORDS.join(' ');
const COMPLETION = JSON.stringify({
  id: 'chatcmpl-bench', object: 'chat.completion', created: 1_700_000_000, model: 'gpt-bench',
  choices: [{ index: 0, message: { role: 'assistant', content: TEXT }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 200, completion_tokens: WORDS.length, total_tokens: 200 + WORDS.length },
});
const chunk = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'gpt-bench', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
// Tokens as OpenAI splits English: a leading space on every word after the first.
const STREAM = [chunk({ role: 'assistant', content: '' }), ...WORDS.map((w, i) => chunk({ content: i === 0 ? w : ` ${w}` })), chunk({}, 'stop'), 'data: [DONE]\n\n'];

const server = createServer((req, res) => {
  const body: Buffer[] = [];
  req.on('data', (c: Buffer) => body.push(c));
  req.on('end', () => {
    const streamed = Buffer.concat(body).includes('"stream":true');
    if (!streamed) {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(COMPLETION) });
      res.end(COMPLETION);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const pace = Number(req.headers['x-mock-pace-ms'] ?? 0);
    if (pace <= 0) {
      for (const piece of STREAM) res.write(piece);
      res.end();
      return;
    }
    let i = 0;
    const next = () => {
      if (res.destroyed) return;
      if (i === STREAM.length) return void res.end();
      res.write(STREAM[i++]);
      setTimeout(next, pace);
    };
    next();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`ready http://127.0.0.1:${(server.address() as { port: number }).port}\n`);
});
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
