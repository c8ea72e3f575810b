// The inspection use cases behind /api/v1/inspect/* and the connector hooks: turn a tool call or a piece of
// text into a verdict. Knows nothing of HTTP.
import { extractFacts } from './facts/index.js';
import type { InspectionEngine, Finding } from './engine.js';
import type { ActionFacts } from './facts/types.js';
import { shippedInjectionScorer, withInjectionScore } from './injection/index.js';
import type { VerdictThresholds } from './thresholds.js';
import { decide, FAST_ALLOW, type Verdict } from './verdict.js';

export interface InspectOptions {
  /** The caller can raise the agent's own approval prompt (`confirm`); otherwise confirm becomes block. */
  nativeApproval?: boolean;
  /** Return raw evidence instead of redacted evidence. */
  reveal?: boolean;
  /** Working directory of a tool call (the hook payload's `cwd`): the project root for path scopes. */
  cwd?: string;
}

export interface InspectResult {
  verdict: Verdict;
  findings: Finding[];
  /** What the tool call does (tool calls only). */
  facts?: ActionFacts;
}

const MAX_ARG_DEPTH = 6;
const MAX_ARG_STRINGS = 2000;

export class Inspector {
  constructor(
    private readonly engine: InspectionEngine,
    private thresholds: VerdictThresholds,
  ) {
    // The cue catalogue compiles in about 0.15 s: pay it when the gateway starts, not on the first prompt.
    shippedInjectionScorer();
  }

  /** The thresholds every later verdict uses (a guardrail change applied in place: gateway/reload.ts). */
  useThresholds(thresholds: VerdictThresholds): void {
    this.thresholds = thresholds;
  }

  /** The thresholds verdicts are decided with now. */
  get activeThresholds(): Readonly<VerdictThresholds> {
    return this.thresholds;
  }

  /** A tool call (tool-call lane: every enabled rule, expressions over the parsed call). */
  tool(tool: string, args: Record<string, unknown> | undefined, options: InspectOptions = {}): InspectResult {
    const text = [tool, ...argumentStrings(args)].join('\n');
    const facts = extractFacts(tool, args ?? {}, options.cwd);
    const findings = this.engine.scanToolCall(text, facts);
    return { verdict: this.decide(findings, options), findings, facts };
  }

  /** Prompts, model responses, tool output and message-lane content (no tool-call rules). */
  text(content: string, options: InspectOptions = {}): InspectResult {
    if (content.trim() === '') return { verdict: { ...FAST_ALLOW }, findings: [] };
    // Prompt injection: the phrase rules and the cue catalogue become one scored finding (injection/).
    const findings = withInjectionScore(content, this.engine.scanText(content));
    return { verdict: this.decide(findings, options), findings };
  }

  /** `text` with the secrets the rule pack recognises redacted, for text that is stored (audit rows). */
  redactSecrets(text: string): string {
    return this.engine.redactSecrets(text);
  }

  /** A verdict over findings gathered elsewhere too (ordered chains add theirs to a hook event's). */
  decide(findings: Finding[], options: InspectOptions): Verdict {
    return decide(findings, this.thresholds, { nativeApproval: options.nativeApproval ?? false, reveal: options.reveal ?? false });
  }
}

/** Every string in the arguments, depth-first and bounded, so patterns see unescaped values, one per line. */
function argumentStrings(args: unknown): string[] {
  const out: string[] = [];
  const walk = (value: unknown, depth: number): void => {
    if (out.length >= MAX_ARG_STRINGS) return;
    if (typeof value === 'string') out.push(value);
    else if (depth < MAX_ARG_DEPTH && Array.isArray(value)) for (const item of value) walk(item, depth + 1);
    else if (depth < MAX_ARG_DEPTH && value && typeof value === 'object') for (const item of Object.values(value)) walk(item, depth + 1);
  };
  walk(args, 0);
  return out;
}
