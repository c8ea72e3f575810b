// The guardrail control plane (spec document 1 "Guardrail control plane"): telemetry for a verdict decided
// elsewhere (/v1/guardrail/event), a verdict over precomputed local and remote scan results
// (/v1/guardrail/evaluate, guardrail/precomputed.ts), and the running guardrail settings (/v1/guardrail/config).
// Thin: the domain decides and writes config.yaml (guardrail/runtime-settings.ts); a change is applied through
// the central reloader (gateway/reload.ts) or, for the connector, by restarting the listeners after the answer.
// Both recording routes answer once their audit row is committed; the event writer sends audit rows on to the
// observability destinations (src/telemetry/events/from-audit.ts).
import Type from 'typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { AUDIT_SEVERITIES } from '../../audit/events.js';
import { ConfigError } from '../../config/load.js';
import { oneOf, SEVERITIES } from '../../config/schema.js';
import { MAX_BLOCK_MESSAGE_CHARS, SCANNER_MODES } from '../../config/sections/guardrail-runtime.js';
import { WardenError } from '../../errors.js';
import { decidePrecomputed } from '../../guardrail/precomputed.js';
import { guardrailSnapshot, PATCHABLE_KEYS, writeGuardrailPatch } from '../../guardrail/runtime-settings.js';
import { verdictThresholds } from '../../guardrail/thresholds.js';
import { bearerToken } from '../../util/bearer.js';
import { TokenMatcher } from '../../util/token-matcher.js';
import { callerClient, redactCallerData } from '../caller-data.js';
import type { GatewayContext } from '../context.js';
import { applyWrittenGuardrail } from '../reload.js';
import { StatusOk } from './answers.js';

const Identifier = (description: string) => Type.String({ minLength: 1, maxLength: 256, pattern: '^[A-Za-z0-9][A-Za-z0-9._:/@+-]*$', description });
/** Finite by construction: JSON has no NaN or Infinity, and a number too large for a double is refused. */
const Amount = (description: string) => Type.Number({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description });
const Count = (description: string) => Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description });
const Direction = oneOf(['prompt', 'completion'] as const, { description: '`prompt` (on its way to the model) or `completion` (the model\'s answer).' });
const Mode = oneOf(['observe', 'action'] as const);
const Findings = Type.Array(Type.String({ minLength: 1, maxLength: 512 }), { maxItems: 100 });
const strict = { additionalProperties: false } as const;

const EventBody = Type.Object({
  evaluation_id: Identifier('The id the deciding component gave this evaluation: the anchor that joins its records.'),
  direction: Direction,
  action: oneOf(['allow', 'alert', 'block'] as const),
  severity: oneOf(AUDIT_SEVERITIES),
  model: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  reason: Type.Optional(Type.String({ maxLength: 4096 })),
  findings: Type.Optional(Findings),
  connector: Type.Optional(Type.String({ pattern: '^[a-z0-9][a-z0-9_-]{0,63}$' })),
  session_id: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  trace_id: Type.Optional(Type.String({ pattern: '^[0-9a-f]{32}$', description: 'W3C trace id of the call.' })),
  elapsed_ms: Type.Optional(Amount('How long the local decision took.')),
  scanner_elapsed_ms: Type.Optional(Amount('How long the remote scanner took.')),
  tokens_in: Type.Optional(Count('Prompt tokens of the call.')),
  tokens_out: Type.Optional(Count('Completion tokens of the call.')),
}, strict);

const LocalResult = Type.Object({
  severity: oneOf(AUDIT_SEVERITIES),
  action: Type.Optional(Type.String({ maxLength: 32 })),
  findings: Type.Optional(Findings),
  reason: Type.Optional(Type.String({ maxLength: 4096 })),
  is_safe: Type.Optional(Type.Boolean()),
}, { ...strict, description: 'The result of Warden\'s own scan, as the caller ran it.' });

const RemoteRule = Type.Object({
  rule_name: Type.Optional(Type.String({ maxLength: 256 })),
  rule_id: Type.Optional(Type.Union([Type.Integer(), Type.String({ maxLength: 128 })])),
  classification: Type.Optional(Type.String({ maxLength: 128 })),
  entity_types: Type.Optional(Type.Array(Type.String({ maxLength: 256 }), { maxItems: 64 })),
}, { additionalProperties: true });

