// Applying a migration plan to the data home: the only place the 8 → 9 migration writes. It refuses, writing
// nothing, when the result would not load as version 9 or when config.yaml is no longer the file the plan was
// made from. Then every write is atomic (src/util/atomic-write.ts) and the set is ordered around one commit
// point, the rename of the new config.yaml, so that a process killed at any moment leaves either the old or the
// new configuration in force:
//
//   1 backup      config.yaml.v8.bak, the exact old bytes              harmless to the old configuration
//   2 env         .env gains the inline analyzer keys                  an unused variable is harmless
//   3 new-files   writes into folders the old home did not have        nothing of the old configuration reads them
//   4 journal     the operations that must wait for the commit         read by nothing but a re-run
//   5 record      migration-v9.json (0600)                             doctor trusts it only once config.yaml is 9
//   6 generation  config.generation.json, naming the new hash          a reader compares its hash to config.yaml
//   7 commit      config.yaml                                          the new configuration is in force from here
//   8 deferred    renames away (data.json, the providers overlay, …) and overwrites of files the old
//                 configuration reads; each idempotent, then the journal is removed
//
// A run interrupted after the commit is finished by `finishPendingOperations` (every command calls it first); one
// interrupted before it left only harmless files, and the next run migrates again from the untouched config.yaml.
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { parseEnv } from 'node:util';
import { parseConfig } from '../config/load.js';
import { readDotenv, writeDotenvVariable } from '../config/token.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { MigrationApplyError } from './apply-error.js';
import { nextGeneration } from './generation.js';
import { BACKUP_FILE, GENERATION_FILE, JOURNAL_FILE, RECORD_FILE } from './files-left.js';
import type { FileOperation, MigrationPlan } from './types.js';

/** The steps in order; `operation` comes once after each deferred operation, `deferred` once they are all done. */
export const APPLY_STEPS = ['backup', 'env', 'new-files', 'journal', 'record', 'generation', 'commit', 'operation', 'deferred'] as const;
export type ApplyStep = (typeof APPLY_STEPS)[number];

export interface ApplyOptions {
  /** SHA-256 of config.yaml as read when the migration started (the changed-while-running check). */
  expectedSourceSha256: string;
  /**
   * Test hook, called after each step has reached the disk. Only the kill-between-steps test sets it (its child
   * process ends itself there with SIGKILL); the commands never do.
   */
  onStep?: (step: ApplyStep) => void;
}

export interface ApplyResult {
  /** Home-relative paths written or renamed, in order (the .env variables are not named). */
  changed: string[];
}

/** An operation kept in the journal until the commit: a rename, or a write whose bytes travel as base64. */
type JournalOperation = { op: 'rename'; from: string; to: string } | { op: 'write'; path: string; base64: string; mode?: number };
interface Journal {
  result_sha256: string;
  operations: JournalOperation[];
  /** How many operations are done (absent: none). */
  done?: number;
}

/** Files apply writes itself; a plan's operation may not touch them. */
const RESERVED = new Set(['config.yaml', '.env', BACKUP_FILE, RECORD_FILE, GENERATION_FILE, JOURNAL_FILE]);
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

export const sha256 = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

