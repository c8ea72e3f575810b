// Inspecting a streamed answer while it streams. Every upstream event is decoded and its text appended to the
// answer so far; a secret split across events is still one string to the scanner. An event is passed on only
// once everything it carries has been inspected:
//  - text up to the last whitespace is scanned (with an overlap into what was scanned before, so matches that
//    span the boundary are found); a trailing partial word waits for the next event, because the tokens we
//    look for (keys, tokens, card numbers' last group) are words, and half of one must not reach the agent;
//  - tool-call fragments wait until the call is complete and has passed the tool-call lane.
// Events keep their exact bytes and order: a clean stream is relayed unchanged, only slightly later. On a block
// (action mode) nothing pending is sent; the provider's own end of stream is written instead.
import type { Finding } from '../guardrail/engine.js';
import { SEVERITY_RANK } from '../guardrail/thresholds.js';
import type { StreamDecoder, StreamEvent } from './formats/types.js';
import type { FramedEvent } from './framing.js';
import type { ProxyDecision, ProxyInspection } from './inspection.js';
import { toolCallFromArguments } from './formats/tool-calls.js';
import { PROXY_LIMITS } from './limits.js';

const { streamOverlapChars: OVERLAP, maxHeldWordChars: MAX_HELD_WORD, streamTrimChars: TRIM_AT } = PROXY_LIMITS;

interface Pending {
  event: StreamEvent;
  bytes: string;
  /** Absolute offset in the answer's text where this event's text ends. */
  textEnd: number;
  /** Tool calls this event carries fragments of. */
  tools: number[];
}

interface OpenToolCall {
  name: string;
  raw: string;
}

export interface GuardStep {
  /** Bytes that may be sent to the client now (on a block: the provider-format end of stream). */
  send: string;
  /** Set when the stream is cut: what blocked it. Nothing more may be sent after `send`. */
  blocked?: ProxyDecision;
}

const MAX_UNSYNCED = 4096;

const isSpace = (code: number) => code === 32 || code === 10 || code === 13 || code === 9 || code === 12;

export class StreamGuard {
  /** The answer's text from absolute offset `base` on. */
  private text = '';
  private base = 0;
  private scannedTo = 0;
  private readonly pending: Pending[] = [];
  private readonly openTools = new Map<number, OpenToolCall>();
  private readonly findings = new Map<string, Finding>();
  private cut: ProxyDecision | undefined;
  /** Relayed events the sent-side decoder has not read yet: it is only needed on a block, so it catches up
   *  then (or every MAX_UNSYNCED events, to bound memory) instead of parsing every event twice. */
  private sent: StreamEvent[] = [];

  /**
   * @param decoder reads every upstream event, as it arrives.
   * @param sentDecoder reads only the events actually relayed: the block tail must continue what the client
   *   saw (Anthropic block indexes, Responses output indexes), not what was held back and dropped.
   */
  constructor(
    private readonly inspection: ProxyInspection,
    private readonly decoder: StreamDecoder,
    private readonly sentDecoder: StreamDecoder,
    /** Action mode: hold unscanned output and cut the stream on a block. Observe mode relays at once. */
    private readonly enforce: boolean,
    /** The text a cut stream ends with, from the verdict's reason (guardrail.block_message, see forward.ts). */
    private readonly blockText: (reason: string) => string = (reason) => reason,
  ) {}

  /**
   * Events that arrived together (one upstream read) are decoded first and inspected together: one scan per
   * read instead of one per event, and no event of the batch waits on the others for long.
   */
  push(events: readonly FramedEvent[]): GuardStep {
    if (this.cut) return { send: '' };
    let fresh = false;
    let ended = false;
    for (const { event, raw } of events) {
      const delta = this.decoder.decode(event);
      this.text += delta.text;
      const tools: number[] = [];
      for (const fragment of delta.toolCalls) {
        const call = this.openTools.get(fragment.index) ?? { name: '', raw: '' };
        if (fragment.name) call.name = fragment.name;
        if (fragment.argumentsDelta) call.raw += fragment.argumentsDelta;
        this.openTools.set(fragment.index, call);
        tools.push(fragment.index);
      }
      this.pending.push({ event, bytes: raw, textEnd: this.end, tools });
      for (const index of delta.closedToolCalls) fresh = this.closeToolCall(index) || fresh;
      ended ||= delta.end;
    }
    fresh = this.scan(ended ? this.end : this.settledEnd()) || fresh;
    return this.step(fresh);
  }

