// Failures of applying a migration plan and of the lifecycle commands around it (upgrade, rollback). The
// migration's own failures (a file that cannot be migrated) are MigrationError in errors.ts; these are about
// the home on disk and the install, each with a stable code listed in docs/errors.md.
import { WardenError } from '../errors.js';

export type MigrationApplyCode =
  /** The plan's result would not load as version 9: nothing was written. */
  | 'WARDEN_ERR_MIGRATION_RESULT_INVALID'
  /** config.yaml changed on disk while the migration ran: nothing was written. */
  | 'WARDEN_ERR_MIGRATION_SOURCE_CHANGED'
  /** A file operation names a path outside the home, or through a symbolic link. */
  | 'WARDEN_ERR_MIGRATION_UNSAFE_PATH'
  /** This build carries no migration (the commands are present, the rules are not). */
  /** `warden upgrade` failed; the previous install and data were restored. */
  | 'WARDEN_ERR_MIGRATION_UPGRADE_FAILED'
  /** `warden rollback` found no restore point, or one it cannot use. */
  | 'WARDEN_ERR_MIGRATION_NO_RESTORE_POINT'
  /** `warden upgrade` or `warden rollback` while a gateway runs from the home. */
  | 'WARDEN_ERR_MIGRATION_GATEWAY_RUNNING';

export class MigrationApplyError extends WardenError {
  constructor(code: MigrationApplyCode, message: string, options: { cause?: unknown } = {}) {
    super(code, message, options);
  }
}
