// Resource limits of the sandbox undo points (snapshots, review, project checks), in one table (documented in
// docs/configuration.md "Limits"). They keep one runaway project from making a snapshot or a review unbounded.
import { defineLimits, MiB } from '../../util/limit-table.js';

export const SNAPSHOT_LIMITS = defineLimits('Sandbox undo points', 'src/sandbox/snapshot/limits.ts', {
  maxEntries: {
    value: 500_000,
    unit: 'count',
    what: 'Files, symbolic links and folders in one snapshot of a mounted project (after the excludes); a larger project is refused an undo point (use copy mode or no_snapshot).',
  },
  maxDiffBytes: { value: 1 * MiB, unit: 'bytes', what: 'Unified diff returned by a review; the rest is cut and a note says so.' },
  maxNestedScanEntries: {
    value: 100_000,
    unit: 'count',
    what: 'Folder entries looked at when searching a project for nested git repositories; the search stops there.',
  },
  gitTimeoutMs: { value: 300_000, unit: 'ms', what: 'One git command of a snapshot, review or undo; past it the command is killed and the operation fails.' },
});
