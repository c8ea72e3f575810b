// The gateway's audit trail. Appends are queued and handed every few milliseconds, as one batch, to a writer
// thread that commits the batch in one transaction (group commit). A verdict's answer therefore never waits
// for SQLite, and a burst of hook traffic costs one commit instead of one per row. Reads wait until
// everything appended before them is committed; close() commits what is queued and stops the writer, so a
// clean shutdown loses nothing (a hard kill can lose the last FLUSH_DELAY_MS of rows).
import { Worker } from 'node:worker_threads';
import { openAuditDatabase } from './database.js';
import type { AuditEvent, NewAuditEvent } from './events.js';
import { AuditReader } from './reader.js';
import type { WriterReply, WriterRequest } from './writer-worker.js';

export { AUDIT_SEVERITIES, type AuditEvent, type AuditSeverity, type NewAuditEvent } from './events.js';

const FLUSH_DELAY_MS = 5;
const MAX_QUEUED_EVENTS = 1000;

/** The writer thread: the compiled .js next to this file, or (running from source under tsx, as the tests
 *  do) the .ts source loaded through tsx, which a worker thread does not inherit on Node 20. */
function startWriter(path: string): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./writer-worker.js', import.meta.url), { workerData: { path } });
  const source = new URL('./writer-worker.ts', import.meta.url).href;
  const bootstrap = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); })`;
  return new Worker(bootstrap, { eval: true, workerData: { path } });
}

interface Waiter {
  seq: number;
  resolve: () => void;
  reject: (err: Error) => void;
}

export class AuditStore {
  private readonly worker: Worker;
  private readonly reader: AuditReader;
  private queue: NewAuditEvent[] = [];
  private timer: NodeJS.Timeout | undefined;
  private sentSeq = 0;
  private committedSeq = 0;
  private waiters: Waiter[] = [];
  private failure: Error | undefined;
  private closing: Promise<void> | undefined;

  /** Opens (and migrates) audit.db at `path`; `onError` hears about batches the writer could not commit. */
  constructor(path: string, private readonly onError: (err: Error) => void = () => {}) {
    openAuditDatabase(path).close(); // migrate here, synchronously, so a bad database fails the start
    this.reader = new AuditReader(path);
    this.worker = startWriter(path);
    this.worker.on('message', (reply: WriterReply) => this.onReply(reply));
    this.worker.on('error', (err) => this.fail(err));
  }

  append(event: NewAuditEvent): void {
    if (this.closing) throw new Error('audit store is closed');
    this.queue.push(event.timestamp ? event : { ...event, timestamp: new Date().toISOString() });
    if (this.queue.length >= MAX_QUEUED_EVENTS) this.send();
    else this.timer ??= setTimeout(() => this.send(), FLUSH_DELAY_MS);
  }

  /** Resolves once every event appended so far is committed. */
  flush(): Promise<void> {
    this.send();
    if (this.failure) return Promise.reject(this.failure);
    if (this.committedSeq >= this.sentSeq) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiters.push({ seq: this.sentSeq, resolve, reject }));
  }

  async recentAlerts(limit: number): Promise<AuditEvent[]> {
    await this.flush();
    return this.reader.recentAlerts(limit);
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      try {
        await this.flush();
      } finally {
        const closed = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
        this.worker.postMessage({ close: true } satisfies WriterRequest);
        await closed;
        this.reader.close();
      }
    })();
    return this.closing;
  }

  private send(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.queue.length === 0) return;
    const events = this.queue;
    this.queue = [];
    const seq = ++this.sentSeq;
    try {
      this.worker.postMessage({ seq, events } satisfies WriterRequest);
    } catch (err) {
      // Only a value that cannot be cloned gets here (never a parsed JSON body); report it like a failed batch.
      this.onReply({ failed: seq, error: (err as Error).message });
    }
  }

  private onReply(reply: WriterReply): void {
    if ('committed' in reply) {
      this.committedSeq = reply.committed;
      const done = this.waiters.filter((w) => w.seq <= reply.committed);
      this.waiters = this.waiters.filter((w) => w.seq > reply.committed);
      for (const w of done) w.resolve();
    } else if ('failed' in reply) {
      // The batch is lost; say so loudly, and let later batches try again.
      this.committedSeq = reply.failed;
      const error = new Error(`audit write failed: ${reply.error}`);
      this.onError(error);
      const done = this.waiters.filter((w) => w.seq <= reply.failed);
      this.waiters = this.waiters.filter((w) => w.seq > reply.failed);
      for (const w of done) w.reject(error);
    }
  }

  private fail(err: Error): void {
    this.failure = err;
    this.onError(err);
    for (const w of this.waiters) w.reject(err);
    this.waiters = [];
  }
}
