// The migration as the commands and the gateway use it: the home reader (read-home.ts) and the pure migration
// (migrate.ts) joined to the orchestration (run.ts). Everything outside src/migration imports the migration
// from here, with the dependencies passed as a parameter that tests fill with their own.
import { MigrationApplyError } from './apply-error.js';
import type { MigrationDeps } from './run.js';

export type { MigrationDeps, RunOptions, RunOutcome } from './run.js';

/**
 * The real reader and migration. Empty until read-home.ts and migrate.ts are part of this build; the join is
 *   import { readHome } from './read-home.js';
 *   import { migrate } from './migrate.js';
 *   export const BUILT_IN_DEPS: MigrationDeps | undefined = { readHome, migrate };
 */
export const BUILT_IN_DEPS: MigrationDeps | undefined = undefined;

/** The dependencies a command or the gateway runs with: the caller's (tests), else the built-in ones. */
export function migrationDeps(given?: MigrationDeps): MigrationDeps {
  const deps = given ?? BUILT_IN_DEPS;
  if (!deps) throw new MigrationApplyError('WARDEN_ERR_MIGRATION_UNAVAILABLE', 'this build of Warden does not carry the config_version 8 → 9 migration yet');
  return deps;
}
