// Limits of reading a version 8 home for the migration (readHome), in one table (documented in
// docs/configuration.md "Limits"): a home is operator-writable, so nothing it holds may make the migration read
// without bound.
import { defineLimits, MiB } from '../util/limit-table.js';

export const MIGRATION_LIMITS = defineLimits('Migration 8 → 9', 'src/migration/limits.ts', {
  maxFileBytes: { value: 4 * MiB, unit: 'bytes', what: 'One file the migration reads from the home (config.yaml, data.json, a rule file, a Rego module, a signature pack); a larger one stops the migration naming the file.' },
  maxTotalBytes: { value: 64 * MiB, unit: 'bytes', what: 'Everything the migration reads from the home together; past it the migration stops.' },
  maxFilesPerFolder: { value: 1000, unit: 'count', what: 'Files read from one rule-pack, Rego or signature-pack folder; more stop the migration naming the folder.' },
  maxActionsRows: { value: 200_000, unit: 'count', what: 'Rows read from the audit.db `actions` table; more stop the migration.' },
  maxRulesPerMergedFile: { value: 2048, unit: 'count', what: 'Rules in one rule file of a rebased `<folder>-1.0` pack after merging the files of a category; more stop the migration (a merge that cannot be done safely).' },
});
