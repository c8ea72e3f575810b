// The config_version 8 → 9 migration as a pure function: what a version 8 home holds in, the version 9
// config.yaml text, the record (migration-v9.json) and the file operations out. Nothing is written here (apply.ts
// does that), so the same plan serves --dry-run, --check, the gateway's in-memory migration and the real write.
// The file is edited as a `yaml` Document, so what no rule touches keeps its comments, order and layout.
import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { isMap, LineCounter, parseDocument, type Document, type ToStringOptions } from 'yaml';
import { parseConfig, validateConfigObject } from '../config/load.js';
import { CURRENT_CONFIG_VERSION } from '../config/schema.js';
import { MigrationError } from './errors.js';
import { restoreLayout } from './layout.js';
import { admissionActions } from './rules/admission-actions.js';
import { assetPolicyShape } from './rules/asset-policy-shape.js';
import { auditActionsRule } from './rules/audit-actions.js';
import { providersOverlay } from './rules/providers-overlay.js';
import { regoModulesRule } from './rules/rego-modules.js';
import { removedActionKeys } from './rules/removed-action-keys.js';
import { rulePacksRule } from './rules/rule-packs.js';
import { scannerKeys } from './rules/scanner-keys.js';
import { signaturePacks } from './rules/signature-packs.js';
import { thresholds } from './rules/thresholds.js';
import { unscannableMcp } from './rules/unscannable-mcp.js';
import { updateCheck } from './rules/update-check.js';
import { v8Keys } from './rules/v8-keys.js';
import type { MigrationContext, MigrationInput, MigrationPlan, MigrationRecord, MigrationRule } from './types.js';
import { convertV7 } from './v8/from-v7.js';
import { validateV8 } from './v8/validate.js';

/**
 * The rules, in the order they run: the spec's numbering, with two exceptions that keep each rule's input
 * settled: rule 5 (rule_pack_dir) runs before rule 3, whose thresholds compare with the pack rule 5 chooses,
 * and the version 8 asset_policy is reshaped before rule 8 adds audit.db rows to it. Rule 1 ("only values that
 * differ from the built-in policy are written") is not a pass: every rule asks rules/built-in-policy.ts first.
 * `v8Keys` runs last and decides every key no rule consumed.
 */
export const RULES: readonly MigrationRule[] = [
  assetPolicyShape,
  rulePacksRule, // rule 5, before rule 3: the thresholds compare against the pack it picks
  admissionActions, // rule 2
  thresholds, // rule 3
  removedActionKeys, // rule 4
  scannerKeys, // rule 6
  updateCheck, // rule 7
  auditActionsRule, // rule 8
  signaturePacks, // rule 9
  regoModulesRule, // rule 10
  providersOverlay, // rule 11
  unscannableMcp, // rule 12
  v8Keys,
];

export function migrate(input: MigrationInput): MigrationPlan {
  if (input.scope === 'client-managed') {
    throw new MigrationError('WARDEN_ERR_MIGRATION_CLIENT_MANAGED',
      'a client-managed profile is left unchanged: the client that manages it writes its version 9 configuration');
  }
  const lines = new LineCounter();
  const doc = parseDocument(input.configText, { lineCounter: lines, prettyErrors: true, uniqueKeys: true });
  const yamlError = doc.errors[0];
  if (yamlError) {
    const line = yamlError.linePos?.[0].line;
    throw new MigrationError('WARDEN_ERR_MIGRATION_SOURCE_INVALID', `config.yaml${line ? `:${line}` : ''}: invalid YAML: ${yamlError.message.split('\n')[0]}`);
  }
  if (!isMap(doc.contents)) throw new MigrationError('WARDEN_ERR_MIGRATION_SOURCE_INVALID', 'config.yaml: the top level must be a mapping');

  const record = emptyRecord(input);
  const operations: MigrationPlan['operations'] = [];
  const version = checkVersion(doc.get('config_version'));
  if (version === 7) {
    const converted = convertV7(doc);
    operations.push(...converted.operations);
    record.notes.push(...converted.notes);
  }
  validateV8(doc.toJS(), doc, lines);

  doc.set('config_version', CURRENT_CONFIG_VERSION);
  const ctx: MigrationContext = { input, doc, record, operations };
  for (const rule of RULES) rule(ctx);

  const configText = loadable(doc, input.configText);
  record.result_sha256 = sha256(configText);
  return { configText, record, operations };
}

