// One destination's queue: records wait in a bounded buffer, leave in batches (when `batchSize` are waiting or
// `flushIntervalMs` after the first), and a batch that fails is retried with exponential backoff and jitter
// until it is delivered. The gateway never waits on a destination: when the buffer is full the oldest waiting
// record is dropped and counted. Nothing within the buffer is lost to an outage, however long.
//
// The retry is written here rather than taken from undici's retry interceptor (scanners/analyzers/retry.ts):
// that retries one request a fixed number of times and then hands the failure to the caller, who would have
// to drop the batch; a sink must keep the batch (and keep taking new records) for as long as the buffer lasts.
export interface QueueOptions {
  batchSize: number;
  flushIntervalMs: number;
  /** Records waiting, at most (the batch being sent is held besides). */
  bufferSize: number;
  timeoutMs: number;
  maxBackoffMs: number;
}

/** Sends one batch; resolves when the destination accepted it, throws when it should be retried. */
export type Deliver<T> = (batch: T[], signal: AbortSignal) => Promise<void>;

/** A failure no retry will fix (the destination refused the batch itself, say a 400): the batch is dropped. */
export class PermanentDeliveryFailure extends Error {}

export interface QueueEvents {
  /** Records dropped: `reason` is `overflow` (buffer full), `refused` (permanent failure) or `shutdown`. */
  dropped(count: number, reason: 'overflow' | 'refused' | 'shutdown'): void;
  /** A delivery attempt failed (it will be retried unless permanent). */
  failed(error: Error): void;
  delivered(count: number): void;
}

const FIRST_BACKOFF_MS = 250;

export class SinkQueue<T> {
  /** Waiting records from `head` on: a deque without shifting the array on every batch. */
  private waiting: T[] = [];
  private head = 0;
  private inFlight: T[] | undefined;
  private attempt = 0;
  private timer: NodeJS.Timeout | undefined;
  private sending = false;
  private draining = false;
  private closed = false;
  private drainedWaiters: (() => void)[] = [];

  constructor(
    private readonly options: QueueOptions,
    private readonly deliver: Deliver<T>,
    private readonly events: QueueEvents,
  ) {}

  /** Records waiting or being sent. */
  get depth(): number {
    return this.waiting.length - this.head + (this.inFlight?.length ?? 0);
  }

  push(record: T): void {
    if (this.closed) return this.events.dropped(1, 'shutdown');
    if (this.waiting.length - this.head >= this.options.bufferSize) {
      this.head++;
      this.events.dropped(1, 'overflow');
    }
    this.waiting.push(record);
    this.schedule();
  }

  /**
   * Sends everything held, without waiting for batches to fill, until done or `deadlineMs` passes; then stops
   * the queue. What could not be sent by then is dropped and counted (`shutdown`). Resolves with that count.
   */
  async close(deadlineMs: number): Promise<number> {
    this.draining = true;
    this.schedule();
    const drained = new Promise<void>((resolve) => (this.depth === 0 ? resolve() : this.drainedWaiters.push(resolve)));
    let deadline: NodeJS.Timeout | undefined;
    await Promise.race([drained, new Promise<void>((resolve) => (deadline = setTimeout(resolve, deadlineMs)))]);
    clearTimeout(deadline);
    this.closed = true;
    clearTimeout(this.timer);
    const lost = this.depth;
    if (lost > 0) this.events.dropped(lost, 'shutdown');
    this.waiting = [];
    this.head = 0;
    this.inFlight = undefined;
    return lost;
  }

  private schedule(): void {
    if (this.sending || this.closed || this.inFlight) return;
    const ready = this.waiting.length - this.head;
    if (ready === 0) return;
    if (ready >= this.options.batchSize || this.draining) {
      clearTimeout(this.timer);
      this.timer = undefined;
      void this.send();
    } else {
      this.timer ??= setTimeout(() => {
        this.timer = undefined;
        void this.send();
      }, this.options.flushIntervalMs);
    }
  }

  private take(): T[] {
    const end = Math.min(this.waiting.length, this.head + this.options.batchSize);
    const batch = this.waiting.slice(this.head, end);
    this.head = end;
    // Compact once the consumed head outweighs what is left, so memory follows the buffer, not the history.
    if (this.head > 1024 && this.head * 2 > this.waiting.length) {
      this.waiting = this.waiting.slice(this.head);
      this.head = 0;
    }
    return batch;
  }

  private async send(): Promise<void> {
    if (this.sending || this.closed) return;
    this.sending = true;
    this.inFlight ??= this.take();
    const batch = this.inFlight;
    let retryIn: number | undefined;
    if (batch.length > 0) {
      try {
        await this.deliver(batch, AbortSignal.timeout(this.options.timeoutMs));
        this.events.delivered(batch.length);
        this.attempt = 0;
        this.inFlight = undefined;
      } catch (err) {
        this.events.failed(err as Error);
        if (err instanceof PermanentDeliveryFailure) {
          this.events.dropped(batch.length, 'refused');
          this.inFlight = undefined;
        } else {
          retryIn = this.backoff(this.attempt++);
        }
      }
    } else {
      this.inFlight = undefined;
    }
    this.sending = false;
    if (this.closed) return;
    if (retryIn !== undefined) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        void this.send();
      }, retryIn);
      return;
    }
    if (this.depth === 0) {
      for (const resolve of this.drainedWaiters.splice(0)) resolve();
      return;
    }
    this.schedule();
  }

  /** Half the exponential ceiling plus a random share of the rest: gateways recovering together do not retry in step. */
  private backoff(attempt: number): number {
    const ceiling = Math.min(this.options.maxBackoffMs, FIRST_BACKOFF_MS * 2 ** Math.min(attempt, 20));
    return Math.max(10, Math.round(ceiling / 2 + (Math.random() * ceiling) / 2));
  }
}
