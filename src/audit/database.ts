// Opening audit.db: WAL mode, and the forward-only schema migrations kept in SQLite's user_version.
import Database from 'better-sqlite3';
import { AUDIT_MIGRATIONS } from './migrations.js';

export function openAuditDatabase(path: string, options: { readonly?: boolean } = {}): Database.Database {
  const readonly = options.readonly ?? false;
  const db = new Database(path, { readonly, fileMustExist: readonly });
  try {
    db.pragma('busy_timeout = 5000');
    if (readonly) {
      checkVersion(db);
    } else {
      db.pragma('journal_mode = WAL');
      // WAL + NORMAL: a commit survives a process crash; only an OS crash can drop the last commits.
      db.pragma('synchronous = NORMAL');
      migrate(db);
    }
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}

function migrate(db: Database.Database): void {
  const current = checkVersion(db);
  for (let version = current; version < AUDIT_MIGRATIONS.length; version++) {
    db.transaction(() => {
      db.exec(AUDIT_MIGRATIONS[version]!);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
}

function checkVersion(db: Database.Database): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > AUDIT_MIGRATIONS.length) {
    throw new Error(
      `audit database schema version ${current} is newer than this Warden supports (${AUDIT_MIGRATIONS.length}); upgrade Warden`,
    );
  }
  return current;
}
