// The ingress's HTTP side: one Fastify app (the hook route as the sidecar has it, POST /api/v1/<connector>/hook,
// with `?native=1` and `?event=`) served on one Unix socket per sandbox. Each socket lives in that sandbox's
// ingress folder, which only that sandbox mounts, so the socket a request came in on names the sandbox; the
// handler still checks the sandbox's binding credential. No TCP port: nothing outside a sandbox reaches it but
// local processes of the gateway's user, and the folders are 0700.
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { existsSync, rmSync } from 'node:fs';
import Type from 'typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { WardenError } from '../../errors.js';
import { NATIVE_ANSWER_TYPE, nativeAnswerText } from '../../connectors/hook-answer-text.js';
import type { NativeHookAnswer } from '../../connectors/hook-event.js';
import { INGRESS_LIMITS } from './limits.js';

export interface IngressCall {
  sandbox: string;
  connector: string;
  authorization: string | undefined;
  body: unknown;
  eventName?: string;
}

/** The sidecar hook route's answer (`native` alone, as text, with `?native=1`). */
export interface IngressAnswer {
  action: string;
  reason: string;
  findings: unknown[];
  evaluation_id?: string;
  rule_ids?: string[];
  native: NativeHookAnswer;
}

export type IngressHandler = (call: IngressCall) => Promise<IngressAnswer>;

const HookQuery = Type.Object({
  native: Type.Optional(Type.Literal('1')),
  event: Type.Optional(Type.String({ pattern: '^[\\w.:-]{1,64}$' })),
});
const HookParams = Type.Object({ connector: Type.String({ pattern: '^[a-z0-9]{1,64}$' }) });

export class IngressListener {
  readonly #app: FastifyInstance;
  readonly #server: Server;
  readonly #origin = new WeakMap<Socket, string>();
  readonly #sockets = new Map<string, { server: NetServer; path: string; open: Set<Socket> }>();

  private constructor(app: FastifyInstance, server: Server) {
    this.#app = app;
    this.#server = server;
  }

  static async create(handle: IngressHandler): Promise<IngressListener> {
    let server: Server | undefined;
    const app = Fastify({
      logger: false, bodyLimit: INGRESS_LIMITS.bodyBytes,
      serverFactory: (handler) => (server = createServer(handler)),
    });
    const listener = new IngressListener(app, server!);
    app.setErrorHandler((error: Error & { statusCode?: number; code?: string }, _request, reply) => {
      const status = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
      const expose = error instanceof WardenError ? error.expose : status < 500;
      return reply.code(status).send({ code: error.code ?? 'WARDEN_ERR_INTERNAL', error: expose ? error.message : 'internal error' });
    });
    app.withTypeProvider<TypeBoxTypeProvider>().post('/api/v1/:connector/hook', { schema: { params: HookParams, querystring: HookQuery } }, async (request, reply) => {
      const sandbox = listener.#origin.get(request.raw.socket);
      if (sandbox === undefined) throw new WardenError('WARDEN_ERR_SANDBOX_INGRESS_CREDENTIAL', 'not a sandbox ingress connection', { statusCode: 401 });
      const answer = await handle({
        sandbox, connector: request.params.connector, authorization: request.headers.authorization, body: request.body,
        ...(request.query.event === undefined ? {} : { eventName: request.query.event }),
      });
      if (request.query.native === '1') return reply.type(NATIVE_ANSWER_TYPE).send(nativeAnswerText(answer.native));
      return answer;
    });
    await app.ready();
    return listener;
  }

  /** Starts answering on `path` for `sandbox` (a stale socket file there is replaced). */
  async listen(sandbox: string, path: string): Promise<void> {
    await this.unlisten(sandbox);
    rmSync(path, { force: true });
    const open = new Set<Socket>();
    const server = createNetServer((socket) => {
      open.add(socket);
      socket.once('close', () => open.delete(socket));
      this.#origin.set(socket, sandbox);
      this.#server.emit('connection', socket);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, () => resolve());
    });
    this.#sockets.set(sandbox, { server, path, open });
  }

  /** Whether `sandbox`'s socket is listening and its file is in place (a sandbox cannot remove it: its folder is read-only inside). */
  listening(sandbox: string): boolean {
    const entry = this.#sockets.get(sandbox);
    return entry !== undefined && entry.server.listening && existsSync(entry.path);
  }

  async unlisten(sandbox: string): Promise<void> {
    const entry = this.#sockets.get(sandbox);
    if (!entry) return;
    this.#sockets.delete(sandbox);
    for (const socket of entry.open) socket.destroy();
    await new Promise<void>((resolve) => entry.server.close(() => resolve()));
    rmSync(entry.path, { force: true });
  }

  async close(): Promise<void> {
    await Promise.all([...this.#sockets.keys()].map((name) => this.unlisten(name)));
    this.#server.closeAllConnections();
    await this.#app.close();
  }
}
