// The one runner of the migration's fixture homes (test/migration/fixtures/<case>/, described in its README):
// each home is copied to a temp folder (audit.db built from the case's actions.sql, the user's home folder from
// user-home/), read with the real readHome and migrated with the real migrate(), and the plan compared with the
// expected config.yaml, migration-v9.json, operations.json and written/ files. config-rules.test.ts and
// file-rules.test.ts both run their cases through it; commands, apply and bench tests copy homes with
// `copyFixtureHome`. WARDEN_UPDATE_FIXTURES=1 rewrites the expectations from the current code: read every diff
// before committing it.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { parseConfig } from '../../src/config/load.js';
import { WardenError } from '../../src/errors.js';
import { migrate } from '../../src/migration/migrate.js';
import { readHome } from '../../src/migration/read-home.js';
import { detectScope } from '../../src/migration/run.js';
import type { FileOperation, MigrationInput, MigrationPlan, MigrationScope } from '../../src/migration/types.js';

export const FIXTURES = join(import.meta.dirname, 'fixtures');
/** The clock every fixture's record is stamped with. */
export const NOW = new Date('2026-11-20T12:00:00.000Z');
const UPDATE = process.env.WARDEN_UPDATE_FIXTURES === '1';
const SHIPPED_REGO = join(import.meta.dirname, '../../policies/rego');

/** Every fixture home, by name. */
export const FIXTURE_NAMES = readdirSync(FIXTURES, { withFileTypes: true })
  .filter((e) => e.isDirectory() && existsSync(join(FIXTURES, e.name, 'home')))
  .map((e) => e.name)
  .sort();

/** case.json: the scope the home has (checked against run.ts's detection) and, for a refused home, the error. */
export interface FixtureCase {
  scope: MigrationScope;
  error?: { code: string; message: string };
}

export function caseOf(name: string): FixtureCase {
  const path = join(FIXTURES, name, 'case.json');
  const given = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Partial<FixtureCase>) : {};
  return { scope: given.scope ?? 'user', ...(given.error ? { error: given.error } : {}) };
}