// Cisco AI Defense's inspection answer; fields this route does not read are allowed (the service adds some).
const RemoteResult = Type.Object({
  is_safe: Type.Boolean(),
  severity: Type.Optional(Type.String({ maxLength: 64 })),
  classifications: Type.Optional(Type.Array(Type.String({ maxLength: 128 }), { maxItems: 32 })),
  rules: Type.Optional(Type.Array(RemoteRule, { maxItems: 100 })),
  action: Type.Optional(Type.String({ maxLength: 32 })),
  explanation: Type.Optional(Type.String({ maxLength: 4096 })),
  attack_technique: Type.Optional(Type.String({ maxLength: 256 })),
  event_id: Type.Optional(Type.String({ maxLength: 256 })),
}, { additionalProperties: true, description: 'A remote inspection answer in Cisco AI Defense\'s shape (is_safe, severity, classifications, rules, action).' });

const EvaluateBody = Type.Object({
  evaluation_id: Identifier('The id of this evaluation, stamped on its audit row.'),
  direction: Direction,
  mode: Mode,
  scanner_mode: Type.Optional(oneOf(SCANNER_MODES)),
  model: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  scanner: Type.Optional(Type.String({ pattern: '^[a-z0-9][a-z0-9_.-]{0,63}$', description: 'Name of the remote scanner (default `cisco-ai-defense`).' })),
  local_result: Type.Optional(LocalResult),
  cisco_result: Type.Optional(RemoteResult),
  content: Type.Optional(Type.String({ description: 'The judged text: never scanned nor stored, only its length is recorded.' })),
  content_length: Type.Optional(Count('Length of the judged text, when `content` is not sent.')),
  elapsed_ms: Type.Optional(Amount('How long the local scan took.')),
  scanner_elapsed_ms: Type.Optional(Amount('How long the remote scanner took.')),
  session_id: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
}, strict);

const EvaluateAnswer = Type.Object({
  action: oneOf(['allow', 'alert', 'block'] as const),
  severity: oneOf(AUDIT_SEVERITIES),
  reason: Type.String(),
  scanner_sources: Type.Array(Type.String()),
  raw_action: Type.String(),
  mode: Mode,
  would_block: Type.Optional(Type.Boolean()),
});

const Snapshot = Type.Object({
  enabled: Type.Boolean(), mode: Mode, scanner_mode: oneOf(SCANNER_MODES), block_message: Type.String(), connector: Type.String(),
  connectors: Type.Array(Type.String()), hilt_enabled: Type.Boolean(), hilt_min_severity: oneOf(SEVERITIES), rule_pack: Type.String(),
  block_at: oneOf(SEVERITIES), alert_at: oneOf(SEVERITIES), hook_fail_mode: Type.String(), deployment_mode: Type.String(),
});

const PatchBody = Type.Object({
  mode: Type.Optional(Mode),
  scanner_mode: Type.Optional(oneOf(SCANNER_MODES)),
  block_message: Type.Optional(Type.String({ maxLength: MAX_BLOCK_MESSAGE_CHARS })),
  connector: Type.Optional(Type.String({ pattern: '^[a-z0-9][a-z0-9_-]{0,63}$' })),
  hilt_enabled: Type.Optional(Type.Boolean()),
  hilt_min_severity: Type.Optional(oneOf(SEVERITIES)),
}, { ...strict, minProperties: 1, description: `Any of ${PATCHABLE_KEYS.join(', ')}; other fields are refused.` });

const PatchAnswer = Type.Object({
  status: oneOf(['updated', 'unchanged', 'restart_requested'] as const),
  /** Whether the answer's config is already in force (false while the listeners restart). */
  live: Type.Boolean(),
  changed: Type.Array(Type.String()),
  config: Snapshot,
});

/**
 * The PATCH route's second check (spec "Authentication" item 3): the gateway token in `Authorization: Bearer` or
 * `X-Warden-Token`. `X-Warden-Auth`, which the proxy's clients send and the sidecar otherwise accepts, does not
 * count here, so a proxy credential alone cannot change how the guardrail enforces.
 */
function requireDirectToken(request: FastifyRequest, matcher: TokenMatcher | undefined): void {
  const token = request.headers['x-warden-token'];
  const candidates = [bearerToken(request.headers.authorization), typeof token === 'string' ? token.trim() : undefined];
  // Both are compared (no short-circuit), so timing does not say which header held the token.
  const ok = matcher !== undefined && candidates.map((c) => c !== undefined && c !== '' && matcher.matches(c)).includes(true);
  if (!ok) {
    throw new WardenError('WARDEN_ERR_AUTH_DIRECT_TOKEN_REQUIRED',
      'changing the guardrail configuration needs the gateway token in Authorization: Bearer or X-Warden-Token', { statusCode: 401 });
  }
}

