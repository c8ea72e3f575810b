// Rule 8 of the 8 → 9 migration: the operator's block and allow decisions, which version 8 kept as rows of the
// audit.db `actions` table, become `asset_policy.<type>.denied` / `.allowed` entries (name, connector when the
// tool was recorded as `@<connector>/<tool>`, reason; an allow is pinned to its install path with
// `source_path_contains`). Rows a scan verdict wrote stay in audit.db: they are findings, not decisions. On a
// managed host the operator rows are not moved (the admin's policy decides there) and are counted as ignored.
// For one target the latest row wins (the operator changed their mind); an entry config.yaml already has wins
// over a row. The table's columns are in docs/migration.md "Version 8 audit.db actions".
import { isMap, isSeq } from 'yaml';
import { ASSET_TYPES } from '../../config/schema.js';
import type { ActionsRow, MigrationContext, MigrationRule } from '../types.js';

const SCAN_VERDICT = /^(auto-block|post-scan:|post-install scan:|scan:)/;
const CONNECTOR_TOOL = /^@([a-z0-9][a-z0-9_-]*)\/(.+)$/;
const LIST_OF = { block: 'denied', allow: 'allowed' } as const;

interface Entry { name: string; connector?: string; reason: string; source_path_contains?: string }

/** A row the operator wrote (block or allow), not a scan verdict. */
export function isOperatorRow(row: ActionsRow): row is ActionsRow & { action: 'block' | 'allow' } {
  return (row.action === 'block' || row.action === 'allow') && !SCAN_VERDICT.test(row.reason);
}

export const auditActionsRule: MigrationRule = (ctx) => {
  if (ctx.input.scope === 'client-managed') return;
  const rows = ctx.input.actionsRows.filter(isOperatorRow);
  if (ctx.input.scope === 'managed') {
    ctx.record.actions_rows_ignored += rows.length;
    if (rows.length) ctx.record.notes.push(`${rows.length} operator block/allow rows of audit.db were left in place: on a managed host the admin policy decides`);
    return;
  }
  const latest = new Map<string, { row: ActionsRow & { action: 'block' | 'allow' }; type: string; entry: Entry }>();
  for (const row of [...rows].sort((a, b) => compareIds(a.id, b.id))) {
    if (!(ASSET_TYPES as readonly string[]).includes(row.target_type)) {
      ctx.record.notes.push(`audit.db actions row ${row.id}: target type "${row.target_type}" has no asset_policy list; the row stays in audit.db`);
      continue;
    }
    const entry = entryOf(row);
    latest.set(JSON.stringify([row.target_type, entry.name, entry.connector ?? null]), { row, type: row.target_type, entry });
  }
  // What config.yaml lists, read once: the latest rows are one per target, so they never clash with each other,
  // and reading the lists again for each of thousands of rows was the migration's largest cost.
  const listed = listedInConfig(ctx);
  for (const [key, { row, type, entry }] of latest) {
    const list = LIST_OF[row.action];
    if (listed.has(key)) {
      ctx.record.notes.push(`audit.db actions row ${row.id}: ${type} "${entry.name}" is already in config.yaml's asset_policy; the file's entry is kept`);
      continue;
    }
    append(ctx, ['asset_policy', type, list], entry);
    ctx.record.moved.push({ source: 'audit.db', from: `actions#${row.id}`, to: `asset_policy.${type}.${list}`, value: entry });
    ctx.record.actions_rows_moved++;
  }
};

function entryOf(row: ActionsRow & { action: 'block' | 'allow' }): Entry {
  const split = CONNECTOR_TOOL.exec(row.target_name);
  const entry: Entry = split ? { name: split[2]!, connector: split[1]!, reason: row.reason } : { name: row.target_name, reason: row.reason };
  const sourcePath = row.row.source_path;
  if (row.action === 'allow' && typeof sourcePath === 'string' && sourcePath !== '') entry.source_path_contains = sourcePath;
  return entry;
}

function compareIds(a: number | string, b: number | string): number {
  return typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b));
}

/** The targets config.yaml's asset_policy lists already name, keyed like `latest` (type, name, connector). */
function listedInConfig(ctx: MigrationContext): Set<string> {
  const keys = new Set<string>();
  for (const type of ASSET_TYPES) {
    for (const list of Object.values(LIST_OF)) {
      const node = ctx.doc.getIn(['asset_policy', type, list]);
      if (!isSeq(node)) continue;
      for (const e of node.toJSON() as Partial<Entry>[]) keys.add(JSON.stringify([type, e?.name, e?.connector ?? null]));
    }
  }
  return keys;
}

function append(ctx: MigrationContext, path: string[], entry: Entry): void {
  const node = ctx.doc.getIn(path);
  if (isSeq(node)) {
    node.add(ctx.doc.createNode(entry));
    return;
  }
  if (!isMap(ctx.doc.getIn(path.slice(0, -1)))) ctx.doc.setIn(path.slice(0, -1), ctx.doc.createNode({}));
  ctx.doc.setIn(path, ctx.doc.createNode([entry]));
}
