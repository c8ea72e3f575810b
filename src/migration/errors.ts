// The migration's own failures, each with a stable code (docs/errors.md, family MIGRATION): the commands, the
// gateway's in-memory migration and doctor tell "nothing to do" from "cannot be done" by code, not by message.
import { WardenError } from '../errors.js';

export type MigrationErrorCode =
  /** config.yaml is already at the current version. */
  | 'WARDEN_ERR_MIGRATION_NOTHING_TO_DO'
  /** config_version is missing, not an integer, older than 7 or newer than 9. */
  | 'WARDEN_ERR_MIGRATION_VERSION_UNSUPPORTED'
  /** config.yaml is not valid YAML or not a valid version 7/8 file (an unknown key, a wrong value). */
  | 'WARDEN_ERR_MIGRATION_SOURCE_INVALID'
  /** A file a rule reads (data.json, the providers overlay, a policy file, a signature pack) is missing or malformed. */
  | 'WARDEN_ERR_MIGRATION_FILE_INVALID'
  /** The migrated file would not pass the version 9 loader. */
  | 'WARDEN_ERR_MIGRATION_RESULT_INVALID'
  /** A client-managed profile is the managing client's to rewrite, never migrated here. */
  | 'WARDEN_ERR_MIGRATION_CLIENT_MANAGED';

export class MigrationError extends WardenError {
  constructor(code: MigrationErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(code, message, options);
  }
}