export function guardrailRoutes(fastify: FastifyInstance, ctx: GatewayContext): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const token = ctx.settings.token?.token;
  const matcher = token ? new TokenMatcher(token) : undefined;

  app.post('/v1/guardrail/event', { schema: { body: EventBody, response: { 200: StatusOk } } }, async (request) => {
    const { evaluation_id, direction, action, severity, reason, findings, connector, session_id, trace_id, ...metrics } = request.body;
    await ctx.audit.append({
      action: `guardrail-${direction}-${action}`,
      target: metrics.model,
      actor: callerClient(request),
      severity,
      details: reason ? redactCallerData(ctx, reason) : undefined,
      connector, session_id, trace_id, evaluation_id,
      structured: { source: 'guardrail-event', direction, action, ...metrics, ...(findings ? { findings: redactCallerData(ctx, findings) } : {}) },
    });
    return { status: 'ok' as const };
  });

  app.post('/v1/guardrail/evaluate', { schema: { body: EvaluateBody, response: { 200: EvaluateAnswer } } }, async (request) => {
    const body = request.body;
    const remoteName = body.scanner ?? 'cisco-ai-defense';
    const { verdict, findings, scannerSources } = decidePrecomputed(
      { local: body.local_result, remote: body.cisco_result, remoteName, mode: body.mode },
      ctx.inspector.activeThresholds,
    );
    // `confirm` never reaches this caller (decidePrecomputed), so the action is one of the three.
    const action = verdict.action as 'allow' | 'alert' | 'block';
    await ctx.audit.append({
      action: `guardrail-evaluate-${action}`,
      target: body.model,
      actor: callerClient(request),
      severity: verdict.severity,
      details: verdict.reason || undefined,
      session_id: body.session_id,
      evaluation_id: body.evaluation_id,
      structured: {
        source: 'guardrail-evaluate', direction: body.direction, mode: body.mode, raw_action: verdict.raw_action,
        scanner_mode: body.scanner_mode ?? ctx.settings.config.guardrail.scanner_mode, scanner_sources: scannerSources,
        rule_ids: findings.map((f) => f.rule.id), content_length: body.content?.length ?? body.content_length,
        elapsed_ms: body.elapsed_ms, scanner_elapsed_ms: body.scanner_elapsed_ms, remote_event_id: body.cisco_result?.event_id,
      },
    });
    return {
      action, severity: verdict.severity, reason: verdict.reason, scanner_sources: scannerSources,
      raw_action: verdict.raw_action ?? verdict.action, mode: body.mode, ...(verdict.would_block ? { would_block: true } : {}),
    };
  });

  app.get('/v1/guardrail/config', { schema: { response: { 200: Snapshot } } }, async () =>
    guardrailSnapshot(ctx.settings.config, ctx.inspector.activeThresholds));

  app.patch('/v1/guardrail/config', { schema: { body: PatchBody, response: { 200: PatchAnswer, 202: PatchAnswer } } }, async (request, reply) => {
    requireDirectToken(request, matcher);
    let written;
    try {
      written = writeGuardrailPatch(ctx.settings.path, ctx.settings.config, request.body);
    } catch (err) {
      if (err instanceof ConfigError) throw new WardenError('WARDEN_ERR_GUARDRAIL_CONFIG_REJECTED', err.message, { statusCode: 409 });
      throw err;
    }
    const { config, changes, restart } = written;
    const changed = changes.map((c) => c.key);
    if (changes.length === 0) {
      return { status: 'unchanged' as const, live: true, changed, config: guardrailSnapshot(ctx.settings.config, ctx.inspector.activeThresholds) };
    }
    if (!restart) applyWrittenGuardrail(ctx, config);
    await ctx.audit.append({
      action: 'guardrail-config-update',
      target: 'guardrail',
      actor: callerClient(request),
      severity: 'INFO',
      details: `guardrail ${changes.map((c) => `${c.key}: ${JSON.stringify(c.from)} -> ${JSON.stringify(c.to)}`).join(', ')}` +
        (restart ? ' (listeners restart)' : ' (applied in place)'),
      structured: { changes, restart },
    });
    if (!restart) return { status: 'updated' as const, live: true, changed, config: guardrailSnapshot(ctx.settings.config, ctx.inspector.activeThresholds) };
    // Restart semantics: the running listeners keep serving until the restart has loaded the written file; the
    // restart begins once this answer has left (it closes the listener this request came in on).
    reply.raw.once('finish', () => ctx.lifecycle.requestRestart());
    return reply.code(202).send({
      status: 'restart_requested' as const, live: false, changed,
      config: guardrailSnapshot(config, verdictThresholds(config)),
    });
  });
}
