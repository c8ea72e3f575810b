// Errors of the migration's file rules (rule packs, audit rows, Rego modules) and of reading the home. They stop
// the migration before anything is written; each message names the file or pack so the operator can fix it.
import { WardenError } from '../errors.js';

/** A rule pack named by `rule_pack_dir` cannot be loaded (missing folder, bad YAML, bad rule, bad pattern). */
export class RulePackUnloadableError extends WardenError {
  constructor(message: string) {
    super('WARDEN_ERR_MIGRATION_RULE_PACK_UNLOADABLE', message);
  }
}

/** Rebasing a rule pack cannot be done safely (a merged file over the rule limit, a `<folder>-1.0` already there). */
export class RuleMergeUnsafeError extends WardenError {
  constructor(message: string) {
    super('WARDEN_ERR_MIGRATION_RULE_MERGE_UNSAFE', message);
  }
}

/** The home holds something the migration refuses to read: a symlink out of it, a file over the size limits. */
export class HomeUnreadableError extends WardenError {
  constructor(message: string) {
    super('WARDEN_ERR_MIGRATION_HOME_UNREADABLE', message);
  }
}
