// Changing an agent's own configuration file safely: read it, refuse one we cannot parse (naming it, never
// overwriting it), keep a 0600 backup of what was there, and replace it atomically.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../../util/atomic-write.js';
import type { JsonObject } from '../../util/json.js';
import { WardenError } from '../../errors.js';

/** An agent configuration file Warden cannot read or must not change; the message names the file. */
export class AgentConfigError extends WardenError {
  constructor(message: string) {
    super('WARDEN_ERR_SETUP_AGENT_CONFIG', message);
  }
}

/** The file's text, or undefined when it does not exist. */
export function readConfigText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new AgentConfigError(`cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

export interface FileChange {
  path: string;
  changed: boolean;
  /** Where the previous content was copied, when there was one. */
  backup?: string;
  deleted?: boolean;
}

/** Write `after` (null: delete the file) if it differs from `before`, backing up `before` first. */
export function applyConfigChange(path: string, before: string | undefined, after: string | null): FileChange {
  if (after === (before ?? null)) return { path, changed: false };
  let backup: string | undefined;
  if (before !== undefined) {
    backup = `${path}.warden-backup-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    // The bytes as they are, created owner-only ('wx': never over something already there).
    writeFileSync(backup, readFileSync(path), { mode: 0o600, flag: 'wx' });
  }
  if (after === null) {
    rmSync(path, { force: true });
    return { path, changed: true, backup, deleted: true };
  }
  mkdirSync(dirname(path), { recursive: true });
  // A new file is owner-only; an existing one keeps its mode.
  writeFileAtomic(path, after, before === undefined ? 0o600 : undefined);
  return { path, changed: true, backup };
}

/** A new file's JSON text (an existing file is edited instead: see jsonc-edit.ts). */
export function formatJson(value: JsonObject): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
