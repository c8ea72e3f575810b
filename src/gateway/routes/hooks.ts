// POST /api/v1/<connector>/hook: the hook pipeline (connectors/hook-pipeline.ts: decode the agent's native hook
// payload, inspect it, record the verdict as a warden.hook.v1 audit row, committed before the answer) answered as
// the common hook response with the agent's native answer inside (`native`, which the hook script prints and exits
// with). Pre- and post-tool events of a session also advance the ordered chains (see connectors/hook-inspection.ts). `?native=1` answers only the native answer, as
// text a shell script prints as is (connectors/hook-answer-text.ts); `?event=` names the event for payloads
// that name none, as the installed hook command knows it.
// POST /api/v1/<connector>/notify: the turn-complete notifier of a connector that has one (Codex's `notify`
// program: {"type": "agent-turn-complete", "thread-id", "turn-id", "cwd", "input-messages",
// "last-assistant-message"}), judged and recorded as that connector's hook event and answered the same way; the
// connector's hook token opens it as it opens the hook route.
import Type from 'typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { WardenError } from '../../errors.js';
import type { HookAgent } from '../../connectors/definition.js';
import { findHookAgent } from '../../connectors/registry.js';
import { NATIVE_ANSWER_TYPE, nativeAnswerText } from '../../connectors/hook-answer-text.js';
import { runHook } from '../../connectors/hook-pipeline.js';
import type { GatewayContext } from '../context.js';
import { ErrorBody } from './answers.js';

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

/** Each agent sends its own payload (docs/hooks.md); the connector decodes it, so the route takes any JSON. */
const HookBody = Type.Unknown({ description: "the agent's native hook payload (Claude Code's hook_event_name/tool_name/tool_input, Cursor's, …)" });

/** Typed `unknown` for the handler: with ?native=1 the route answers text/plain, which Fastify sends unserialised. */
const HookAnswer = Type.Unsafe<unknown>(Type.Object({
  action: Type.String({ description: 'allow, alert, confirm or block' }),
  reason: Type.String(),
  findings: Type.Array(Type.String()),
  evaluation_id: Type.Optional(Type.String()),
  rule_ids: Type.Optional(Type.Array(Type.String())),
  native: Type.Unknown({ description: "the answer in the agent's own form, which the hook script prints (with ?native=1 the whole answer, as text/plain)" }),
}));

const NativeQuery = Type.Object({ native: HookQuery.properties.native });

/** Codex's notify payload; fields it may add later are kept (the decoder reads what it knows). */
const NotifyBody = Type.Object({
  type: Type.Literal('agent-turn-complete'),
  'thread-id': Type.Optional(Type.String({ maxLength: 256 })),
  'turn-id': Type.Optional(Type.String({ maxLength: 256 })),
  cwd: Type.Optional(Type.String({ maxLength: 4096 })),
  'input-messages': Type.Optional(Type.Array(Type.String())),
  'last-assistant-message': Type.Optional(Type.Union([Type.String(), Type.Null()])),
}, { additionalProperties: true });

/** Runs the pipeline and answers the common hook response, or the native answer as text with ?native=1. */
async function answerHook(ctx: GatewayContext, hooks: HookAgent, body: unknown, nativeText: boolean, reply: FastifyReply, eventName?: string) {
  const { decision, verdict, ruleIds, evaluationId, native } = await runHook(ctx, hooks, body, eventName === undefined ? {} : { eventName });
  if (nativeText) return reply.type(NATIVE_ANSWER_TYPE).send(nativeAnswerText(native));
  return {
    action: decision.action,
    reason: decision.reason,
    findings: verdict.findings,
    ...(evaluationId ? { evaluation_id: evaluationId, rule_ids: ruleIds } : {}),
    native,
  };
}

export function hookRoutes(fastify: FastifyInstance, ctx: GatewayContext): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post('/api/v1/:connector/hook', {
    schema: { params: HookParams, querystring: HookQuery, body: HookBody, response: { 200: HookAnswer, 400: ErrorBody, 404: ErrorBody } },
  }, async (request, reply) => {
    const { connector } = request.params;
    const hooks = findHookAgent(connector);
    if (!hooks) throw new WardenError('WARDEN_ERR_HOOK_UNKNOWN_CONNECTOR', `no hook connector "${connector}"`, { statusCode: 404 });
    // An undecodable payload throws HookPayloadError: 400 with its code, from the error handler.
    return answerHook(ctx, hooks, request.body, request.query.native === '1', reply, request.query.event);
  });

  app.post('/api/v1/:connector/notify', { schema: { params: HookParams, querystring: NativeQuery, body: NotifyBody, response: { 200: HookAnswer, 400: ErrorBody, 404: ErrorBody } } }, async (request, reply) => {
    const { connector } = request.params;
    const hooks = findHookAgent(connector);
    if (!hooks?.telemetry.includes('notify')) {
      throw new WardenError('WARDEN_ERR_HOOK_UNKNOWN_CONNECTOR', `no connector "${connector}" with a turn-complete notifier`, { statusCode: 404 });
    }
    return answerHook(ctx, hooks, request.body, request.query.native === '1', reply);
  });
}
