// What the migration commands print: one summary line per outcome, the pending steps of `--check`, and the
// longer listing of `warden-gateway config migrate` (removed keys, audit entries moved). Secrets never appear:
// a .env operation is named by its variable only, and the record already holds `<redacted>` for their values.
import { join } from 'node:path';
import { RECORD_FILE } from '../migration/files-left.js';
import type { RunOutcome } from '../migration/run.js';
import type { FileOperation, MigrationRecord } from '../migration/types.js';

export interface ReportOptions {
  home: string;
  /** The gateway form (`warden-gateway config migrate`) also lists removed keys and audit entries moved. */
  gatewayForm: boolean;
}

export function describeOutcome(outcome: RunOutcome, { home, gatewayForm }: ReportOptions): string[] {
  const configPath = join(home, 'config.yaml');
  switch (outcome.status) {
    case 'client-managed':
      return [`client-managed profile: ${configPath} is left unchanged (the client that manages it migrates it)`];
    case 'nothing-to-do':
      return [
        ...(outcome.finishedInterrupted ? ['finished the file moves of an interrupted migration'] : []),
        ...(outcome.interruptedPending ? ['an interrupted migration has file moves left: run `warden migrate` to finish them'] : []),
        `nothing to migrate: ${configPath} is already config_version 9`,
        ...(outcome.acknowledged ? [`migration record ${join(home, RECORD_FILE)} marked as read`] : []),
      ];
    case 'planned':
      return [`dry run, nothing written: ${configPath} would be migrated from config_version ${outcome.fromVersion} to 9`,
        ...summary(outcome.plan.record), ...operations(outcome.plan.operations), ...(gatewayForm ? details(outcome.plan.record) : [])];
    case 'migrated':
      return [`migrated ${configPath} from config_version ${outcome.fromVersion} to 9 (old file kept as config.yaml.v8.bak)`,
        ...summary(outcome.plan.record), ...(gatewayForm ? details(outcome.plan.record) : []),
        outcome.plan.record.acknowledged
          ? `record: ${join(home, RECORD_FILE)}`
          : `record: ${join(home, RECORD_FILE)}; once read, run \`warden config migrate --ack\``];
  }
}

/** `warden migrate --check`: the steps a run would take, one a line; empty when there is nothing to do. */
export function pendingSteps(outcome: RunOutcome): string[] {
  switch (outcome.status) {
    case 'client-managed':
      return [];
    case 'nothing-to-do':
      return outcome.interruptedPending ? ['finish the file moves of an interrupted migration'] : [];
    case 'planned':
    case 'migrated':
      return [
        ...(outcome.fromVersion < 8 ? [`convert config_version ${outcome.fromVersion} to 8`] : []),
        `migrate config_version 8 to 9 (${outcome.plan.record.moved.length} values moved, ${outcome.plan.record.removed.length} keys removed, ` +
          `${outcome.plan.record.conflicts.length} conflicts)`,
        ...operations(outcome.plan.operations),
      ];
  }
}

function summary(record: MigrationRecord): string[] {
  return [
    `  ${record.moved.length} values moved, ${record.removed.length} keys removed, ${record.actions_rows_moved} audit rows moved` +
      (record.actions_rows_ignored > 0 ? `, ${record.actions_rows_ignored} operator audit rows left in place` : ''),
    ...record.conflicts.map((c) => `  conflict: ${c.to}: kept ${JSON.stringify(c.kept)}, lost ${JSON.stringify(c.lost)} (${c.reason})`),
    ...record.notes.map((note) => `  note: ${note}`),
    ...record.unscannable_mcp.map((m) => `  unscannable MCP server ${m.name}: ${m.fix}`),
    ...record.rule_pack_rebase_failures.map((f) => `  rule pack ${f.pack} not rebased: ${f.reason}`),
  ];
}

function details(record: MigrationRecord): string[] {
  const audit = record.moved.filter((m) => m.source === 'audit.db');
  return [
    ...record.removed.map((key) => `  removed: ${key}`),
    ...audit.map((m) => `  audit entry moved: ${m.from} -> ${m.to}`),
  ];
}

function operations(list: FileOperation[]): string[] {
  return list.map((o) =>
    o.op === 'rename' ? `  rename ${o.from} -> ${o.to}` : o.op === 'write' ? `  write ${o.path}` : `  .env: set ${o.name} (value not shown)`);
}
