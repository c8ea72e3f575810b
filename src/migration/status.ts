// What `warden doctor` says about the migration (spec document 1: "The health-check command reports a migration
// row until the record is acknowledged; it warns when conflicts exist"). Also reports a version 8 file still on
// disk and a migration interrupted after its commit point, each with the command that settles it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CURRENT_CONFIG_VERSION } from '../config/schema.js';
import { sha256 } from './apply.js';
import { CLIENT_MANAGED_MARKER, JOURNAL_FILE } from './files-left.js';
import { configVersionOf, readRecord } from './run.js';

export interface MigrationStatus {
  outcome: 'ok' | 'warn';
  detail: string;
}

/** The doctor row, or undefined when there is nothing to say (no migration, or its record acknowledged). */
export function migrationStatus(home: string): MigrationStatus | undefined {
  let configText: string;
  try {
    configText = readFileSync(join(home, 'config.yaml'), 'utf8');
  } catch {
    return undefined; // the config row reports it
  }
  const journal = readJournalHash(home);
  if (journal !== undefined && journal === sha256(configText)) {
    return { outcome: 'warn', detail: 'an interrupted migration has file moves left: run `warden migrate` to finish them' };
  }
  const version = configVersionOf(configText);
  if (version !== undefined && version < CURRENT_CONFIG_VERSION) {
    if (existsSync(join(home, CLIENT_MANAGED_MARKER))) {
      return { outcome: 'ok', detail: `client-managed profile at config_version ${version}: the client that manages it migrates it` };
    }
    return { outcome: 'warn', detail: `config_version ${version}: the gateway migrates it in memory at each start; ` +
      'run `warden migrate` to write it (`warden migrate --check` lists the steps)' };
  }
  const record = readRecord(home);
  if (!record || record.acknowledged) return undefined;
  const when = `migrated from config_version ${record.from_version} on ${record.migrated_at.slice(0, 10)}`;
  const ack = 'run `warden config migrate --ack` once read';
  const conflicts = record.conflicts?.length ?? 0;
  return conflicts > 0
    ? { outcome: 'warn', detail: `${when} with ${conflicts} conflict${conflicts === 1 ? '' : 's'} (\`warden config migrate --json\` lists them); ${ack}` }
    : { outcome: 'ok', detail: `${when}; ${ack}` };
}

function readJournalHash(home: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(join(home, JOURNAL_FILE), 'utf8')) as { result_sha256?: string }).result_sha256;
  } catch {
    return undefined;
  }
}
