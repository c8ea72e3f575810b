// Rule 7: version 8's top-level `update_check` becomes `update.check`; written only when it differs from the
// built-in `true` (rule 1).
import { read, remove, write } from '../doc-edit.js';
import type { MigrationRule } from '../types.js';

export const updateCheck: MigrationRule = (ctx) => {
  const value = read(ctx.doc, ['update_check']);
  if (value === undefined) return;
  remove(ctx.doc, ['update_check']);
  if (value === true) {
    ctx.record.notes.push('update_check: true is the version 9 default (update.check); not written');
    return;
  }
  write(ctx.doc, ['update', 'check'], value);
  ctx.record.moved.push({ source: 'config', from: 'update_check', to: 'update.check', value });
};
