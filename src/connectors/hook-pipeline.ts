// The connector hook pipeline without HTTP: decode the agent's native payload, inspect it, record the verdict as a
// warden.hook.v1 audit row (committed before the caller answers: acknowledged means recorded) and render the
// agent's native answer. The sidecar's hook route and the sandbox hook ingress (src/sandbox/ingress/) both call it;
// the ingress passes `tags` so the row says which sandbox the event came from.
import type { AuditStore } from '../audit/store.js';
import type { Finding } from '../guardrail/engine.js';
import type { Verdict } from '../guardrail/verdict.js';
import { isObject } from '../util/json.js';
import { uuidv7 } from '../util/uuidv7.js';
import type { HookAgent } from './definition.js';
import type { DecodedHookEvent, HookDecision, NativeHookAnswer } from './hook-event.js';
import type { HookInspector } from './hook-inspection.js';

export const HOOK_SCHEMA = 'warden.hook.v1';

export interface HookPipelineDeps {
  hookInspector: HookInspector;
  audit: AuditStore;
}

export interface HookOutcome {
  event: DecodedHookEvent;
  verdict: Verdict;
  findings: Finding[];
  decision: HookDecision;
  ruleIds: string[];
  evaluationId: string | undefined;
  native: NativeHookAnswer;
}

/**
 * Runs one hook event through the pipeline. `eventName` is the event the installed command names (set as
 * hook_event_name when the payload names none); `tags` are added to the audit row's structured data.
 * Throws HookPayloadError for an undecodable payload.
 */
export async function runHook(
  deps: HookPipelineDeps, agent: HookAgent, body: unknown, options: { eventName?: string; tags?: Record<string, unknown> } = {},
): Promise<HookOutcome> {
  const connector = agent.name;
  if (options.eventName !== undefined && isObject(body) && body.hook_event_name === undefined) body.hook_event_name = options.eventName;
  const event = agent.decode(body);
  const { verdict, findings, replayedChain } = deps.hookInspector.inspect(connector, event);
  const decision = { action: verdict.action, reason: verdict.reason };
  const ruleIds = findings.map((f) => f.rule.id);
  // A replayed chain block repeats the earlier decision; its finding was recorded the first time.
  const recordedRuleIds = replayedChain ? ruleIds.filter((id) => !id.startsWith('CHAIN-')) : ruleIds;
  const evaluationId = findings.length > 0 ? uuidv7() : undefined;
  await deps.audit.append({
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
      // The agent's tool call id: the correlation ledger links this verdict to the agent's OTLP events by it.
      ...(event.tool_call_id ? { tool_invocation_id: event.tool_call_id } : {}),
      ...(replayedChain ? { replayed_chain_deny: replayedChain } : {}),
      ...options.tags,
    },
  });
  return { event, verdict, findings, decision, ruleIds, evaluationId, native: agent.render(event, decision) };
}
