// The event writer: the one way records leave the gateway. Sources hand it records (the audit store's commit
// observer for verdicts, egress and other audit rows; the runtime for lifecycle; the health registry for
// diagnostics; the OTLP receiver for agent telemetry); it redacts them with the evidence redaction (secrets
// the rule pack recognises become `<redacted len=N sha=…>`) and offers each to every destination that takes
// its kind. `write` costs a push: redaction and fan-out run after the current turn of the event loop, so a
// request never waits on them, and a slow destination only fills its own bounded queue.
import { redactStrings } from '../../guardrail/redact.js';
import type { Sink } from '../sinks/build.js';
import type { EventRecord } from './record.js';

/** Deep enough for any record we build (audit rows nest at most 32 levels); deeper values are left as they are. */
const REDACTION_DEPTH = 40;

export class EventWriter {
  private pending: EventRecord[] = [];
  private scheduled: NodeJS.Immediate | undefined;

  constructor(
    private sinks: readonly Sink[],
    private readonly redact: (text: string) => string,
  ) {}

  /** The destinations in use, for metrics. */
  get destinations(): readonly Sink[] {
    return this.sinks;
  }

  write(record: EventRecord): void {
    if (this.sinks.length === 0) return;
    this.pending.push(record);
    this.scheduled ??= setImmediate(() => this.distribute());
  }

  /** Hands everything written so far to the destinations' queues. */
  private distribute(): void {
    clearImmediate(this.scheduled);
    this.scheduled = undefined;
    const records = this.pending;
    this.pending = [];
    for (const record of records) {
      const clean = redactStrings(record, this.redact, REDACTION_DEPTH) as EventRecord;
      for (const sink of this.sinks) if (sink.accepts(clean.kind)) sink.queue.push(clean);
    }
  }

  /**
   * Sends what the destinations hold, for at most `deadlineMs` (together), then stops them; records written
   * afterwards go nowhere. Resolves with the number of records that could not be sent in time.
   */
  async close(deadlineMs: number): Promise<number> {
    this.distribute();
    const sinks = this.sinks;
    this.sinks = [];
    const lost = await Promise.all(sinks.map((sink) => sink.queue.close(deadlineMs)));
    await Promise.all(sinks.map((sink) => sink.release().catch(() => {})));
    return lost.reduce((a, b) => a + b, 0);
  }
}
