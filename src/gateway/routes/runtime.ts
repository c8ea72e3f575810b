// Runtime control (spec document 1 "Runtime control"): a graceful shutdown asked over loopback by a caller that
// names this process and its data directory; a trace canary; the watchdog's recovery record; the CLI's
// destination-test activity and its own events. Each record is an audit row, answered once committed (the CLI
// events keep their names and fields in it), and reaches the observability destinations through the event writer.
import { randomBytes } from 'node:crypto';
import Type from 'typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { isLoopbackAddress } from '../../config/bind.js';
import { dataDirIdentity } from '../../config/data-dir-identity.js';
import { oneOf } from '../../config/schema.js';
import { WardenError } from '../../errors.js';
import { callerClient, redactCallerData } from '../caller-data.js';
import type { GatewayContext } from '../context.js';
import { acceptEmptyBody } from '../plugins/no-body.js';
import { StatusOk } from './answers.js';

/** The exact X-Warden-Client marker of the destination-test recorder (the operator CLI), as the spec writes it. */
const DESTINATION_TEST_CLIENT = 'python-cli';

const strict = { additionalProperties: false } as const;
const Name = Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$' });
const Amount = (description: string) => Type.Number({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description });

const ShutdownBody = Type.Object({
  pid: Type.Integer({ minimum: 1, description: 'The gateway\'s process id (`GET /status` runtime.pid, or `$WARDEN_HOME/gateway.json`).' }),
  data_dir_id: Type.String({ pattern: '^[0-9a-f]{32}$', description: 'The data directory\'s identity (`GET /status` runtime.data_dir_id).' }),
}, strict);

const CanaryBody = Type.Object({ name: Type.Optional(Name) }, strict);

const WatchdogBody = Type.Object({
  component: Type.Optional(Name),
  reason: Type.Optional(Type.String({ maxLength: 512 })),
  downtime_ms: Type.Optional(Amount('How long the gateway was unhealthy before it recovered.')),
}, strict);

const DestinationTestBody = Type.Object({
  phase: oneOf(['started', 'finished'] as const),
  destination: Name,
  probe_id: Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$' }),
  mode: oneOf(['handshake', 'event'] as const, { description: '`handshake` checks the connection; `event` sends a test record.' }),
  result: Type.Optional(oneOf(['succeeded', 'failed'] as const, { description: 'Required when finished, refused when started.' })),
  failure_class: Type.Optional(oneOf(['timeout', 'auth', 'tls', 'network', 'rejected', 'other'] as const, { description: 'Only with result failed.' })),
  latency_ms: Type.Optional(Amount('Round trip of the probe.')),
}, strict);

const CliAttributes = Type.Record(Type.String({ pattern: '^[a-z][a-z0-9_.]{0,63}$' }), Type.Union([Type.String({ maxLength: 1024 }), Type.Number(), Type.Boolean()]), {
  maxProperties: 32,
});
const CliEvent = Type.Object({
  event: Type.String({ pattern: '^[a-z][a-z0-9_.-]{0,63}$', description: 'e.g. `command.started`, `command.finished`.' }),
  command: Type.String({ minLength: 1, maxLength: 256, description: 'The command line\'s command words (no arguments), e.g. `setup codex`.' }),
  timestamp: Type.Optional(Type.String({ format: 'date-time' })),
  outcome: Type.Optional(oneOf(['ok', 'error'] as const)),
  exit_code: Type.Optional(Type.Integer({ minimum: 0, maximum: 255 })),
  duration_ms: Type.Optional(Amount('How long the command ran.')),
  session_id: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  attributes: Type.Optional(CliAttributes),
}, strict);
const CliBody = Type.Object({ events: Type.Array(CliEvent, { minItems: 1, maxItems: 100 }) }, strict);

function requireLoopback(request: FastifyRequest): void {
  if (!isLoopbackAddress(request.ip)) {
    throw new WardenError('WARDEN_ERR_RUNTIME_LOOPBACK_ONLY', `${request.url.split('?')[0]} is answered over loopback only`, { statusCode: 403 });
  }
}

