// A stand-in for the sidecar's hook route, for the hook script tests: it records every request and answers
// what the test sets: a native answer (as JSON, or as the `?native=1` text the sh command asks for), a raw
// status and body, or nothing at all ('hang').
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { nativeAnswerText } from '../../src/connectors/hook-answer-text.js';
import type { NativeHookAnswer } from '../../src/connectors/hook-event.js';

/** `native` is unknown so a test can answer a malformed one. */
export type StubReply = { native: unknown } | { status: number; body: string } | 'hang';

export class StubSidecar {
  seen: { url: string; headers: IncomingHttpHeaders; body: string }[] = [];
  private server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      this.seen.push({ url: req.url ?? '', headers: req.headers, body });
      const reply = this.reply;
      if (reply === 'hang') return;
      if ('status' in reply) return res.writeHead(reply.status, { 'content-type': 'application/json' }).end(reply.body);
      if (req.url?.includes('native=1')) return res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(nativeAnswerText(reply.native as NativeHookAnswer));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ action: 'allow', reason: '', findings: [], native: reply.native }));
    });
  });

  constructor(public reply: StubReply = { native: { exit_code: 0 } }) {}

  /** Answer `native` in the hook route's own form from now on. */
  answer(native: unknown): void {
    this.reply = { native };
  }

  async start(): Promise<string> {
    await once(this.server.listen(0, '127.0.0.1'), 'listening');
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): void {
    this.server.closeAllConnections();
    this.server.close();
  }
}