const temps: string[] = [];
after(() => temps.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/**
 * A temp copy of a fixture: `home` (the data home, audit.db built from actions.sql) and `userHome` (the user's
 * home folder holding the agents' MCP configurations; empty when the case has none). Removed after the file's tests.
 */
export function copyFixtureHome(name: string): { home: string; userHome: string } {
  const root = mkdtempSync(join(tmpdir(), `warden-fixture-${name}-`));
  temps.push(root);
  const home = join(root, 'home');
  const userHome = join(root, 'user-home');
  cpSync(join(FIXTURES, name, 'home'), home, { recursive: true });
  mkdirSync(userHome);
  if (existsSync(join(FIXTURES, name, 'user-home'))) cpSync(join(FIXTURES, name, 'user-home'), userHome, { recursive: true });
  const sql = join(FIXTURES, name, 'actions.sql');
  if (existsSync(sql)) {
    const db = new Database(join(home, 'audit.db'));
    db.exec(readFileSync(sql, 'utf8'));
    db.close();
  }
  return { home, userHome };
}

/** The real readHome over a fresh copy of the fixture, with the case's scope and the fixed clock. */
export async function readFixture(name: string): Promise<MigrationInput> {
  const { home, userHome } = copyFixtureHome(name);
  return readHome(home, caseOf(name).scope, NOW, userHome);
}

/** Operations as stored in operations.json: a write names its bytes' hash (kept in written/) or the shipped module. */
export function describeOperations(operations: FileOperation[]): unknown[] {
  return operations.map((op) => {
    if (op.op !== 'write') return op;
    const shipped = join(SHIPPED_REGO, op.path.replace(/^policies\/rego\//, ''));
    if (op.path.startsWith('policies/rego/') && existsSync(shipped) && readFileSync(shipped).equals(op.bytes)) {
      return { op: 'write', path: op.path, shipped: op.path };
    }
    return { op: 'write', path: op.path, sha256: sha256(op.bytes) };
  });
}

export const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

/**
 * A test per fixture: the real scope detection agrees with case.json; the plan is the expected one (or the
 * expected error), its operations on plain home-relative paths only (apply refuses any other); the result
 * loads as version 9 with the record's hashes; the same input gives the same plan; and migrating the result
 * again is "nothing to migrate".
 */
export function runFixtureHomes(names: readonly string[]): void {
  describe('fixture homes through readHome and migrate', () => {
    for (const name of names) {
      it(name, async () => {
        const spec = caseOf(name);
        const { home, userHome } = copyFixtureHome(name);
        const input = await readHome(home, spec.scope, NOW, userHome);
        assert.equal(detectScope(home, input.configText), spec.scope, 'run.ts detects the scope case.json names');
        if (spec.error) {
          assert.throws(() => migrate(input), (err: unknown) => {
            assert.ok(err instanceof WardenError, String(err));
            assert.equal(err.code, spec.error!.code);
            assert.ok(err.message.includes(spec.error!.message), err.message);
            return true;
          });
          return;
        }
        const plan = migrate(input);
        for (const op of plan.operations) {
          for (const path of op.op === 'write' ? [op.path] : op.op === 'rename' ? [op.from, op.to] : []) {
            assert.ok(path.split('/').every((part) => part !== '' && part !== '.' && part !== '..') && !path.includes('\\'), `${path} is a plain home-relative path, as apply requires`);
          }
        }
        if (UPDATE) writeExpectations(name, plan);
        checkExpectations(name, plan);
        parseConfig(plan.configText, 'config.yaml');
        assert.equal(plan.record.result_sha256, sha256(plan.configText));
        assert.equal(plan.record.source_sha256, sha256(input.configText));
        assert.deepEqual(migrate(input), plan, 'the same input gives the same plan');
        assert.throws(() => migrate({ ...input, configText: plan.configText }), { code: 'WARDEN_ERR_MIGRATION_NOTHING_TO_DO' });
      });
    }
  });
}

function writeExpectations(name: string, plan: MigrationPlan): void {
  const dir = join(FIXTURES, name);
  writeFileSync(join(dir, 'config.yaml'), plan.configText);
  writeFileSync(join(dir, 'migration-v9.json'), `${JSON.stringify(plan.record, null, 2)}\n`);
  const described = describeOperations(plan.operations);
  writeFileSync(join(dir, 'operations.json'), `${JSON.stringify(described, null, 2)}\n`);
  rmSync(join(dir, 'written'), { recursive: true, force: true });
  plan.operations.forEach((op, i) => {
    if (op.op === 'write' && !('shipped' in (described[i] as object))) {
      mkdirSync(dirname(join(dir, 'written', op.path)), { recursive: true });
      writeFileSync(join(dir, 'written', op.path), op.bytes);
    }
  });
}

function checkExpectations(name: string, plan: MigrationPlan): void {
  const dir = join(FIXTURES, name);
  assert.equal(plan.configText, readFileSync(join(dir, 'config.yaml'), 'utf8'));
  assert.deepEqual(plan.record, JSON.parse(readFileSync(join(dir, 'migration-v9.json'), 'utf8')));
  const described = describeOperations(plan.operations);
  assert.deepEqual(described, JSON.parse(readFileSync(join(dir, 'operations.json'), 'utf8')));
  plan.operations.forEach((op, i) => {
    if (op.op !== 'write') return;
    const shipped = (described[i] as { shipped?: string }).shipped;
    const expected = readFileSync(shipped ? join(SHIPPED_REGO, shipped.slice('policies/rego/'.length)) : join(dir, 'written', op.path));
    assert.ok(op.bytes.equals(expected), `${op.path} differs from the expected bytes`);
  });
}
