// The contract of the config_version 8 → 9 migration (spec document 1, "Configuration migration"). The
// migration is a pure function from what a version 8 home holds to what the version 9 home must hold: the new
// config.yaml text, the record (migration-v9.json) and the file operations. Applying the operations is a
// separate, transactional step (apply.ts), so the same plan serves --dry-run, --check, the gateway's in-memory
// migration at start and reload, and the real write.
import type { Document } from 'yaml';

/** Who runs the migration: a per-user install, or the lifecycle on a managed standalone host. */
export type MigrationScope = 'user' | 'managed' | 'client-managed';

/** A file of the version 8 home, read once at the start (so the plan never races the disk). */
export interface HomeFile {
  /** Path relative to the home, with `/` separators. */
  path: string;
  bytes: Buffer;
}

/** An audit.db `actions` row, read-only (rule 8). */
export interface ActionsRow {
  id: number | string;
  target_type: string;
  target_name: string;
  action: string;
  reason: string;
  /** The raw row, for the record. */
  row: Record<string, unknown>;
}

/** Everything the migration reads. Built by `readHome()` (read-home.ts); tests build it from fixture folders. */
export interface MigrationInput {
  /** Absolute path of the data home ($WARDEN_HOME). */
  home: string;
  scope: MigrationScope;
  /** Exact bytes of config.yaml as read; `source_sha256` is their hash. */
  configText: string;
  /** Every other file the rules look at (data.json, rule-pack folders, Rego modules, the providers overlay,
   *  signature packs, .env), keyed by home-relative path. */
  files: Map<string, HomeFile>;
  /** audit.db `actions` rows; empty when there is no audit.db. */
  actionsRows: ActionsRow[];
  /** The time to stamp, so a run is reproducible in tests. */
  now: Date;
}

/** One entry of `moved[]`: where a value came from and where it went (secrets as `<redacted>`). */
export interface MovedEntry {
  source: 'config' | 'data.json' | 'audit.db';
  from: string;
  to: string;
  value: unknown;
}

export interface ConflictEntry {
  to: string;
  kept: unknown;
  lost: unknown;
  reason: string;
}

/** migration-v9.json, every field of the spec's table. */
export interface MigrationRecord {
  schema_version: 1;
  from_version: 8;
  to_version: 9;
  migrated_at: string;
  actor: 'migration' | 'lifecycle';
  source_sha256: string;
  result_sha256: string;
  moved: MovedEntry[];
  conflicts: ConflictEntry[];
  removed: string[];
  actions_rows_moved: number;
  actions_rows_ignored: number;
  notes: string[];
  renamed_rules: Array<{ pack: string; from: string; to: string }>;
  expressed_rules: Array<{ pack: string; id: string }>;
  detection_only_rules: Array<{ pack: string; id: string }>;
  rule_file_merges: Array<{ pack: string; category: string; into: string; from: string[]; rules: number }>;
  rule_pack_rebase_failures: Array<{ pack: string; reason: string }>;
  unenforced_rego_data: string[];
  unscannable_mcp: Array<{ name: string; connector?: string; command: string; fix: string }>;
  acknowledged: boolean;
}

/**
 * A file change the apply step performs, in order. Paths are home-relative. `config.yaml`,
 * `config.yaml.v8.bak`, `migration-v9.json` and `config.generation.json` are not listed here: apply writes those
 * itself, in the order that keeps the old or the new configuration in force at every point.
 */
export type FileOperation =
  | { op: 'write'; path: string; bytes: Buffer; mode?: number }
  | { op: 'rename'; from: string; to: string }
  /** Append `NAME=value` lines to .env (rule 6: inline analyzer keys); never logged. */
  | { op: 'env'; name: string; value: string };

/** What a rule works on: the version 9 document being edited (comments and order kept) and the record. */
export interface MigrationContext {
  input: MigrationInput;
  /** The config.yaml document, edited in place by the rules (the `yaml` document API). */
  doc: Document;
  record: MigrationRecord;
  operations: FileOperation[];
}

/** One migration rule (rules 1–12 of the spec); each lives in its own file under src/migration/rules/. */
export type MigrationRule = (ctx: MigrationContext) => void;

/** The result of `migrate()`: nothing has been written yet. */
export interface MigrationPlan {
  configText: string;
  record: MigrationRecord;
  operations: FileOperation[];
}
