// The sandbox API under /api/v1/sandbox/ (spec "Sandbox API"): master token and CSRF as every sidecar route,
// a 256 KiB body limit, strict decoding (unknown field, trailing data, bad JSON: 400 invalid_request; an empty
// optional body means defaults) and the sandbox error body `{code, error, detail?, violation?}`. Until the
// sandbox service runs, every route but /status answers 503. Thin: the manager (src/sandbox/manager/) decides.
// Approvals, egress/unblock and the activity stream are in sandbox-approvals.ts and sandbox-activity.ts.
import type { FastifyError, FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { WardenError } from '../../errors.js';
import { sandboxErrorAnswer, type SandboxErrorBody } from '../../sandbox/errors.js';
import type { SandboxManager } from '../../sandbox/manager/manager.js';
import type { GatewayContext } from '../context.js';
import { SIDECAR_LIMITS } from '../limits.js';
import { sandboxActivityRoutes } from './sandbox-activity.js';
import { runningService } from './sandbox-running.js';
import { sandboxApprovalRoutes } from './sandbox-approvals.js';
import {
  AcceptBody, CreateBody, DeleteBody, ExplainQuery, LogsQuery, NameParams, ReviewBody, StartBody, StopBody, UndoBody, WorkspaceBody,
  SandboxAnswers,
} from './sandbox-schemas.js';

export const SANDBOX_PREFIX = '/api/v1/sandbox';
const bodyLimit = SIDECAR_LIMITS.sandboxBodyBytes;

/** Any failure in the sandbox family as the spec's error body. */
function errorBody(error: unknown): { status: number; body: SandboxErrorBody; unexpected: boolean } {
  const known = sandboxErrorAnswer(error);
  if (known) return { ...known, unexpected: known.status >= 500 && known.body.code === 'internal' };
  const fastifyError = error as FastifyError;
  if (fastifyError.statusCode === 413) return { status: 413, body: { code: 'body_too_large', error: `request body over ${bodyLimit} bytes` }, unexpected: false };
  if (error instanceof WardenError && error.expose) {
    // Auth and CSRF refusals keep their own status and code.
    return { status: error.statusCode ?? 500, body: { code: error.code, error: error.message }, unexpected: false };
  }
  if (fastifyError.validation || (fastifyError.statusCode !== undefined && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500)) {
    return { status: 400, body: { code: 'invalid_request', error: `invalid request: ${fastifyError.message}` }, unexpected: false };
  }
  return { status: 500, body: { code: 'internal', error: 'internal error' }, unexpected: true };
}

/** The manager, or the 503 the spec gives while the runtime does not run. */
function managerOf(ctx: GatewayContext): SandboxManager {
  return runningService(ctx).manager;
}

export async function sandboxRoutes(parent: FastifyInstance, ctx: GatewayContext): Promise<void> {
  await parent.register(async (instance) => {
    // Strict JSON: an empty body is "defaults"; trailing data or bad JSON is refused by the default parser.
    const json = instance.getDefaultJsonParser('error', 'error');
    instance.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, (request, body, done) => {
      if ((body as string).trim() === '') return done(null, {});
      json(request, body as string, done);
    });
    instance.setErrorHandler((error, request, reply) => {
      const answer = errorBody(error);
      if (answer.unexpected) request.log.error({ err: error }, 'sandbox request failed');
      return reply.code(answer.status).send(answer.body);
    });
    instance.setNotFoundHandler((request, reply) => {
      void reply.code(404).send({ code: 'not_found', error: `no route ${request.method} ${request.url.split('?')[0]}` });
    });
    const app = instance.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/status', { schema: { response: SandboxAnswers.status } }, async () => {
      const { config } = ctx.settings;
      const service = ctx.sandbox;
      const manager = service?.manager ?? null;
      const counts = manager?.counts() ?? { sandboxes: 0, running: 0, pending_approvals: 0, orphaned: 0 };
      const reason = !config.openshell.enabled ? 'openshell.enabled is false' : (service?.reason ?? (service ? null : 'no sandbox manager in this gateway'));
      return {
        enabled: config.openshell.enabled,
        available: manager !== null,
        reason,
        gateway: { compute_driver: service?.driverName ?? 'bwrap', limits: service?.limits ?? null, state: service?.state ?? 'error' },
        // Both are Unix sockets, one per running sandbox: the ingress folder, and the egress proxy's socket path.
        ingress_addr: service?.ingress?.address ?? null,
        egress_addr: service?.egressAddress ?? null,
        // Empty (the default) means the shipped `default` pack and the pack itself.
        pack: config.openshell.pack || 'default',
        profile: config.openshell.profile || 'default',
        admin: { configured: config.openshell.admin !== '' },
        counts,
        sandboxes: counts.sandboxes,
        running: counts.running,
        pending_approvals: counts.pending_approvals,
        last_reconcile: manager?.lastReconcile ?? null,
        started_at: service?.startedAt ?? null,
        ...(process.getuid ? { daemon_uid: process.getuid() } : {}),
      };
    });

    app.get('/sandboxes', { schema: { response: SandboxAnswers.list } }, async () => ({ sandboxes: managerOf(ctx).list() }));
    app.post('/sandboxes', { bodyLimit, schema: { body: CreateBody, response: SandboxAnswers.created } }, async (request, reply) => {
      const sandbox = await managerOf(ctx).create(request.body);
      return reply.code(201).send(sandbox);
    });
    app.get('/sandboxes/:name', { schema: { params: NameParams, response: SandboxAnswers.sandbox } }, async (request) => managerOf(ctx).get(request.params.name));
    app.delete('/sandboxes/:name', { bodyLimit, schema: { params: NameParams, body: DeleteBody, response: SandboxAnswers.deleted } }, async (request) =>
      managerOf(ctx).remove(request.params.name, request.body));
    app.post('/sandboxes/:name/stop', { bodyLimit, schema: { params: NameParams, body: StopBody, response: SandboxAnswers.sandbox } }, async (request) =>
      managerOf(ctx).stop(request.params.name));
    app.post('/sandboxes/:name/start', { bodyLimit, schema: { params: NameParams, body: StartBody, response: SandboxAnswers.sandbox } }, async (request) =>
      managerOf(ctx).start(request.params.name, request.body));
    app.post('/sandboxes/:name/undo', { bodyLimit, schema: { params: NameParams, body: UndoBody, response: SandboxAnswers.undo } }, async (request) =>
      managerOf(ctx).undo(request.params.name, request.body));
    app.post('/sandboxes/:name/review', { bodyLimit, schema: { params: NameParams, body: ReviewBody, response: SandboxAnswers.review } }, async (request) =>
      managerOf(ctx).review(request.params.name, request.body));
    app.post('/sandboxes/:name/accept', { bodyLimit, schema: { params: NameParams, body: AcceptBody, response: SandboxAnswers.sandbox } }, async (request) =>
      managerOf(ctx).accept(request.params.name, request.body));
    app.get('/sandboxes/:name/logs', { schema: { params: NameParams, querystring: LogsQuery, response: SandboxAnswers.logs } }, async (request) =>
      managerOf(ctx).logs(request.params.name, request.query.lines ?? 0));
    app.post('/sandboxes/:name/workspace', { bodyLimit, schema: { params: NameParams, body: WorkspaceBody, response: SandboxAnswers.workspace } }, async (request) =>
      managerOf(ctx).recordWorkspace(request.params.name, request.body));
    app.get('/policy/explain', { schema: { querystring: ExplainQuery, response: SandboxAnswers.explain } }, async (request) => managerOf(ctx).explain(request.query));
    sandboxApprovalRoutes(instance, ctx);
    sandboxActivityRoutes(instance, ctx);
  }, { prefix: SANDBOX_PREFIX });
}
