// A version 8 audit.db at Warden 9's path: opened for writing, its clashing tables are kept as `<name>_v8` with
// every row, the views and indexes of those names dropped, and Warden 9's schema created beside them; a file
// Warden 9 already migrated is never touched again.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { openAuditDatabase } from '../../src/audit/database.js';
import { AUDIT_MIGRATIONS } from '../../src/audit/migrations.js';

const dir = mkdtempSync(join(tmpdir(), 'warden-audit-v8-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function v8File(name: string): string {
  const path = join(dir, name);
  const db = new Database(path);
  db.exec(`
    CREATE TABLE actions (id INTEGER PRIMARY KEY, target_type TEXT NOT NULL, target_name TEXT NOT NULL, source_path TEXT,
      action TEXT NOT NULL, reason TEXT NOT NULL DEFAULT '', actor TEXT, updated_at TEXT NOT NULL);
    INSERT INTO actions VALUES (1, 'mcp', 'shady-fs', NULL, 'block', 'unreviewed', 'dev', '2026-01-02T10:00:00Z'),
      (2, 'skill', 'x', NULL, 'block', 'scan: MEDIUM finding', 'scanner', '2026-01-03T10:00:00Z');
    CREATE TABLE audit_events (id TEXT PRIMARY KEY, timestamp TEXT, action TEXT, severity TEXT);
    INSERT INTO audit_events VALUES ('e1', '2026-01-01T00:00:00Z', 'scan', 'HIGH');
    CREATE INDEX audit_events_alert_rows ON audit_events(severity);
    CREATE VIEW alerts AS SELECT * FROM audit_events;
    CREATE TABLE v8_only (x INTEGER);
  `);
  db.close();
  return path;
}

const tables = (db: Database.Database) => (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((r) => r.name);

describe('a version 8 audit.db', () => {
  it('keeps its tables as <name>_v8 with their rows, and migrates to the current schema', () => {
    const path = v8File('audit.db');
    const db = openAuditDatabase(path);
    try {
      assert.equal(db.pragma('user_version', { simple: true }), AUDIT_MIGRATIONS.length);
      assert.deepEqual((db.prepare('SELECT id, target_name FROM actions_v8 ORDER BY id').all()), [{ id: 1, target_name: 'shady-fs' }, { id: 2, target_name: 'x' }]);
      assert.equal((db.prepare('SELECT count(*) AS n FROM audit_events_v8').get() as { n: number }).n, 1);
      assert.ok(tables(db).includes('v8_only'), 'a table Warden 9 does not create is left as it is');
      assert.equal((db.prepare('SELECT count(*) AS n FROM actions').get() as { n: number }).n, 0, 'Warden 9\'s own actions table is new');
    } finally {
      db.close();
    }
    const again = openAuditDatabase(path);
    try {
      assert.ok(!tables(again).includes('actions_v8_v8'), 'a migrated file is not set aside again');
      assert.equal((again.prepare('SELECT count(*) AS n FROM actions_v8').get() as { n: number }).n, 2);
    } finally {
      again.close();
    }
  });

  it('a new file gets the schema and no _v8 table', () => {
    const db = openAuditDatabase(join(dir, 'new.db'));
    try {
      assert.ok(!tables(db).some((t) => t.endsWith('_v8')));
    } finally {
      db.close();
    }
  });
});
