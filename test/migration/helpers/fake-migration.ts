// A stand-in for the migration rules, for the tests of apply, the commands and the gateway: a small version 8
// home and a `migrate` that turns it into a plan of every kind of operation apply performs (a rename of a file
// the old configuration reads, a write into a new folder, an overwrite in an existing one, a .env key). The
// rules themselves are tested with their fixtures; these tests are about what happens around a plan.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MigrationDeps } from '../../../src/migration/run.js';
import type { MigrationInput, MigrationPlan, MigrationRecord } from '../../../src/migration/types.js';

export const V8_CONFIG = `# Operator's settings: this comment must survive the migration.
config_version: 8
gateway:
  api_port: 0
guardrail:
  port: 0
  mode: observe
skill_actions:
  high: {file: quarantine, runtime: disable, install: block}
scanners:
  skill_scanner: {binary: skill-scanner, api_key: sk-inline-secret}
`;

export const DATA_JSON = '{"actions":{"HIGH":{"runtime":"block","file":"quarantine","install":"block"}}}\n';
export const OLD_MODULE = 'package warden.admission\nimport data.actions\n';
export const NEW_MODULE = 'package warden.admission\n# shipped version 9 module\n';
export const SECRET = 'sk-inline-secret';

/** A version 8 home in a new temp folder. */
export function writeV8Home(config = V8_CONFIG): string {
  const home = mkdtempSync(join(tmpdir(), 'warden-mig-'));
  writeFileSync(join(home, 'config.yaml'), config);
  mkdirSync(join(home, 'policies/rego'), { recursive: true });
  writeFileSync(join(home, 'policies/rego/data.json'), DATA_JSON);
  writeFileSync(join(home, 'policies/rego/admission.rego'), OLD_MODULE);
  writeFileSync(join(home, '.env'), 'WARDEN_GATEWAY_TOKEN=t\n', { mode: 0o600 });
  return home;
}

const hash = (text: string | Buffer): string => createHash('sha256').update(text).digest('hex');

export function record(fields: Partial<MigrationRecord> = {}): MigrationRecord {
  return {
    schema_version: 1, from_version: 8, to_version: 9, migrated_at: '2026-01-02T03:04:05.000Z', actor: 'migration',
    source_sha256: '', result_sha256: '', moved: [], conflicts: [], removed: [], actions_rows_moved: 0,
    actions_rows_ignored: 0, notes: [], renamed_rules: [], expressed_rules: [], detection_only_rules: [],
    rule_file_merges: [], rule_pack_rebase_failures: [], unenforced_rego_data: [], unscannable_mcp: [], acknowledged: false,
    ...fields,
  };
}

/** The plan the stand-in rules make of a V8_CONFIG home. */
export function fakeMigrate(input: MigrationInput): MigrationPlan {
  const version = /^config_version: (\d+)$/m.exec(input.configText)?.[1];
  if (version === '9') throw new Error('fakeMigrate: already at 9');
  const configText = input.configText
    .replace(/^config_version: 8$/m, 'config_version: 9')
    .replace(/^skill_actions:\n(?: {2}.*\n)*/m, '')
    .replace(/^scanners:\n(?: {2}.*\n)*/m, '');
  return {
    configText,
    record: record({
      actor: input.scope === 'managed' ? 'lifecycle' : 'migration',
      migrated_at: input.now.toISOString(),
      source_sha256: hash(input.configText),
      result_sha256: hash(configText),
      removed: ['skill_actions', 'scanners.skill_scanner.binary'],
      moved: [
        { source: 'data.json', from: 'actions.HIGH', to: 'admission.skill.actions.high', value: 'block' },
        { source: 'config', from: 'scanners.skill_scanner.api_key', to: '.env SKILL_SCANNER_LLM_API_KEY', value: '<redacted>' },
      ],
      conflicts: [{ to: 'guardrail.block_at', kept: 'CRITICAL', lost: 'HIGH', reason: 'looser than data.json' }],
      actions_rows_moved: input.actionsRows.length,
    }),
    operations: [
      { op: 'env', name: 'SKILL_SCANNER_LLM_API_KEY', value: SECRET },
      { op: 'write', path: 'rules/custom-1.0/rules.yaml', bytes: Buffer.from('rules: []\n') },
      { op: 'rename', from: 'policies/rego/admission.rego', to: 'policies/rego/admission.rego.migrated-v9' },
      { op: 'write', path: 'policies/rego/admission.rego', bytes: Buffer.from(NEW_MODULE) },
      { op: 'rename', from: 'policies/rego/data.json', to: 'policies/rego/data.json.migrated-v9' },
    ],
  };
}

export const fakeDeps: MigrationDeps = {
  async readHome(home, scope, now = new Date('2026-01-02T03:04:05.000Z')) {
    return { home, scope, configText: readFileSync(join(home, 'config.yaml'), 'utf8'), files: new Map(), actionsRows: [], now };
  },
  migrate: fakeMigrate,
};
