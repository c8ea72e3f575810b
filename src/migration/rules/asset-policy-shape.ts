// Version 8's `asset_policy` → version 9's, before rule 8 adds the audit.db rows to it. The allowed and denied
// entries stay where they are (name, connector, reason; `source_path_contains` pins an allow), so their
// comments survive; what version 9 has no home for goes, each with a note: the section's `enabled` and `mode`
// (version 9 always enforces the lists), `connectors`, and per type `default`, `registry*` and
// `runtime_detection`; an entry's `url`. A list of path markers keeps its first (version 9 pins one).
import { isMap, isSeq, type YAMLMap } from 'yaml';
import { read, remove } from '../doc-edit.js';
import type { MigrationContext, MigrationRule } from '../types.js';

const TYPES = ['skill', 'mcp', 'plugin'] as const;
const TYPE_KEYS_WITHOUT_HOME = ['default', 'registry_required', 'registry_empty_action', 'registry', 'runtime_detection'];

export const assetPolicyShape: MigrationRule = (ctx) => {
  if (read(ctx.doc, ['asset_policy']) === undefined) return;
  const enabled = read(ctx.doc, ['asset_policy', 'enabled']);
  const mode = read(ctx.doc, ['asset_policy', 'mode']);
  if (enabled === false || mode === 'observe') {
    const hasEntries = TYPES.some((t) => ['allowed', 'denied'].some((l) => ((read(ctx.doc, ['asset_policy', t, l]) as unknown[] | undefined) ?? []).length > 0));
    if (hasEntries) {
      ctx.record.notes.push(`asset_policy was ${enabled === false ? 'disabled' : 'in observe mode'} in version 8; version 9 enforces its block and allow lists at install admission`);
    }
  }
  for (const key of ['enabled', 'mode', 'connectors']) drop(ctx, ['asset_policy', key]);
  for (const type of TYPES) {
    for (const key of TYPE_KEYS_WITHOUT_HOME) drop(ctx, ['asset_policy', type, key]);
    for (const list of ['allowed', 'denied'] as const) reshapeEntries(ctx, type, list);
  }
};

function reshapeEntries(ctx: MigrationContext, type: string, list: 'allowed' | 'denied'): void {
  const seq = ctx.doc.getIn(['asset_policy', type, list], true);
  if (!isSeq(seq)) return;
  seq.items.forEach((item, i) => {
    if (!isMap(item)) return;
    const entry = item as YAMLMap;
    const where = `asset_policy.${type}.${list}.${i}`;
    if (entry.has('url')) {
      ctx.record.notes.push(`${where} (${String(entry.get('name'))}): url has no version 9 home; the entry matches by name`);
      entry.delete('url');
    }
    const markers = entry.get('source_path_contains', true);
    if (list === 'denied' && markers !== undefined) {
      ctx.record.notes.push(`${where}: source_path_contains does not apply to a block in version 9; removed`);
      entry.delete('source_path_contains');
    } else if (isSeq(markers)) {
      const values = markers.toJSON() as unknown[];
      if (values.length > 1) ctx.record.notes.push(`${where}: version 9 pins one source_path_contains; kept ${JSON.stringify(values[0])}`);
      if (values.length === 0) entry.delete('source_path_contains');
      else entry.set('source_path_contains', values[0]);
    }
  });
}

function drop(ctx: MigrationContext, path: string[]): void {
  if (read(ctx.doc, path) === undefined) return;
  remove(ctx.doc, path);
  ctx.record.removed.push(path.join('.'));
}
