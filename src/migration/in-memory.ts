// The gateway's migration of an older config.yaml at start and on reload (spec document 1, "Versioning"): the
// home is read once, read-only, and the version 8 (or 7) text is turned into version 9 text in memory; nothing
// is written. What the loader receives is a LegacyConversion (src/config/load.ts), so the config module stays
// free of the migration's file readers. A failure becomes a ConfigError telling the operator to run
// `warden migrate`: the start exits with it, a reload keeps the running configuration. So does a migrated file
// whose rule pack only the apply step would write (a version 8 pack rebased to its `<folder>-1.0` copy): in
// memory, that pack does not exist.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { ConfigError, type LegacyConversion } from '../config/load.js';
import { CURRENT_CONFIG_VERSION } from '../config/schema.js';
import { migrationDeps } from './index.js';
import { configVersionOf, detectScope, type MigrationDeps } from './run.js';
import type { MigrationInput, MigrationPlan } from './types.js';

/** The conversion for the home's config.yaml when it is older than 9; undefined when it needs none. */
export async function inMemoryMigration(home: string, given?: MigrationDeps): Promise<LegacyConversion | undefined> {
  let text: string;
  try {
    text = readFileSync(join(home, 'config.yaml'), 'utf8');
  } catch {
    return undefined; // the loader reports a missing file itself
  }
  const version = configVersionOf(text);
  if (version === undefined || version >= CURRENT_CONFIG_VERSION) return undefined;
  let deps: MigrationDeps;
  let input: MigrationInput;
  try {
    deps = migrationDeps(given);
    input = await deps.readHome(home, detectScope(home, text));
  } catch (err) {
    return (_text, path, from) => {
      throw failure(err, path, from);
    };
  }
  return (current, path, from) => {
    try {
      const plan = deps.migrate({ ...input, configText: current });
      const unwritten = unwrittenRulePack(plan);
      if (unwritten) throw new Error(`rule pack ${unwritten} is the rebased copy of a version 8 pack, which only the migration writes`);
      return plan.configText;
    } catch (err) {
      throw failure(err, path, from);
    }
  };
}

/** The custom pack guardrail.rule_pack names when its folder is one of the plan's writes (not on disk yet). */
function unwrittenRulePack(plan: MigrationPlan): string | undefined {
  const doc = parseDocument(plan.configText);
  const name = doc.getIn(['guardrail', 'rule_pack']);
  const path = typeof name === 'string' ? doc.getIn(['custom_packs', name, 'path']) : undefined;
  if (typeof path !== 'string') return undefined;
  return plan.operations.some((op) => op.op === 'write' && op.path.startsWith(`${path}/`)) ? (name as string) : undefined;
}

function failure(err: unknown, path: string, version: number): ConfigError {
  const reason = (err as Error).message.replace(/\n\s*/g, ' ');
  return new ConfigError(`${path}: config_version ${version} could not be migrated in memory (${reason}); ` +
    'run `warden migrate` to migrate the file and see the problem');
}
