// One migration run, as every command performs it: decide the scope, finish a run that was interrupted after
// its commit point, read the home, make the plan, and apply it (or stop at the plan for --dry-run and --check).
// The reader and the pure migration are passed in (`deps`), so the orchestration does not depend on how they
// are built and tests can hand it plans of their own; index.ts composes the real ones.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { ConfigError } from '../config/load.js';
import { CURRENT_CONFIG_VERSION } from '../config/schema.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { applyPlan, finishPendingOperations, sha256, type ApplyStep } from './apply.js';
import { CLIENT_MANAGED_MARKER, JOURNAL_FILE, RECORD_FILE } from './files-left.js';
import type { MigrationInput, MigrationPlan, MigrationRecord, MigrationScope } from './types.js';

/** What a run needs from the rest of the migration: the home reader and the pure function. */
export interface MigrationDeps {
  readHome(home: string, scope: MigrationScope, now?: Date, userHome?: string): Promise<MigrationInput>;
  migrate(input: MigrationInput): MigrationPlan;
}

export interface RunOptions {
  /** Make the plan and stop: nothing is written (`--dry-run`, `--check`). */
  dryRun?: boolean;
  /** Mark the record read (`--ack`): the new record when migrating, the existing one when already at 9. */
  ack?: boolean;
  /** Who is migrating; detected from the home when not given (see detectScope). */
  scope?: MigrationScope;
  now?: Date;
  /** The user's home folder the agents' MCP configurations are read from (rule 12); the process's by default. */
  userHome?: string;
  /** The version 9 step only (`config migrate`): a file older than 8 needs `warden migrate`, which runs every step. */
  v9StepOnly?: boolean;
  /** Test hook handed to applyPlan (the kill-between-steps test). */
  onStep?: (step: ApplyStep) => void;
}

export type RunOutcome =
  /** A client-managed profile: left unchanged, its managing client migrates it. */
  | { status: 'client-managed'; scope: 'client-managed' }
  /** config.yaml is already version 9. */
  | { status: 'nothing-to-do'; scope: MigrationScope; record?: MigrationRecord; acknowledged: boolean; finishedInterrupted: boolean; interruptedPending: boolean }
  /** --dry-run / --check: the plan, not written. */
  | { status: 'planned'; scope: MigrationScope; fromVersion: number; plan: MigrationPlan }
  | { status: 'migrated'; scope: MigrationScope; fromVersion: number; plan: MigrationPlan; changed: string[] };

/**
 * The scope of a home: a `client-managed` marker file makes it a client-managed profile; a version 8 file on a
 * standalone sandbox host (`openshell.mode: standalone`, which only the managed lifecycle writes) is a managed
 * standalone host; anything else is a per-user install.
 */
export function detectScope(home: string, configText: string): MigrationScope {
  if (existsSync(join(home, CLIENT_MANAGED_MARKER))) return 'client-managed';
  const doc = parseDocument(configText);
  return doc.getIn(['openshell', 'mode']) === 'standalone' ? 'managed' : 'user';
}

/** config_version of a config.yaml text, or undefined when it has none the migration could start from. */
export function configVersionOf(configText: string): number | undefined {
  const version = parseDocument(configText).get('config_version');
  return typeof version === 'number' ? version : undefined;
}

export function readRecord(home: string): MigrationRecord | undefined {
  try {
    return JSON.parse(readFileSync(join(home, RECORD_FILE), 'utf8')) as MigrationRecord;
  } catch {
    return undefined;
  }
}

export async function runMigration(deps: MigrationDeps, home: string, options: RunOptions = {}): Promise<RunOutcome> {
  const configPath = join(home, 'config.yaml');
  let configText: string;
  try {
    configText = readFileSync(configPath, 'utf8');
  } catch (err) {
    throw new ConfigError(`cannot read ${configPath}: ${(err as Error).message} (a first \`warden start\` writes a version ${CURRENT_CONFIG_VERSION} file)`);
  }
  const scope = options.scope ?? detectScope(home, configText);
  if (scope === 'client-managed') return { status: 'client-managed', scope };

  // A run killed after its commit left a journal: finish it first (a dry run only reports it).
  const finishedInterrupted = options.dryRun ? false : finishPendingOperations(home).finished;
  const current = finishedInterrupted ? readFileSync(configPath, 'utf8') : configText;
  const fromVersion = configVersionOf(current);
  if (fromVersion !== undefined && fromVersion > CURRENT_CONFIG_VERSION) {
    throw new ConfigError(`${configPath}: config_version ${fromVersion} is newer than this Warden supports (${CURRENT_CONFIG_VERSION}); upgrade Warden`);
  }
  if (fromVersion === CURRENT_CONFIG_VERSION) {
    const record = readRecord(home);
    const acknowledged = Boolean(options.ack && record && !options.dryRun);
    if (acknowledged && record && !record.acknowledged) {
      record.acknowledged = true;
      writeFileAtomic(join(home, RECORD_FILE), `${JSON.stringify(record, null, 2)}\n`, 0o600);
    }
    const interruptedPending = Boolean(options.dryRun && existsSync(join(home, JOURNAL_FILE)));
    return { status: 'nothing-to-do', scope, record, acknowledged, finishedInterrupted, interruptedPending };
  }

  if (options.v9StepOnly && fromVersion !== undefined && fromVersion < 8) {
    throw new ConfigError(`${configPath}: config_version ${fromVersion} needs the earlier steps too: run \`warden migrate\``);
  }
  const input = await deps.readHome(home, scope, options.now, options.userHome);
  const plan = deps.migrate(input);
  if (options.ack) plan.record.acknowledged = true;
  if (options.dryRun) return { status: 'planned', scope, fromVersion: fromVersion ?? 8, plan };
  const { changed } = applyPlan(home, plan, { expectedSourceSha256: sha256(input.configText), onStep: options.onStep });
  return { status: 'migrated', scope, fromVersion: fromVersion ?? 8, plan, changed };
}