export function applyPlan(home: string, plan: MigrationPlan, options: ApplyOptions): ApplyResult {
  const configPath = join(home, 'config.yaml');
  const step = (name: ApplyStep) => options.onStep?.(name);
  checkResult(plan, configPath);
  const source = readFileSync(configPath);
  checkSource(source, plan, options.expectedSourceSha256, configPath);
  for (const operation of plan.operations) checkOperation(home, operation);
  const dotenv = readDotenv(join(home, '.env'));
  const envLines = new Map<string, string>();
  for (const operation of plan.operations) {
    if (operation.op !== 'env') continue;
    // A variable the operator already set to something else stays theirs: the old configuration may read it.
    const existing = dotenv[operation.name];
    if (existing !== undefined && existing !== operation.value) {
      throw new MigrationApplyError('WARDEN_ERR_MIGRATION_UNSAFE_PATH', `${join(home, '.env')} already sets ${operation.name} to another value; nothing was written`);
    }
    envLines.set(operation.name, dotenvValue(operation.name, operation.value));
  }
  // A folder the old home already has may be read whole by the old configuration (policies/rego/, a rule pack):
  // what goes into it waits for the commit. A folder created here is read by the new configuration only.
  const isNewFolder = new Map<string, boolean>();
  for (const operation of plan.operations) {
    if (operation.op === 'write') isNewFolder.set(operation.path, !existsSync(join(home, dirname(operation.path))));
  }

  const changed: string[] = [];
  writeFileAtomic(join(home, BACKUP_FILE), source, 0o600);
  changed.push(BACKUP_FILE);
  step('backup');

  for (const [name, value] of envLines) {
    if (dotenv[name] === undefined) writeDotenvVariable(join(home, '.env'), name, value);
  }
  step('env');

  const deferred: JournalOperation[] = [];
  for (const operation of plan.operations) {
    if (operation.op === 'write' && isNewFolder.get(operation.path)) {
      writeInto(home, operation.path, operation.bytes, operation.mode);
      changed.push(operation.path);
    } else if (operation.op === 'write') {
      deferred.push({ op: 'write', path: operation.path, base64: operation.bytes.toString('base64'), ...(operation.mode === undefined ? {} : { mode: operation.mode }) });
    } else if (operation.op === 'rename') {
      deferred.push({ op: 'rename', from: operation.from, to: operation.to });
    }
  }
  step('new-files');

  const journal: Journal = { result_sha256: plan.record.result_sha256, operations: deferred };
  writeFileAtomic(join(home, JOURNAL_FILE), `${JSON.stringify(journal)}\n`, 0o600);
  step('journal');
  writeFileAtomic(join(home, RECORD_FILE), `${JSON.stringify(plan.record, null, 2)}\n`, 0o600);
  changed.push(RECORD_FILE);
  step('record');
  const generation = nextGeneration(home, plan.record.result_sha256, plan.record.actor, new Date());
  writeFileAtomic(join(home, GENERATION_FILE), `${JSON.stringify(generation, null, 2)}\n`, 0o600);
  changed.push(GENERATION_FILE);
  step('generation');

  // Once more just before the commit: an edit made while the side files were written must not be overwritten.
  checkSource(readFileSync(configPath), plan, options.expectedSourceSha256, configPath);
  writeFileAtomic(configPath, plan.configText);
  changed.push('config.yaml');
  step('commit');

  changed.push(...finishPendingOperations(home, () => step('operation')).changed);
  step('deferred');
  return { changed };
}

/**
 * Finishes the operations a migration left in its journal when it was interrupted after its commit point. A
 * journal whose config.yaml was never replaced is stale (the run stopped before the commit) and is dropped: the
 * old configuration is in force and a new run starts over. No journal: nothing to do.
 */
export function finishPendingOperations(home: string, afterOperation?: () => void): { finished: boolean; changed: string[] } {
  const path = join(home, JOURNAL_FILE);
  let journal: Journal;
  try {
    journal = JSON.parse(readFileSync(path, 'utf8')) as Journal;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { finished: false, changed: [] };
    throw err;
  }
  let current: string;
  try {
    current = sha256(readFileSync(join(home, 'config.yaml')));
  } catch {
    current = '';
  }
  if (current !== journal.result_sha256) {
    rmSync(path, { force: true });
    return { finished: false, changed: [] };
  }
  const changed: string[] = [];
  // The journal advances after each operation, so a run killed here repeats at most the last one, and each is
  // safe to repeat: a write writes the same bytes, a rename whose source is gone was done.
  for (let index = journal.done ?? 0; index < journal.operations.length; index++) {
    const operation = journal.operations[index]!;
    if (operation.op === 'write') {
      checkPath(home, operation.path);
      writeInto(home, operation.path, Buffer.from(operation.base64, 'base64'), operation.mode);
      changed.push(operation.path);
    } else if (existsSync(join(home, operation.from))) {
      checkOperation(home, operation);
      mkdirSync(dirname(join(home, operation.to)), { recursive: true, mode: 0o700 });
      renameSync(join(home, operation.from), join(home, operation.to));
      changed.push(operation.to);
    }
    writeFileAtomic(path, `${JSON.stringify({ ...journal, done: index + 1 })}\n`, 0o600);
    afterOperation?.();
  }
  rmSync(path, { force: true });
  return { finished: true, changed };
}

