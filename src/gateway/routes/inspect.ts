// POST /api/v1/inspect/{tool,request,response,tool-response}: validate, call the inspector, record the
// verdict in the audit trail, answer the verdict once its row is committed (group commit keeps that cheap).
import Type from 'typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { uuidv7 } from '../../util/uuidv7.js';
import type { InspectResult } from '../../guardrail/inspector.js';
import { oneOf } from '../../config/schema.js';
import { WardenError } from '../../errors.js';
import { callerClient } from '../caller-data.js';
import type { GatewayContext } from '../context.js';

const Text = Type.String({ maxLength: 1024 * 1024 });
const Session = { session_id: Type.Optional(Type.String({ maxLength: 256 })) };

const ToolBody = Type.Object(
  {
    tool: Type.String({ minLength: 1, maxLength: 256 }),
    args: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    content: Type.Optional(Text),
    direction: Type.Optional(Type.Union([Type.Literal('inbound'), Type.Literal('outbound')])),
    approval_surface: Type.Optional(Type.Union([Type.Literal('native'), Type.Literal('none')])),
    cwd: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, pattern: '^/', description: 'the working directory the call runs in (the project root for path scopes)' })),
    ...Session,
  },
  { additionalProperties: false },
);

const MessagePart = Type.Union([Type.String(), Type.Object({ type: Type.String(), text: Type.Optional(Type.String()) })]);
const RequestBody = Type.Object(
  {
    content: Type.Optional(Text),
    messages: Type.Optional(Type.Array(Type.Object({ role: Type.String(), content: Type.Union([Type.String(), Type.Array(MessagePart), Type.Null()]) }))),
    model: Type.Optional(Type.String()),
    ...Session,
  },
  { additionalProperties: false },
);
const ResponseBody = Type.Object({ content: Text, model: Type.Optional(Type.String()), ...Session }, { additionalProperties: false });
const ToolResponseBody = Type.Object({ tool: Type.String({ minLength: 1, maxLength: 256 }), output: Text, ...Session }, { additionalProperties: false });

const Action = oneOf(['block', 'confirm', 'alert', 'allow'] as const);
/** The verdict as answered (spec "Inspection verdict"); also lets Fastify serialise it without JSON.stringify. */
const VerdictBody = Type.Object({
  action: Action,
  raw_action: Type.Optional(Action),
  severity: Type.String(),
  confidence: Type.Number(),
  reason: Type.String(),
  findings: Type.Array(Type.String()),
  detailed_findings: Type.Optional(Type.Array(Type.Object({
    rule_id: Type.String(),
    title: Type.String(),
    severity: Type.String(),
    confidence: Type.Number(),
    evidence: Type.String(),
    tags: Type.Array(Type.String()),
    tool_capability_class: Type.Optional(Type.String()),
  }))),
  mode: Type.String(),
  would_block: Type.Optional(Type.Boolean()),
  approval_timeout_ms: Type.Optional(Type.Integer()),
});
const answers = { 200: VerdictBody, 400: Type.Object({ error: Type.String(), code: Type.String() }) };

const reveals = (request: FastifyRequest) => request.headers['x-warden-reveal-pii'] === '1';

export function inspectRoutes(fastify: FastifyInstance, ctx: GatewayContext): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const record = (request: FastifyRequest, route: string, target: string, result: InspectResult, sessionId?: string) => {
    const { verdict } = result;
    return ctx.audit.append({
      action: `inspect-${route}-${verdict.action}`,
      target,
      actor: callerClient(request),
      severity: verdict.severity,
      details: verdict.reason || undefined,
      connector: typeof request.headers['x-warden-connector'] === 'string' ? request.headers['x-warden-connector'] : undefined,
      session_id: sessionId,
      evaluation_id: uuidv7(),
      structured: { raw_action: verdict.raw_action, mode: verdict.mode, rule_ids: result.findings.map((f) => f.rule.id) },
    });
  };

  app.post('/api/v1/inspect/tool', { schema: { body: ToolBody, response: answers } }, async (request) => {
    const body = request.body;
    const reveal = reveals(request);
    let result: InspectResult;
    if (body.tool === 'message') {
      // The message lane: content, never the structured tool-call rules.
      if (body.content === undefined || body.direction === undefined) {
        throw new WardenError('WARDEN_ERR_REQUEST_INVALID', 'tool "message" needs content and direction', { statusCode: 400 });
      }
      result = ctx.inspector.text(body.content, { reveal });
    } else {
      result = ctx.inspector.tool(body.tool, body.args, { reveal, nativeApproval: body.approval_surface === 'native', cwd: body.cwd });
    }
    const recorded = record(request, 'tool', body.tool, result, body.session_id);
    if (reveal) {
      await ctx.audit.append({ action: 'inspect-reveal', target: body.tool, severity: 'INFO', session_id: body.session_id, details: 'raw evidence revealed to the caller' });
    }
    await recorded;
    return result.verdict;
  });

  app.post('/api/v1/inspect/request', { schema: { body: RequestBody, response: answers } }, async (request) => {
    const result = ctx.inspector.text(request.body.content ?? lastTurnText(request.body.messages ?? []), { reveal: reveals(request) });
    await record(request, 'request', request.body.model ?? 'request', result, request.body.session_id);
    return result.verdict;
  });

  app.post('/api/v1/inspect/response', { schema: { body: ResponseBody, response: answers } }, async (request) => {
    const result = ctx.inspector.text(request.body.content, { reveal: reveals(request) });
    await record(request, 'response', request.body.model ?? 'response', result, request.body.session_id);
    return result.verdict;
  });

  app.post('/api/v1/inspect/tool-response', { schema: { body: ToolResponseBody, response: answers } }, async (request) => {
    const result = ctx.inspector.text(request.body.output, { reveal: reveals(request) });
    await record(request, 'tool-response', request.body.tool, result, request.body.session_id);
    return result.verdict;
  });
}

type Message = { role: string; content: string | ({ type: string; text?: string } | string)[] | null };

/** The text an LLM request adds: the last user message and everything after it (tool results). */
function lastTurnText(messages: Message[]): string {
  let start = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]!.role === 'user') {
      start = i;
      break;
    }
  }
  return messages
    .slice(start)
    .filter((m) => m.role !== 'assistant')
    .map((m) => (typeof m.content === 'string' ? m.content : (m.content ?? []).map((p) => (typeof p === 'string' ? p : (p.text ?? ''))).join('\n')))
    .join('\n');
}
