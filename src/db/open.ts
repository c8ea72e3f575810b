// Opening a Warden SQLite file: the one place that decides how a database is opened. WAL with synchronous
// NORMAL (a commit survives a process crash), a busy timeout, foreign keys on, a new file created 0600 (the
// audit trail and device keys are nobody else's business), and a path that is a symlink or not a regular
// file refused, so a planted link cannot redirect Warden's writes. A schema, when given, is migrated on open.
import { chmodSync, closeSync, constants, lstatSync, openSync } from 'node:fs';
import Database from 'better-sqlite3';
import { WardenError } from '../errors.js';
import { checkSchemaVersion, migrate, type Schema } from './migrate.js';

export interface OpenOptions {
  /** Open an existing file read-only: nothing is created or migrated, only the schema version is checked. */
  readonly readonly?: boolean;
  /** How long a statement waits for another connection's lock before SQLITE_BUSY. */
  readonly busyTimeoutMs?: number;
  readonly schema?: Schema;
}

const DEFAULT_BUSY_TIMEOUT_MS = 5000;

export function openDatabase(path: string, options: OpenOptions = {}): Database.Database {
  const readonly = options.readonly ?? false;
  if (readonly) refuseUnlessRegularFile(path);
  else createPrivateFile(path);
  const db = new Database(path, { readonly, fileMustExist: true });
  try {
    db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS}`);
    db.pragma('foreign_keys = ON');
    if (readonly) {
      if (options.schema) checkSchemaVersion(db, options.schema);
    } else {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      if (options.schema) migrate(db, options.schema);
    }
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}

/** Creates the file 0600 without following a link, or checks the one already there (and takes group and other access away). */
function createPrivateFile(path: string): void {
  try {
    closeSync(openSync(path, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | (constants.O_NOFOLLOW ?? 0), 0o600));
    return;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const mode = refuseUnlessRegularFile(path);
  // Files written before Warden created them 0600 keep the umask's mode (often 0644) until opened for writing.
  if ((mode & 0o077) !== 0) chmodSync(path, mode & 0o700);
}

function refuseUnlessRegularFile(path: string): number {
  const stats = lstatSync(path);
  if (stats.isSymbolicLink()) throw new WardenError('WARDEN_ERR_DB_NOT_A_FILE', `refusing to open database ${path}: it is a symbolic link`);
  if (!stats.isFile()) throw new WardenError('WARDEN_ERR_DB_NOT_A_FILE', `refusing to open database ${path}: it is not a regular file`);
  return stats.mode;
}