/**
 * The migrated text: the printer's text, or the operator's in-line spacing put back (restoreLayout) when that
 * text loads to exactly the same configuration. The document's data is checked with the version 9 schema here;
 * the text itself is parsed by whoever uses it (apply.ts before writing, the loader in memory), so a large file
 * is not parsed once more only to be parsed again (the largest cost of bench/migrate).
 */
function loadable(doc: Document, source: string): string {
  const printed = doc.toString(layoutOf(source));
  const expected = asResult(() => validateConfigObject(doc.toJS(), RESULT_NAME));
  const restored = restoreLayout(source, printed);
  if (restored !== printed) {
    try {
      if (isDeepStrictEqual(parseConfig(restored, RESULT_NAME), expected)) return restored;
    } catch {
      // Spacing that changed the data (inside a quoted string): the printer's text is the faithful one.
    }
  }
  return printed;
}

const RESULT_NAME = 'config.yaml (migrated)';

function asResult<T>(validate: () => T): T {
  try {
    return validate();
  } catch (err) {
    throw new MigrationError('WARDEN_ERR_MIGRATION_RESULT_INVALID',
      `the migrated configuration would not load, so nothing was migrated: ${(err as Error).message}`, { cause: err });
  }
}

function checkVersion(version: unknown): 7 | 8 {
  if (version === undefined) {
    throw new MigrationError('WARDEN_ERR_MIGRATION_VERSION_UNSUPPORTED', 'config.yaml has no config_version; it is not a Warden configuration this release can migrate');
  }
  if (typeof version !== 'number' || !Number.isInteger(version)) {
    throw new MigrationError('WARDEN_ERR_MIGRATION_VERSION_UNSUPPORTED', `config_version must be an integer, got ${JSON.stringify(version)}`);
  }
  if (version === CURRENT_CONFIG_VERSION) throw new MigrationError('WARDEN_ERR_MIGRATION_NOTHING_TO_DO', `nothing to migrate: config.yaml is already at config_version ${CURRENT_CONFIG_VERSION}`);
  if (version > CURRENT_CONFIG_VERSION) {
    throw new MigrationError('WARDEN_ERR_MIGRATION_VERSION_UNSUPPORTED', `config_version ${version} is unsupported: newer than this Warden (${CURRENT_CONFIG_VERSION}); upgrade Warden`);
  }
  if (version < 7) {
    throw new MigrationError('WARDEN_ERR_MIGRATION_VERSION_UNSUPPORTED', `config_version ${version}: upgrade required: migrate it to version 8 with a 0.8.x release first`);
  }
  return version as 7 | 8;
}

function emptyRecord(input: MigrationInput): MigrationRecord {
  return {
    schema_version: 1,
    from_version: 8,
    to_version: 9,
    migrated_at: input.now.toISOString(),
    actor: input.scope === 'managed' ? 'lifecycle' : 'migration',
    source_sha256: sha256(input.configText),
    result_sha256: '',
    moved: [],
    conflicts: [],
    removed: [],
    actions_rows_moved: 0,
    actions_rows_ignored: 0,
    notes: [],
    renamed_rules: [],
    expressed_rules: [],
    detection_only_rules: [],
    rule_file_merges: [],
    rule_pack_rebase_failures: [],
    unenforced_rego_data: [],
    unscannable_mcp: [],
    acknowledged: false,
  };
}

/**
 * How the operator laid the file out, so the parts no rule touched are printed as they were written: no
 * folding of long lines, `{a: 1}` or `{ a: 1 }` flow mappings, and lists indented under their key or not.
 */
function layoutOf(text: string): ToStringOptions {
  return {
    lineWidth: 0,
    flowCollectionPadding: /[{[] [^\s}\]]/.test(text),
    indentSeq: !/^( *)[^\s#-][^\n]*:\n\1- /m.test(text),
  };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
