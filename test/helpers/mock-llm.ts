// A local stand-in for an LLM provider: records what reaches it and answers as scripted, in OpenAI or
// Anthropic shape, whole or streamed. It notices when the caller hangs up mid-stream (the proxy's upstream
// cancellation), which a test can wait for.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type MockReply =
  | { kind: 'json'; status?: number; body: unknown; headers?: Record<string, string> }
  /** Raw stream pieces written one by one (`delayMs` apart), then the end. */
  | { kind: 'stream'; pieces: string[]; delayMs?: number; startDelayMs?: number; contentType?: string; holdOpen?: boolean }
  /** Never answers (for timeouts). */
  | { kind: 'hang' };

export interface MockLlm {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** The next answers, in order; when empty, `fallback` answers. */
  replies: MockReply[];
  fallback: (request: ReceivedRequest) => MockReply;
  /** Streams whose caller disconnected before the stream was complete. */
  cancelledStreams: number;
  /** Resolves at the next caller disconnect mid-stream. */
  nextCancellation(): Promise<void>;
  /** Open sockets right now (to check that nothing leaks). */
  openSockets(): number;
  close(): Promise<void>;
}

export function chatCompletion(content: string, extra: Record<string, unknown> = {}) {
  return {
    id: 'chatcmpl-mock-1', object: 'chat.completion', created: 1_700_000_000, model: 'gpt-mock',
    choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: 'stop' }],
    usage: { prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 },
    ...extra,
  };
}

/** An OpenAI chat stream: a role chunk, one chunk per text piece, a finish chunk and [DONE], as SSE events. */
export function openAIStream(texts: string[], toolCall?: { name: string; argumentPieces: string[] }): string[] {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    `data: ${JSON.stringify({ id: 'chatcmpl-mock-2', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'gpt-mock', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
  const events = [chunk({ role: 'assistant', content: '' })];
  for (const text of texts) events.push(chunk({ content: text }));
  if (toolCall) {
    events.push(chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: toolCall.name, arguments: '' } }] }));
    for (const piece of toolCall.argumentPieces) events.push(chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] }));
  }
  events.push(chunk({}, toolCall ? 'tool_calls' : 'stop'));
  events.push('data: [DONE]\n\n');
  return events;
}

/** An Anthropic Messages stream for the given text pieces. */
export function anthropicStream(texts: string[]): string[] {
  const event = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  return [
    event('message_start', { message: { id: 'msg_mock', type: 'message', role: 'assistant', model: 'claude-mock', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 5, output_tokens: 1 } } }),
    event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    ...texts.map((text) => event('content_block_delta', { index: 0, delta: { type: 'text_delta', text } })),
    event('content_block_stop', { index: 0 }),
    event('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: texts.length } }),
    event('message_stop', {}),
  ];
}

export function anthropicMessage(text: string) {
  return {
    id: 'msg_mock', type: 'message', role: 'assistant', model: 'claude-mock', content: [{ type: 'text', text }],
    stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 5, output_tokens: 5 },
  };
}

export async function startMockLlm(): Promise<MockLlm> {
  const waiters: (() => void)[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const mock: Omit<MockLlm, 'url' | 'port'> & { server?: Server } = {
    requests: [],
    replies: [],
    fallback: () => ({ kind: 'json', body: chatCompletion('Hello from the mock.') }),
    cancelledStreams: 0,
    nextCancellation: () => new Promise<void>((resolve) => waiters.push(resolve)),
    openSockets: () => sockets.size,
    close: async () => {},
  };
  const answer = async (reply: MockReply, res: ServerResponse) => {
    if (reply.kind === 'hang') return;
    if (reply.kind === 'json') {
      const text = JSON.stringify(reply.body);
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
      res.end(text);
      return;
    }
    res.writeHead(200, { 'content-type': reply.contentType ?? 'text/event-stream', 'cache-control': 'no-cache' });
    res.flushHeaders();
    let finished = false;
    res.on('close', () => {
      if (finished) return;
      mock.cancelledStreams++;
      for (const resolve of waiters.splice(0)) resolve();
    });
    if (reply.startDelayMs) await new Promise((r) => setTimeout(r, reply.startDelayMs));
    for (const piece of reply.pieces) {
      if (res.destroyed) return;
      res.write(piece);
      if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
    }
    if (reply.holdOpen) return;
    finished = true;
    res.end();
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      mock.requests.push(received);
      void answer(mock.replies.shift() ?? mock.fallback(received), res);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  mock.close = async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return Object.assign(mock, { url: `http://127.0.0.1:${port}`, port }) as MockLlm;
}
