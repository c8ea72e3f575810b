// The one SQLite helper on real files: a fresh database, an upgrade of files written by the code before it
// (audit.db's user_version, chains.db's chain_schema row), a failing migration rolled back at the version
// before it, a newer schema refused, and a symlink or non-file path refused.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { AUDIT_MIGRATIONS, AUDIT_SCHEMA } from '../../src/audit/migrations.js';
import type { Schema } from '../../src/db/migrate.js';
import { openDatabase } from '../../src/db/open.js';
import { CHAIN_SCHEMA } from '../../src/guardrail/chains/schema.js';

const dir = mkdtempSync(join(tmpdir(), 'warden-db-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const freshPath = () => join(dir, `db-${++files}.db`);

const NOTES: Schema = {
  name: 'notes database',
  migrations: ['CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)', 'ALTER TABLE notes ADD COLUMN author TEXT'],
};
const columns = (db: Database.Database, table: string) => (db.pragma(`table_info(${table})`) as { name: string }[]).map((c) => c.name);

describe('openDatabase', () => {
  it('creates a fresh file 0600 in WAL mode with the pragmas set and every migration applied', () => {
    const path = freshPath();
    const db = openDatabase(path, { schema: NOTES, busyTimeoutMs: 1234 });
    assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
    assert.equal(db.pragma('synchronous', { simple: true }), 1, 'NORMAL');
    assert.equal(db.pragma('busy_timeout', { simple: true }), 1234);
    assert.equal(db.pragma('foreign_keys', { simple: true }), 1);
    assert.equal(db.pragma('user_version', { simple: true }), 2);
    assert.deepEqual(columns(db, 'notes'), ['id', 'body', 'author']);
    db.close();
    assert.equal(statSync(path).mode & 0o777, 0o600);
  });

  it('takes group and other access away from an existing file it opens for writing', () => {
    const path = freshPath();
    writeFileSync(path, '', { mode: 0o644 });
    openDatabase(path, { schema: NOTES }).close();
    assert.equal(statSync(path).mode & 0o777, 0o600);
  });

  it('upgrades an audit.db at version 1, written as the previous code wrote it, keeping its rows', () => {
    const path = freshPath();
    const old = new Database(path);
    old.exec(AUDIT_MIGRATIONS[0]!);
    old.pragma('user_version = 1');
    old.prepare("INSERT INTO audit_events (id, timestamp, action) VALUES ('kept', '2026-01-01T00:00:00Z', 'old-row')").run();
    old.close();
    const db = openDatabase(path, { schema: AUDIT_SCHEMA });
    assert.equal(db.pragma('user_version', { simple: true }), AUDIT_MIGRATIONS.length);
    assert.ok(columns(db, 'audit_events').includes('seq'), 'migration 2 ran');
    assert.deepEqual(db.prepare('SELECT id, action FROM audit_events').all(), [{ id: 'kept', action: 'old-row' }]);
    db.close();
  });

  it('keeps the version of a chains.db in its chain_schema row, as the previous code did, and leaves user_version alone', () => {
    const path = freshPath();
    const old = new Database(path);
    old.exec(CHAIN_SCHEMA.migrations[0]!);
    old.exec('CREATE TABLE chain_schema (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL); INSERT INTO chain_schema VALUES (1, 1)');
    old.prepare("INSERT INTO chain_sessions VALUES ('claudecode', 's1', 3, 0, '{}')").run();
    old.close();
    const next: Schema = { ...CHAIN_SCHEMA, migrations: [...CHAIN_SCHEMA.migrations, 'ALTER TABLE chain_sessions ADD COLUMN note TEXT'] };
    const db = openDatabase(path, { schema: next });
    assert.deepEqual(db.prepare('SELECT version FROM chain_schema').all(), [{ version: 2 }]);
    assert.equal(db.pragma('user_version', { simple: true }), 0);
    assert.deepEqual(db.prepare('SELECT session_id, event_count, note FROM chain_sessions').all(), [{ session_id: 's1', event_count: 3, note: null }]);
    db.close();
  });

  it('rolls a failing migration back and leaves the file at the version before it', () => {
    const path = freshPath();
    openDatabase(path, { schema: { ...NOTES, migrations: NOTES.migrations.slice(0, 1) } }).close();
    const broken: Schema = {
      ...NOTES,
      migrations: [...NOTES.migrations, 'CREATE TABLE tags (name TEXT); INSERT INTO no_such_table VALUES (1)'],
    };
    assert.throws(() => openDatabase(path, { schema: broken }), /no such table: no_such_table/);
    const db = new Database(path);
    assert.equal(db.pragma('user_version', { simple: true }), 2, 'migration 2 committed, migration 3 did not');
    assert.deepEqual(columns(db, 'notes'), ['id', 'body', 'author']);
    assert.deepEqual(columns(db, 'tags'), [], 'the failing migration left no table behind');
    db.close();
    const fixed = openDatabase(path, { schema: { ...broken, migrations: [...NOTES.migrations, 'CREATE TABLE tags (name TEXT)'] } });
    assert.equal(fixed.pragma('user_version', { simple: true }), 3, 'the next start applies the corrected migration');
    fixed.close();
  });

  it('refuses a database written by a newer schema, read-only or not', () => {
    const path = freshPath();
    openDatabase(path, { schema: NOTES }).close();
    const older: Schema = { ...NOTES, migrations: NOTES.migrations.slice(0, 1) };
    for (const readonly of [false, true]) {
      assert.throws(() => openDatabase(path, { schema: older, readonly }), (err: Error & { code?: string }) => {
        assert.equal(err.code, 'WARDEN_ERR_DB_SCHEMA_NEWER');
        assert.match(err.message, /notes database schema version 2 is newer than this Warden supports \(1\); upgrade Warden/);
        return true;
      });
    }
  });

  it('opens read-only without creating or migrating anything', () => {
    assert.throws(() => openDatabase(freshPath(), { readonly: true, schema: NOTES }), /ENOENT/);
    const path = freshPath();
    openDatabase(path, { schema: { ...NOTES, migrations: NOTES.migrations.slice(0, 1) } }).close();
    const db = openDatabase(path, { readonly: true, schema: NOTES });
    assert.equal(db.pragma('user_version', { simple: true }), 1);
    assert.throws(() => db.exec('CREATE TABLE x (y)'), /readonly/);
    db.close();
  });

  it('refuses a path that is a symbolic link, even to a real database, or that is not a regular file', () => {
    const target = freshPath();
    openDatabase(target, { schema: NOTES }).close();
    const link = join(dir, 'link.db');
    symlinkSync(target, link);
    const dangling = join(dir, 'dangling.db');
    symlinkSync(join(dir, 'nowhere.db'), dangling);
    const directory = join(dir, 'a-directory.db');
    mkdirSync(directory);
    for (const [path, readonly, reason] of [
      [link, false, /is a symbolic link/], [link, true, /is a symbolic link/], [dangling, false, /is a symbolic link/],
      [directory, false, /is not a regular file/],
    ] as const) {
      assert.throws(() => openDatabase(path, { readonly, schema: NOTES }), (err: Error & { code?: string }) => {
        assert.equal(err.code, 'WARDEN_ERR_DB_NOT_A_FILE');
        assert.match(err.message, reason);
        return true;
      }, path);
    }
    assert.throws(() => statSync(join(dir, 'nowhere.db')), /ENOENT/, 'nothing created through the dangling link');
  });
});