  /** The upstream finished (or failed): inspect whatever is left, then release it or cut. */
  finish(): GuardStep {
    if (this.cut) return { send: '' };
    let fresh = false;
    for (const index of [...this.openTools.keys()]) fresh = this.closeToolCall(index) || fresh;
    fresh = this.scan(this.end) || fresh;
    return this.step(fresh);
  }

  /** Everything found so far, as one decision (for the audit row). */
  decision(): ProxyDecision {
    return this.cut ?? this.inspection.decide([...this.findings.values()]);
  }

  get blocked(): boolean {
    return this.cut !== undefined;
  }

  private get end(): number {
    return this.base + this.text.length;
  }

  /** Offset just after the last whitespace: the text before it is complete words. */
  private settledEnd(): number {
    const from = Math.max(0, this.scannedTo - this.base);
    for (let i = this.text.length - 1; i >= from; i--) {
      if (isSpace(this.text.charCodeAt(i))) return this.base + i + 1;
    }
    return this.end - this.scannedTo > MAX_HELD_WORD ? this.end : this.scannedTo;
  }

  private scan(upTo: number): boolean {
    if (upTo <= this.scannedTo) return false;
    const start = Math.max(this.base, this.scannedTo - OVERLAP);
    const found = this.record(this.inspection.text(this.text.slice(start - this.base, upTo - this.base)));
    this.scannedTo = upTo;
    if (this.text.length > TRIM_AT) {
      const keepFrom = Math.max(this.base, this.scannedTo - OVERLAP);
      this.text = this.text.slice(keepFrom - this.base);
      this.base = keepFrom;
    }
    return found;
  }

  private syncSentDecoder(): void {
    for (const event of this.sent) this.sentDecoder.decode(event);
    this.sent = [];
  }

  private closeToolCall(index: number): boolean {
    const call = this.openTools.get(index);
    if (!call) return false;
    this.openTools.delete(index);
    return this.record(this.inspection.toolCall(toolCallFromArguments(call.name, call.raw)));
  }

  /**
   * Adds findings not seen before in this answer (the overlap re-finds old ones), or more severe than the one
   * kept for their rule (a scored rule, such as the injection score, can rise as the answer goes on); true
   * when any was added.
   */
  private record(findings: Finding[]): boolean {
    let fresh = false;
    for (const finding of findings) {
      const known = this.findings.get(finding.rule.id);
      if (known && SEVERITY_RANK[known.rule.severity] >= SEVERITY_RANK[finding.rule.severity]) continue;
      this.findings.set(finding.rule.id, finding);
      fresh = true;
    }
    return fresh;
  }

  private step(freshFindings: boolean): GuardStep {
    if (freshFindings) {
      const decision = this.inspection.decide([...this.findings.values()]);
      if (decision.blocked && this.enforce) {
        this.cut = decision;
        this.pending.length = 0;
        this.syncSentDecoder();
        return { send: this.sentDecoder.blockTail(this.blockText(decision.verdict.reason)), blocked: decision };
      }
    }
    let send = '';
    while (this.pending.length > 0) {
      const next = this.pending[0]!;
      const ready = !this.enforce || (next.textEnd <= this.scannedTo && next.tools.every((i) => !this.openTools.has(i)));
      if (!ready) break;
      send += next.bytes;
      this.sent.push(next.event);
      if (this.sent.length >= MAX_UNSYNCED) this.syncSentDecoder();
      this.pending.shift();
    }
    return { send };
  }
}
