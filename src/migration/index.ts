// The migration as the commands and the gateway use it: the home reader (read-home.ts) and the pure migration
// (migrate.ts) joined to the orchestration (run.ts). Everything outside src/migration imports the migration
// from here; tests may pass their own dependencies.
import { migrate } from './migrate.js';
import { readHome } from './read-home.js';
import type { MigrationDeps } from './run.js';

export type { MigrationDeps, RunOptions, RunOutcome } from './run.js';

/** The real reader and migration. */
export const BUILT_IN_DEPS: MigrationDeps = { readHome, migrate };

/** The dependencies a command or the gateway runs with: the caller's (tests), else the built-in ones. */
export function migrationDeps(given?: MigrationDeps): MigrationDeps {
  return given ?? BUILT_IN_DEPS;
}
