// The files the 8 → 9 migration leaves in the data home (spec document 1, "Files left"), and the two it adds of
// its own: the journal of operations still due after the commit point, and the marker of a client-managed
// profile. One list, so apply, the commands, doctor, upgrade and rollback name them alike.

/** Exact bytes of the version 8 config.yaml, written before the new file replaces it. */
export const BACKUP_FILE = 'config.yaml.v8.bak';
/** The record (migration-v9.json), mode 0600. */
export const RECORD_FILE = 'migration-v9.json';
/** Which configuration is in force: generation number and hash (see generation.ts). */
export const GENERATION_FILE = 'config.generation.json';
/**
 * Operations that must wait until the new config.yaml is in force (renames away of files the old configuration
 * reads, overwrites of files it reads), with the hash of the config.yaml they belong to. Present only between a
 * commit and the end of apply: a re-run finds it and finishes the job.
 */
export const JOURNAL_FILE = 'migration-v9.pending.json';
/**
 * A profile whose configuration a managing client owns (it writes config.yaml itself and migrates it on its own
 * schedule) holds this file; Warden then leaves the profile unchanged. Its content (one line naming the client)
 * is informational.
 */
export const CLIENT_MANAGED_MARKER = 'client-managed';
/** The restore point `warden upgrade` keeps and `warden rollback` restores. */
export const ROLLBACK_DIR = 'rollback';