export function runtimeRoutes(fastify: FastifyInstance, ctx: GatewayContext): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  // The canary and the watchdog's record may be posted without a body.
  acceptEmptyBody(fastify);
  const identity = dataDirIdentity(ctx.settings.paths.home);

  app.post('/api/v1/admin/shutdown', {
    schema: { body: ShutdownBody, response: { 202: Type.Object({ status: Type.Literal('shutting_down'), pid: Type.Integer() }) } },
  }, async (request, reply) => {
    requireLoopback(request);
    const { pid, data_dir_id: id } = request.body;
    if (pid !== process.pid) {
      throw new WardenError('WARDEN_ERR_RUNTIME_PID_MISMATCH', `pid ${pid} is not this gateway's; nothing was stopped`, { statusCode: 409 });
    }
    if (id !== identity) {
      throw new WardenError('WARDEN_ERR_RUNTIME_DATA_DIR_MISMATCH', 'data_dir_id does not name this gateway\'s data directory; nothing was stopped', { statusCode: 409 });
    }
    await ctx.audit.append({ action: 'admin-shutdown', actor: callerClient(request), severity: 'INFO', details: 'graceful shutdown requested through the API', structured: { pid } });
    // The shutdown closes this listener: it starts once the answer has left.
    reply.raw.once('finish', () => ctx.lifecycle.requestShutdown());
    return reply.code(202).send({ status: 'shutting_down' as const, pid });
  });

  app.post('/api/v1/telemetry/canary', {
    schema: { body: CanaryBody, response: { 200: Type.Object({ status: Type.Literal('ok'), trace_id: Type.String(), span_id: Type.String() }) } },
  }, async (request) => {
    // A W3C trace context of our own: the canary is found downstream by this trace id.
    const traceId = randomBytes(16).toString('hex');
    const spanId = randomBytes(8).toString('hex');
    await ctx.audit.append({
      action: 'telemetry-canary', actor: callerClient(request), severity: 'INFO', trace_id: traceId,
      details: 'trace canary', structured: { span_id: spanId, ...(request.body.name ? { name: request.body.name } : {}) },
    });
    return { status: 'ok' as const, trace_id: traceId, span_id: spanId };
  });

  app.post('/api/v1/watchdog/recovery', { schema: { body: WatchdogBody, response: { 200: StatusOk } } }, async (request) => {
    requireLoopback(request);
    const { reason, ...fields } = request.body;
    await ctx.audit.append({
      action: 'watchdog-recovery', actor: callerClient(request), severity: 'INFO',
      details: reason ? redactCallerData(ctx, reason) : 'the watchdog saw the gateway recover', structured: fields,
    });
    return { status: 'ok' as const };
  });

  app.post('/api/v1/observability/destination-test/activity', { schema: { body: DestinationTestBody, response: { 200: StatusOk } } }, async (request) => {
    requireLoopback(request);
    // Exactly one header with exactly the marker (Node joins repeated X- headers with ", ").
    if (request.headers['x-warden-client'] !== DESTINATION_TEST_CLIENT) {
      throw new WardenError('WARDEN_ERR_RUNTIME_CLIENT_MARKER', `this route records the operator CLI's destination tests: X-Warden-Client must be exactly ${DESTINATION_TEST_CLIENT}`, { statusCode: 403 });
    }
    const activity = request.body;
    const finished = activity.phase === 'finished';
    if (finished !== (activity.result !== undefined) || (activity.failure_class !== undefined && activity.result !== 'failed')) {
      throw new WardenError('WARDEN_ERR_RUNTIME_ACTIVITY_INVALID', 'a finished test carries its result (and a failure_class only when failed); a started one carries neither', { statusCode: 400 });
    }
    await ctx.audit.append({
      action: `observability-destination-test-${activity.phase}`, target: activity.destination, actor: DESTINATION_TEST_CLIENT,
      severity: 'INFO', structured: activity,
    });
    return { status: 'ok' as const };
  });

  app.post('/api/v1/observability/cli', {
    schema: { body: CliBody, response: { 200: Type.Object({ status: Type.Literal('ok'), accepted: Type.Integer() }) } },
  }, async (request) => {
    const { events } = request.body;
    // One batch: the rows commit together (group commit), and the answer waits for all of them.
    await Promise.all(events.map(({ event, command, timestamp, session_id, attributes, ...fields }) => ctx.audit.append({
      action: `cli-${event}`, target: command, actor: callerClient(request), severity: 'INFO', timestamp, session_id,
      structured: { ...fields, ...(attributes ? { attributes: redactCallerData(ctx, attributes) } : {}) },
    })));
    return { status: 'ok' as const, accepted: events.length };
  });
}
