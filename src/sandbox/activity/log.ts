// The gateway's activity log (spec document 1, "Events" item 2): a ring buffer of the last ActivityEvents, each
// numbered one higher than the last, and the live subscriptions of the activity streams. A subscription holds at
// most `queueEvents` events for a reader that cannot keep up; past that it skips events and, once the reader
// catches up, hands it one `dropped` event saying how many it missed, so a slow reader costs bounded memory.
import { SandboxApiError } from '../errors.js';
import { SANDBOX_LIMITS } from '../limits.js';
import { EVERY_SANDBOX, type ActivityEvent, type ActivityInput } from './types.js';

export interface ActivityLogOptions {
  /** Events kept for replay (default SANDBOX_LIMITS.activityEvents). */
  capacity?: number;
  /** Open subscriptions allowed (default SANDBOX_LIMITS.activityStreams). */
  maxStreams?: number;
  /** Events held for one slow subscriber (default SANDBOX_LIMITS.activitySubscriberQueue). */
  queueEvents?: number;
  /** Keepalive interval of a stream (default SANDBOX_LIMITS.activityKeepaliveMs); tests shorten it. */
  keepaliveMs?: number;
}

/** Whether an event belongs to the feed of `sandbox` (no filter: every event; an every-sandbox event: every feed). */
function inFeed(event: ActivityEvent, sandbox: string | undefined): boolean {
  return sandbox === undefined || event.sandbox === sandbox || event.sandbox === EVERY_SANDBOX;
}

/** One reader's live feed. `take()` hands over what arrived since the last call; `wake` says something did. */
export class ActivitySubscription {
  readonly #queue: ActivityEvent[] = [];
  readonly #max: number;
  readonly #sandbox: string | undefined;
  readonly #wake: () => void;
  readonly #onClose: () => void;
  #missed = 0;
  #lastMissedSeq = 0;
  #closed = false;

  constructor(sandbox: string | undefined, max: number, wake: () => void, onClose: () => void) {
    this.#sandbox = sandbox;
    this.#max = max;
    this.#wake = wake;
    this.#onClose = onClose;
  }

  offer(event: ActivityEvent): void {
    if (this.#closed || !inFeed(event, this.#sandbox)) return;
    if (this.#queue.length >= this.#max) {
      this.#missed += 1;
      this.#lastMissedSeq = event.seq;
      return;
    }
    this.#queue.push(event);
    this.#wake();
  }

  /**
   * The events waiting, oldest first; after them, when events were skipped, one `dropped` event (its `seq` is
   * the last skipped event's). Events arriving after a skip are queued again, so nothing is reordered.
   */
  take(): ActivityEvent[] {
    const events = this.#queue.splice(0, this.#queue.length);
    if (this.#missed > 0) {
      events.push({
        seq: this.#lastMissedSeq, time: new Date().toISOString(), kind: 'dropped', sandbox: this.#sandbox ?? EVERY_SANDBOX,
        missed: this.#missed, reason: 'slow_subscriber',
        message: `this stream fell behind and missed ${this.#missed} event${this.#missed === 1 ? '' : 's'} (up to seq ${this.#lastMissedSeq})`,
      });
      this.#missed = 0;
    }
    return events;
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#queue.length = 0;
    this.#onClose();
  }
}

export class ActivityLog {
  readonly keepaliveMs: number;
  readonly #ring: (ActivityEvent | undefined)[];
  readonly #maxStreams: number;
  readonly #queueEvents: number;
  readonly #subscriptions = new Set<ActivitySubscription>();
  #seq = 0;

  constructor(options: ActivityLogOptions = {}) {
    this.#ring = new Array<ActivityEvent | undefined>(options.capacity ?? SANDBOX_LIMITS.activityEvents);
    this.#maxStreams = options.maxStreams ?? SANDBOX_LIMITS.activityStreams;
    this.#queueEvents = options.queueEvents ?? SANDBOX_LIMITS.activitySubscriberQueue;
    this.keepaliveMs = options.keepaliveMs ?? SANDBOX_LIMITS.activityKeepaliveMs;
  }

  /** Records an event (the producers' `emit` seam): numbers it, keeps it and hands it to every subscriber. */
  append(input: ActivityInput): ActivityEvent {
    this.#seq += 1;
    // seq, time, kind and sandbox lead; the log's seq and time win over same-named fields of the input.
    const event: ActivityEvent = { seq: this.#seq, time: new Date().toISOString(), kind: input.kind, sandbox: input.sandbox };
    for (const [key, value] of Object.entries(input)) if (!(key in event) && value !== undefined) event[key] = value;
    this.#ring[(this.#seq - 1) % this.#ring.length] = event;
    for (const subscription of this.#subscriptions) subscription.offer(event);
    return event;
  }

  /** The seq of the newest event (0 before the first). */
  get lastSeq(): number {
    return this.#seq;
  }

  /**
   * The kept events with a seq above `after`, oldest first, of one sandbox's feed when given. A seq above the
   * newest was handed out by an earlier gateway process (seq starts again at 1): everything kept is replayed.
   */
  since(after = 0, sandbox?: string): ActivityEvent[] {
    const size = this.#ring.length;
    const from = after > this.#seq ? 0 : after;
    const first = Math.max(from + 1, this.#seq - size + 1, 1);
    const events: ActivityEvent[] = [];
    for (let seq = first; seq <= this.#seq; seq += 1) {
      const event = this.#ring[(seq - 1) % size]!;
      if (inFeed(event, sandbox)) events.push(event);
    }
    return events;
  }

  /** A live feed; 429 `unavailable` when the stream limit is reached. */
  subscribe(sandbox: string | undefined, wake: () => void): ActivitySubscription {
    if (this.#subscriptions.size >= this.#maxStreams) {
      throw new SandboxApiError('unavailable', `too many activity streams open (at most ${this.#maxStreams})`, {
        status: 429, detail: 'close another stream, or poll GET /api/v1/sandbox/activity with since',
      });
    }
    const subscription = new ActivitySubscription(sandbox, this.#queueEvents, wake, () => this.#subscriptions.delete(subscription));
    this.#subscriptions.add(subscription);
    return subscription;
  }

  /** Open subscriptions (streams). */
  get streams(): number {
    return this.#subscriptions.size;
  }
}
