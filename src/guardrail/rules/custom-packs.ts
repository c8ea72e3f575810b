// Where the rule-pack loader looks for `guardrail.rule_pack`: the shipped packs, then the folder of the
// `custom_packs` entry of that name (written by the 8 → 9 migration from a version 8 `rule_pack_dir`), then
// `$WARDEN_HOME/rules/`. A custom pack is checked against its pinned digest first, so a pack edited after it was
// pinned stops the start instead of being loaded silently. Every caller of loadRulePack for the configured pack
// (gateway, local scans, doctor) asks here, so the three agree on which folder a pack comes from.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join } from 'node:path';
import type { Config } from '../../config/schema.js';
import { RulePackError } from './load.js';
import { packDigest } from './pack-digest.js';

/** The folders to pass to loadRulePack for the configured pack, the pinned custom pack's folder first. */
export function rulePackDirs(config: Pick<Config, 'guardrail' | 'custom_packs'>, home: string, rulesDir: string): string[] {
  const name = config.guardrail.rule_pack;
  const custom = config.custom_packs[name];
  if (!custom) return [rulesDir];
  const folder = custom.path.startsWith('~/') ? join(homedir(), custom.path.slice(2)) : isAbsolute(custom.path) ? custom.path : join(home, custom.path);
  if (basename(folder) !== name) {
    throw new RulePackError(`custom_packs.${name}.path: the folder ${folder} must be named ${name}, like the pack`);
  }
  if (!existsSync(folder) || !statSync(folder).isDirectory()) {
    throw new RulePackError(`custom_packs.${name}.path: ${folder} is not a folder (run \`warden migrate\` if a migration wrote it)`);
  }
  const files = readdirSync(folder)
    .filter((file) => /\.ya?ml$/.test(file) && statSync(join(folder, file)).isFile())
    .map((file) => ({ path: file, bytes: readFileSync(join(folder, file)) }));
  if (packDigest(files) !== custom.digest) {
    throw new RulePackError(`custom_packs.${name}: the files of ${folder} changed since they were pinned (digest ${custom.digest}); ` +
      'review them and pin the new digest');
  }
  return [dirname(folder), rulesDir];
}
