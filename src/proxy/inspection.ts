// What the guardrail says about model traffic: the newest turn of a request, and an answer's text and tool
// calls, each run through the step-2 inspector. The proxy has no native approval prompt, so `confirm` is a
// block here (verdict rule), and observe mode never blocks.
import type { Finding } from '../guardrail/engine.js';
import type { Inspector } from '../guardrail/inspector.js';
import type { Verdict } from '../guardrail/verdict.js';
import type { RequestView, ResponseView, ToolCall } from './formats/types.js';

export interface ProxyDecision {
  verdict: Verdict;
  findings: Finding[];
  /** The proxy must not let this through (action mode, verdict block). */
  blocked: boolean;
}

export class ProxyInspection {
  constructor(readonly inspector: Inspector) {}

  request(view: RequestView): ProxyDecision {
    return this.decide(this.inspector.text(view.text).findings);
  }

  response(view: ResponseView): ProxyDecision {
    const findings = this.inspector.text(view.text).findings;
    for (const call of view.toolCalls) findings.push(...this.toolCall(call));
    return this.decide(findings);
  }

  text(text: string): Finding[] {
    return this.inspector.text(text).findings;
  }

  /** A tool call the model asked for, through the tool-call lane (facts, expressions). */
  toolCall(call: ToolCall): Finding[] {
    return this.inspector.tool(call.name, call.args ?? { arguments: call.raw }).findings;
  }

  decide(findings: Finding[]): ProxyDecision {
    const verdict = this.inspector.decide(findings, {});
    return { verdict, findings, blocked: verdict.action === 'block' };
  }
}
