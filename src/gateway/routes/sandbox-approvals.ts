// The sandbox API's approval and unblock routes (spec "Sandbox API": `GET /approvals`, `POST /approvals/{id}`,
// `POST /egress/unblock`), registered inside the sandbox family (its token, CSRF, body limit, strict decoding and
// error body). Thin: src/sandbox/approvals/ decides; an `always` that wrote config.yaml is applied to the running
// settings here (its `openshell.egress` alone), without a listener restart.
import Type from 'typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from '../../config/schema.js';
import type { GatewayContext } from '../context.js';
import { SIDECAR_LIMITS } from '../limits.js';
import { runningService } from './sandbox-running.js';
import { ApprovalAnswers } from './sandbox-schemas.js';

const strict = { additionalProperties: false } as const;
const bodyLimit = SIDECAR_LIMITS.sandboxBodyBytes;
const SandboxName = Type.String({ minLength: 1, maxLength: 64 });

const ApprovalsQuery = Type.Object({ sandbox: Type.Optional(SandboxName) }, strict);
const ApprovalParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const DecideBody = Type.Object(
  {
    decision: Type.Union([Type.Literal('approve'), Type.Literal('reject')]),
    always: Type.Optional(Type.Boolean({ description: 'Also approve (or reject) the host for every sandbox, saved in config.yaml.' })),
    reason: Type.Optional(Type.String({ maxLength: 1024 })),
  },
  strict,
);
const UnblockBody = Type.Object(
  {
    host: Type.String({ minLength: 1, maxLength: 300 }),
    sandbox: Type.Optional(SandboxName),
    always: Type.Optional(Type.Boolean({ description: 'For every sandbox, saved to openshell.egress.unblocked; required without sandbox.' })),
  },
  strict,
);

export function sandboxApprovalRoutes(instance: FastifyInstance, ctx: GatewayContext): void {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  // Only the lists this route wrote: another edit of config.yaml still waiting for its reload stays unapplied.
  const applyWritten = (written: Config | undefined) => {
    if (!written) return;
    const { config } = ctx.settings;
    ctx.settings = { ...ctx.settings, config: { ...config, openshell: { ...config.openshell, egress: written.openshell.egress } } };
  };

  app.get('/approvals', { schema: { querystring: ApprovalsQuery, response: ApprovalAnswers.list } }, async (request) => ({
    approvals: runningService(ctx).approvals.list(request.query.sandbox),
  }));

  app.post('/approvals/:id', { bodyLimit, schema: { params: ApprovalParams, body: DecideBody, response: ApprovalAnswers.decided } }, async (request) => {
    const { config, ...answer } = runningService(ctx).approvals.decide(request.params.id, request.body);
    applyWritten(config);
    return answer;
  });

  app.post('/egress/unblock', { bodyLimit, schema: { body: UnblockBody, response: ApprovalAnswers.unblocked } }, async (request) => {
    const { config, answer } = runningService(ctx).unblock(request.body);
    applyWritten(config);
    return answer;
  });
}
