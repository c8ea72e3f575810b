// `GET /api/v1/sandbox/activity` (spec "Events" item 2): the kept events after `since` as `{events}`, or, with
// `follow=true` or `Accept: text/event-stream`, a server-sent event stream: the replay after `since` or the
// `Last-Event-ID` header (which wins), a `: keepalive` comment, then live events as `id: <seq>`, `event:
// activity`, `data: <json>`, with a keepalive comment at the log's interval. `sandbox` filters. A reader that
// cannot keep up is not buffered without bound: the socket's back-pressure leaves events in the subscription's
// bounded queue, which then skips events and hands over one `dropped` event (sent without an `id:`, so a
// reconnect with Last-Event-ID still replays what it missed while the log keeps it).
import Type from 'typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ServerResponse } from 'node:http';
import type { ActivityEvent } from '../../sandbox/activity/types.js';
import { SandboxApiError } from '../../sandbox/errors.js';
import type { GatewayContext } from '../context.js';
import { runningService } from './sandbox-running.js';
import { ActivityAnswer } from './sandbox-schemas.js';

const ActivityQuery = Type.Object(
  {
    sandbox: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    since: Type.Optional(Type.Integer({ minimum: 0, description: 'Only events with a higher seq.' })),
    follow: Type.Optional(Type.Boolean({ description: 'Answer with a server-sent event stream.' })),
  },
  { additionalProperties: false },
);

/** The Last-Event-ID header as a seq; 400 when it is not one. */
function lastEventId(header: string | string[] | undefined): number | undefined {
  if (header === undefined) return undefined;
  const value = Array.isArray(header) ? header[0]! : header;
  if (!/^[0-9]{1,15}$/.test(value.trim())) throw new SandboxApiError('invalid_request', 'Last-Event-ID must be the seq of an activity event');
  return Number(value.trim());
}

function frame(event: ActivityEvent): string {
  const data = `event: activity\ndata: ${JSON.stringify(event)}\n\n`;
  return event.kind === 'dropped' ? data : `id: ${event.seq}\n${data}`;
}

export function sandboxActivityRoutes(instance: FastifyInstance, ctx: GatewayContext): void {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  // Open streams are ended when the listener closes (a restart or a stop), or the close would wait on them.
  const streams = new Set<ServerResponse>();
  instance.addHook('preClose', (done) => {
    for (const stream of streams) stream.end();
    done();
  });

  app.get('/activity', { schema: { querystring: ActivityQuery, response: ActivityAnswer } }, async (request, reply) => {
    const { activity } = runningService(ctx);
    const { sandbox } = request.query;
    const after = lastEventId(request.headers['last-event-id']) ?? request.query.since ?? 0;
    const wantsStream = request.query.follow === true || (request.headers.accept ?? '').includes('text/event-stream');
    if (!wantsStream) return { events: activity.since(after, sandbox) };

    const raw = reply.raw;
    let blocked = false;
    const write = (text: string) => {
      if (raw.writableEnded || raw.destroyed) return;
      if (!raw.write(text)) blocked = true;
    };
    // Events wait in the subscription while the socket pushes back; `take` then hands them over in order.
    const pump = () => {
      if (blocked || raw.writableEnded || raw.destroyed) return;
      for (const event of subscription.take()) write(frame(event));
    };
    const subscription = activity.subscribe(sandbox, pump); // 429 past the stream limit, before any byte is sent
    reply.hijack();
    streams.add(raw);
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
      'x-request-id': request.id,
    });
    for (const event of activity.since(after, sandbox)) write(frame(event));
    write(': keepalive\n\n');
    pump();
    raw.on('drain', () => {
      blocked = false;
      pump();
    });
    const keepalive = setInterval(() => {
      if (!blocked) write(': keepalive\n\n');
    }, activity.keepaliveMs);
    raw.once('close', () => {
      clearInterval(keepalive);
      subscription.close();
      streams.delete(raw);
    });
  });
}
