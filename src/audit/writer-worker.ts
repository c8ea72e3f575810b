// The audit writer thread: owns the read-write connection and commits each batch it is sent in one
// transaction. Row ids are time-ordered UUIDv7s, so primary-key inserts append to the index instead of
// landing on random pages.
import { parentPort, workerData } from 'node:worker_threads';
import { v7 as timeOrderedUuid } from 'uuid';
import { openAuditDatabase } from './database.js';
import { COLUMNS, rowValues, type NewAuditEvent } from './events.js';

export type WriterRequest = { seq: number; events: NewAuditEvent[] } | { close: true };
export type WriterReply = { committed: number } | { failed: number; error: string } | { closed: true };

const port = parentPort!;
const db = openAuditDatabase((workerData as { path: string }).path);
const insert = db.prepare(`INSERT INTO audit_events (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})`);
const insertAll = db.transaction((events: NewAuditEvent[]) => {
  for (const event of events) insert.run(rowValues(timeOrderedUuid(), event));
});

port.on('message', (request: WriterRequest) => {
  if ('close' in request) {
    db.close();
    port.postMessage({ closed: true } satisfies WriterReply);
    port.close();
    return;
  }
  try {
    insertAll(request.events);
    port.postMessage({ committed: request.seq } satisfies WriterReply);
  } catch (err) {
    port.postMessage({ failed: request.seq, error: (err as Error).message } satisfies WriterReply);
  }
});
