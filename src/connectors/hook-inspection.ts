// How a decoded hook event is judged. A pre-tool event is a tool call (the only kind a hook can stop before
// it runs, and the only one that may receive the agent's native ask); prompts, tool results and model answers
// are text; session and other events carry nothing to inspect. Pre- and post-tool events of a correlated
// session also advance the ordered chains, whose matches join the event's findings.
import { CHAINS, classify, chainFinding, fingerprintOf, type ChainId, type ChainMatch, type ChainTracker } from '../guardrail/chains/index.js';
import type { Finding } from '../guardrail/engine.js';
import { extractFacts } from '../guardrail/facts/index.js';
import type { InspectResult, Inspector } from '../guardrail/inspector.js';
import { FAST_ALLOW } from '../guardrail/verdict.js';
import type { DecodedHookEvent } from './hook-event.js';

export interface HookInspection extends InspectResult {
  /** The verdict repeats an earlier chain block of this identical call (no new findings were recorded). */
  replayedChain?: string;
}

export class HookInspector {
  constructor(
    private readonly inspector: Inspector,
    private readonly chains?: ChainTracker,
  ) {}

  inspect(connector: string, event: DecodedHookEvent, now = Date.now()): HookInspection {
    const result = this.inspectEvent(event);
    const { phase, session_id: sessionId } = event;
    if (!this.chains || !sessionId || (phase !== 'pre_tool' && phase !== 'post_tool')) return result;

    const tool = event.tool ?? 'unknown';
    const facts = result.facts ?? (event.tool_input ? extractFacts(tool, event.tool_input) : undefined);
    const signals = classify({
      phase,
      facts,
      findings: result.findings.map((f) => ({ ruleId: f.rule.id, category: f.rule.category, tags: f.rule.tags })),
      toolOutput: event.tool_output,
      toolSucceeded: event.tool_succeeded,
    });
    const fingerprint = fingerprintOf(tool, facts, JSON.stringify(event.tool_input ?? {}));
    const outcome = this.chains.observe({
      connector, sessionId, phase, toolCallId: event.tool_call_id, fingerprint, signals, succeeded: event.tool_succeeded, at: now,
    });
    const nativeApproval = phase === 'pre_tool';
    if (outcome.replayedDeny) {
      const { chain, reason, at } = outcome.replayedDeny;
      const findings = [...result.findings, chainAsFinding(replayedMatch(chain, at))];
      return { ...result, verdict: { ...this.inspector.decide(findings, { nativeApproval }), reason }, replayedChain: chain };
    }
    if (outcome.matches.length === 0) return result;
    const findings = [...result.findings, ...outcome.matches.map(chainAsFinding)];
    const verdict = this.inspector.decide(findings, { nativeApproval });
    if (verdict.action === 'block') {
      for (const match of outcome.matches) this.chains.recordDeny(connector, sessionId, fingerprint, match.chain, verdict.reason, now);
    }
    return { ...result, verdict, findings };
  }

  private inspectEvent(event: DecodedHookEvent): InspectResult {
    switch (event.phase) {
      case 'pre_tool':
        return this.inspector.tool(event.tool ?? 'unknown', event.tool_input, { nativeApproval: true, cwd: event.cwd });
      case 'prompt':
        return this.inspector.text(event.prompt ?? '');
      case 'post_tool':
        return this.inspector.text(event.tool_output ?? '');
      case 'response':
        return this.inspector.text(event.response ?? '');
      default:
        return { verdict: { ...FAST_ALLOW }, findings: [] };
    }
  }
}

function replayedMatch(chain: ChainId, at: number): ChainMatch {
  const definition = CHAINS.find((c) => c.id === chain)!;
  return { chain, steps: [definition.first, definition.final], firstAt: at };
}

function chainAsFinding(match: ChainMatch): Finding {
  const f = chainFinding(match);
  return {
    rule: { id: f.ruleId, title: f.title, category: 'command', severity: f.severity, confidence: f.confidence, tags: f.tags, builtin: true },
    evidence: f.evidence,
  };
}