function checkResult(plan: MigrationPlan, configPath: string): void {
  try {
    // parseConfig accepts the current config_version only (an older or newer one is refused), so loading is the check.
    parseConfig(plan.configText, configPath);
  } catch (err) {
    throw new MigrationApplyError('WARDEN_ERR_MIGRATION_RESULT_INVALID',
      `the migrated configuration would not load, nothing was written: ${(err as Error).message.replace(/\n\s*/g, ' ')}`, { cause: err });
  }
  if (sha256(plan.configText) !== plan.record.result_sha256) {
    throw new MigrationApplyError('WARDEN_ERR_MIGRATION_RESULT_INVALID', 'the record\'s result_sha256 is not the hash of the migrated configuration; nothing was written');
  }
}

function checkSource(bytes: Buffer, plan: MigrationPlan, expected: string, configPath: string): void {
  const actual = sha256(bytes);
  if (actual !== expected || actual !== plan.record.source_sha256) {
    throw new MigrationApplyError('WARDEN_ERR_MIGRATION_SOURCE_CHANGED',
      `${configPath} changed while the migration ran; nothing was written (run the migration again)`);
  }
}

/** The value as written after `NAME=` so that .env reads it back exactly: bare, or quoted when it must be. */
function dotenvValue(name: string, value: string): string {
  for (const candidate of [value, `"${value}"`, `'${value}'`]) {
    if (parseEnv(`${name}=${candidate}\n`)[name] === value) return candidate;
  }
  throw new MigrationApplyError('WARDEN_ERR_MIGRATION_UNSAFE_PATH', `the value of ${name} cannot be written to .env so that it reads back the same`);
}

function checkOperation(home: string, operation: FileOperation): void {
  if (operation.op === 'env') {
    // The name becomes a line of .env and part of a pattern; the value one line: refuse anything else.
    if (!ENV_NAME.test(operation.name) || /[\r\n\0]/.test(operation.value)) {
      throw new MigrationApplyError('WARDEN_ERR_MIGRATION_UNSAFE_PATH', `a .env variable the migration would write is not a plain NAME=value line (${operation.name.slice(0, 40)})`);
    }
    return;
  }
  for (const path of operation.op === 'write' ? [operation.path] : [operation.from, operation.to]) checkPath(home, path);
}

/** A home-relative path that stays inside the home, names no file apply owns, and crosses no symbolic link. */
function checkPath(home: string, path: string): void {
  const unsafe = (why: string) => new MigrationApplyError('WARDEN_ERR_MIGRATION_UNSAFE_PATH', `the migration may not write ${JSON.stringify(path)}: ${why}`);
  if (path === '' || isAbsolute(path) || path.includes('\\') || path.includes('\0')) throw unsafe('not a relative path');
  if (path.split('/').some((segment) => segment === '..' || segment === '.' || segment === '')) throw unsafe('not a plain path');
  const target = resolve(home, path);
  const inside = relative(home, target);
  if (inside.startsWith('..') || isAbsolute(inside)) throw unsafe('outside the data home');
  if (RESERVED.has(inside)) throw unsafe('written by the migration itself');
  let folder = home;
  for (const segment of inside.split(sep).slice(0, -1)) {
    folder = join(folder, segment);
    let stat;
    try {
      stat = lstatSync(folder);
    } catch {
      return; // the rest of the path does not exist yet: created as folders
    }
    if (stat.isSymbolicLink() || !stat.isDirectory()) throw unsafe(`${segment} is not a folder of the home`);
  }
}

function writeInto(home: string, path: string, bytes: Uint8Array, mode?: number): void {
  const target = join(home, path);
  mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
  writeFileAtomic(target, bytes, mode ?? 0o600);
}
