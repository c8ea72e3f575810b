// POST /api/v1/<connector>/hook: the hook pipeline (connectors/hook-pipeline.ts: decode the agent's native hook
// payload, inspect it, record the verdict as a warden.hook.v1 audit row, committed before the answer) answered as
// the common hook response with the agent's native answer inside (`native`, which the hook script prints and exits
// with). Pre- and post-tool events of a session also advance the ordered chains (see connectors/hook-inspection.ts). `?native=1` answers only the native answer, as
// text a shell script prints as is (connectors/hook-answer-text.ts); `?event=` names the event for payloads
// that name none, as the installed hook command knows it.
import Type from 'typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { WardenError } from '../../errors.js';
import { findHookAgent } from '../../connectors/registry.js';
import { NATIVE_ANSWER_TYPE, nativeAnswerText } from '../../connectors/hook-answer-text.js';
import { runHook } from '../../connectors/hook-pipeline.js';
import type { GatewayContext } from '../context.js';

const HookQuery = Type.Object({
  native: Type.Optional(Type.Literal('1', {
    description: 'answer only the native answer, as text/plain: the exit code, a line for stdout, then stderr (docs/hooks.md); errors stay JSON',
  })),
  event: Type.Optional(Type.String({
    pattern: '^[\\w.:-]{1,64}$',
    description: 'the event the hook command is installed for: set as hook_event_name when the payload names none (Copilot, Antigravity)',
  })),
});

const HookParams = Type.Object({ connector: Type.String() });

export function hookRoutes(fastify: FastifyInstance, ctx: GatewayContext): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post('/api/v1/:connector/hook', { schema: { params: HookParams, querystring: HookQuery } }, async (request, reply) => {
    const { connector } = request.params;
    const hooks = findHookAgent(connector);
    if (!hooks) throw new WardenError('WARDEN_ERR_HOOK_UNKNOWN_CONNECTOR', `no hook connector "${connector}"`, { statusCode: 404 });
    // An undecodable payload throws HookPayloadError: 400 with its code, from the error handler.
    const { decision, verdict, ruleIds, evaluationId, native } = await runHook(ctx, hooks, request.body, {
      ...(request.query.event === undefined ? {} : { eventName: request.query.event }),
    });
    if (request.query.native === '1') return reply.type(NATIVE_ANSWER_TYPE).send(nativeAnswerText(native));
    return {
      action: decision.action,
      reason: decision.reason,
      findings: verdict.findings,
      ...(evaluationId ? { evaluation_id: evaluationId, rule_ids: ruleIds } : {}),
      native,
    };
  });
}
