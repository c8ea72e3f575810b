// POST /api/v1/<connector>/hook: decode the agent's native hook payload, inspect it, answer the common
// hook response with the agent's native answer inside (`native`, which the hook script prints and exits
// with), and record the verdict as a warden.hook.v1 audit row, committed before the answer. Pre- and post-tool events of a session also
// advance the ordered chains (see connectors/hook-inspection.ts).
import type { FastifyInstance } from 'fastify';
import { WardenError } from '../../errors.js';
import { uuidv7 } from '../../util/uuidv7.js';
import { HookPayloadError, type DecodedHookEvent } from '../../connectors/hook-event.js';
import { findHookAgent } from '../../connectors/registry.js';
import type { GatewayContext } from '../context.js';

export const HOOK_SCHEMA = 'warden.hook.v1';

export function hookRoutes(app: FastifyInstance, ctx: GatewayContext): void {
  app.post<{ Params: { connector: string } }>('/api/v1/:connector/hook', async (request, reply) => {
    const { connector } = request.params;
    const hooks = findHookAgent(connector);
    if (!hooks) throw new WardenError('WARDEN_ERR_HOOK_UNKNOWN_CONNECTOR', `no hook connector "${connector}"`, { statusCode: 404 });
    let event: DecodedHookEvent;
    try {
      event = hooks.decode(request.body);
    } catch (err) {
      if (err instanceof HookPayloadError) return reply.code(400).send({ error: err.message, code: err.code });
      throw err;
    }
    const { verdict, findings, replayedChain } = ctx.hookInspector.inspect(connector, event);
    const decision = { action: verdict.action, reason: verdict.reason };
    const ruleIds = findings.map((f) => f.rule.id);
    // A replayed chain block repeats the earlier decision; its finding was recorded the first time.
    const recordedRuleIds = replayedChain ? ruleIds.filter((id) => !id.startsWith('CHAIN-')) : ruleIds;
    const evaluationId = findings.length > 0 ? uuidv7() : undefined;
    // The verdict is answered once its row is committed (acknowledged means recorded).
    await ctx.audit.append({
      action: `hook-${event.phase}-${verdict.action}`,
      target: event.tool ?? event.event,
      actor: connector,
      severity: verdict.severity,
      details: verdict.reason || undefined,
      connector,
      session_id: event.session_id,
      evaluation_id: evaluationId,
      schema: HOOK_SCHEMA,
      structured: {
        event: event.event, phase: event.phase, raw_action: verdict.raw_action, mode: verdict.mode, rule_ids: recordedRuleIds,
        ...(replayedChain ? { replayed_chain_deny: replayedChain } : {}),
      },
    });
    return {
      action: decision.action,
      reason: decision.reason,
      findings: verdict.findings,
      ...(evaluationId ? { evaluation_id: evaluationId, rule_ids: ruleIds } : {}),
      native: hooks.render(event, decision),
    };
  });
}
