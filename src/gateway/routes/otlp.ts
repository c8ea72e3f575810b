// The OTLP receiver (spec "OTLP receiver"): POST /v1/logs, /v1/metrics, /v1/traces with a scoped OTLP token or the
// gateway token (auth 'otlp'), and POST /otlp/{source}/{token}/v1/{signal} for exporters that cannot set a header
// (auth 'otlp-path': loopback only; the token lives only in the URL, which Warden never logs or records; see
// gateway/runtime.ts's logger serializer). Bodies are read raw (protobuf or JSON, gzip allowed) up to the 64 MiB
// OTLP limit; an oversized one is answered 413 and recorded as a content-free `body_too_large` rejection.
import Type from 'typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { OTLP_CONTENT_TYPES, otlpEncodingOf } from '../../telemetry/otlp/decode.js';
import { SIGNALS, type Signal } from '../../telemetry/otlp/proto.js';
import type { TelemetryContext } from '../../telemetry/context.js';
import type { AuditStore } from '../../audit/store.js';
import type { GatewayContext } from '../context.js';
import { SIDECAR_LIMITS } from '../limits.js';

/**
 * The OTLP answer, in the request's encoding (documentation only: the receiver sends it already encoded): `{}`
 * or `{partialSuccess: {rejectedLogRecords|rejectedDataPoints|rejectedSpans, errorMessage}}` in JSON, the
 * Export*ServiceResponse message in protobuf.
 */
const OTLP_ANSWER = {
  200: {
    description: 'Export*ServiceResponse: empty on full success, partialSuccess when some records were refused',
    content: {
      'application/json': { schema: Type.Unsafe<unknown>(Type.Object({ partialSuccess: Type.Optional(Type.Record(Type.String(), Type.Unknown())) })) },
      'application/x-protobuf': { schema: Type.Unsafe<unknown>(Type.String({ format: 'binary' })) },
    },
  },
};

const PathParams = Type.Object({
  source: Type.String({ description: 'the OTLP source the scoped token belongs to (claudecode, codex)' }),
  token: Type.String({ description: 'the scoped OTLP token (never logged or recorded)' }),
  signal: Type.Union(SIGNALS.map((s) => Type.Literal(s))),
});

const signalOfUrl = (request: FastifyRequest): Signal | undefined =>
  SIGNALS.find((s) => request.routeOptions.url?.endsWith(`/v1/${s}`)) ?? ((request.params as { signal?: Signal } | undefined)?.signal);

async function recordTooLarge(audit: AuditStore, request: FastifyRequest): Promise<void> {
  const signal = signalOfUrl(request);
  // Content-free: which signal and source, never the body, the URL or the token in it.
  await audit.append({
    action: 'otlp-rejected',
    target: signal,
    severity: 'INFO',
    details: 'body_too_large',
    connector: request.otlpGrant?.source,
    structured: { reason: 'body_too_large', signal, limit_bytes: SIDECAR_LIMITS.otlpBodyBytes },
  }).catch(() => {}); // a failed write already reached the audit store's error handler
}

export async function otlpRoutes(fastify: FastifyInstance, ctx: GatewayContext, telemetry: TelemetryContext): Promise<void> {
  await fastify.register(async (instance) => {
    // This family reads its bodies as bytes: protobuf, or JSON decoded by the receiver (after gzip).
    instance.removeAllContentTypeParsers();
    instance.addContentTypeParser(Object.keys(OTLP_CONTENT_TYPES), { parseAs: 'buffer', bodyLimit: SIDECAR_LIMITS.otlpBodyBytes }, (_request, body, done) => done(null, body));
    instance.addHook('onError', async (request, _reply, error) => {
      if ((error as { statusCode?: number }).statusCode === 413) await recordTooLarge(ctx.audit, request);
    });
    const app = instance.withTypeProvider<TypeBoxTypeProvider>();
    /** Both routes: the receiver takes the body and the grant, and its answer goes out in the request's encoding. */
    const ingest = async (request: FastifyRequest, reply: FastifyReply, signal: Signal) => {
      const grant = request.otlpGrant;
      const { answer } = await telemetry.receiver.ingest(signal, request.body as Buffer, {
        encoding: otlpEncodingOf(request.headers['content-type'])!,
        contentEncoding: request.headers['content-encoding'],
        source: grant?.source,
        refusedSources: grant?.refusedSources,
      });
      return reply.type(answer.contentType).send(answer.body);
    };
    const options = { bodyLimit: SIDECAR_LIMITS.otlpBodyBytes };
    for (const signal of SIGNALS) {
      app.post(`/v1/${signal}`, { ...options, config: { auth: 'otlp' }, schema: { summary: `OTLP/HTTP ${signal} (application/json or application/x-protobuf, gzip allowed)`, response: OTLP_ANSWER } }, async (request, reply) => ingest(request, reply, signal));
    }
    app.post('/otlp/:source/:token/v1/:signal', {
      ...options, config: { auth: 'otlp-path' },
      schema: { summary: 'OTLP/HTTP with the scoped token in the path (loopback only)', params: PathParams, response: OTLP_ANSWER },
    }, async (request, reply) => ingest(request, reply, request.params.signal));
  });
}
