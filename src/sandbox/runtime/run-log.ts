// The run log of a detached run (spec "RunLog", "Run log state"): while the harness runs its output goes to
// `run.log`; when the run ends (exited) or a stop interrupts it, the last 1 MiB is kept as `kept.log` with
// `kept.json` ({state, exit, started_at, kept_at}); a run a gateway crash ended is kept at the next start.
// A later kept run replaces it; a delete removes the folder.
import { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../util/atomic-write.js';
import { SANDBOX_LIMITS } from '../limits.js';
import type { KeptLog } from './driver.js';

export const RUN_LOG = 'run.log';
const KEPT_LOG = 'kept.log';
const KEPT_META = 'kept.json';

/** The last `limit` bytes of a file. */
function tail(path: string, limit: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, limit);
    const buffer = Buffer.alloc(length);
    let read = 0;
    while (read < length) {
      const n = readSync(fd, buffer, read, length - read, size - length + read);
      if (n === 0) break;
      read += n;
    }
    return buffer.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

/** Keeps the tail of `run.log` in `dir` as the sandbox's kept log, replacing an earlier one. */
export function keepRunLog(dir: string, meta: Omit<KeptLog, 'kept_at'>): void {
  const runLog = join(dir, RUN_LOG);
  const kept = existsSync(runLog) ? tail(runLog, SANDBOX_LIMITS.keptLogBytes) : Buffer.alloc(0);
  const temp = join(dir, `${KEPT_LOG}.tmp`);
  writeFileSync(temp, kept, { mode: 0o600 });
  renameSync(temp, join(dir, KEPT_LOG));
  writeFileAtomic(join(dir, KEPT_META), JSON.stringify({ ...meta, kept_at: new Date().toISOString() }), 0o600);
  rmSync(runLog, { force: true });
}

/** Removes the run's log and any kept one: a tamper stop keeps no log (spec phase table). */
export function dropRunLogs(dir: string): void {
  for (const file of [RUN_LOG, KEPT_LOG, KEPT_META]) rmSync(join(dir, file), { force: true });
}

export function readKeptLog(dir: string): { meta: KeptLog; log: Buffer } | null {
  try {
    const meta = JSON.parse(readFileSync(join(dir, KEPT_META), 'utf8')) as KeptLog;
    return { meta, log: readFileSync(join(dir, KEPT_LOG)) };
  } catch {
    return null;
  }
}

/** The text of a kept log: invalid UTF-8 replaced (U+FFFD), the last `lines` lines when lines > 0. */
export function logText(log: Buffer, lines: number): string {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(log);
  if (lines <= 0) return text;
  const parts = text.split('\n');
  if (parts.at(-1) === '') parts.pop();
  return parts.slice(-lines).join('\n') + (text.endsWith('\n') ? '\n' : '');
}
