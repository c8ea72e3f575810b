// Loading a rule pack: the pack's own rule files on top of the pack it extends, with its disables and
// severity overrides applied. Patterns compile with RE2, whose matching time is linear in the input (no
// backtracking): both the scanned content and operator-written packs are untrusted. Any problem names the
// file, the rule id and the reason, and nothing of a bad pack is used.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import RE2 from 're2';
import { Compile } from 'typebox/compile';
import { readRuleYaml } from '../../util/rule-file.js';
import { checksValues } from '../secrets/value-check.js';
import { compileExpression, type CompiledExpression } from './expression.js';
import { PackManifestSchema, RuleFileSchema, type PackManifest, type Rule } from './schema.js';
import { WardenError } from '../../errors.js';

export const SHIPPED_RULES_DIR = fileURLToPath(new URL('../../../policies/rules/', import.meta.url));

/** A rule pack cannot be loaded; the message names the file and the rule. */
export class RulePackError extends WardenError {
  constructor(message: string) {
    super('WARDEN_ERR_GUARDRAIL_RULE_PACK_INVALID', message);
  }
}

const packError = (message: string) => new RulePackError(message);

export interface CompiledRule extends Rule {
  /** The file the rule was read from. */
  source: string;
  /** Shipped with Warden (its title may be shown to the agent) rather than written by an operator. */
  builtin: boolean;
  /** Pattern `index` as its own RE2 (for evidence), compiled the first time a scan needs it. */
  regex(index: number): RE2;
  evaluate?: CompiledExpression;
  /** Each match is checked (checksum tags, value checks) rather than the first one taken: decided once, at load. */
  checksMatches: boolean;
}

export interface RulePack {
  name: string;
  description: string;
  /** Pack names from the root of the `extends` chain down to this one. */
  lineage: string[];
  rules: CompiledRule[];
  /** Every pattern of every rule in one RE2.Set: one linear pass finds all candidate rules. */
  patternSet: InstanceType<typeof RE2.Set>;
  /** For each pattern of the set: its rule and the pattern's index within the rule. */
  patternOwners: { rule: CompiledRule; pattern: number }[];
}

const ruleFileValidator = Compile(RuleFileSchema);
const manifestValidator = Compile(PackManifestSchema);

/**
 * Load pack `name`, looking for `<dir>/<name>/pack.yaml` in the shipped packs first, then in `customDirs`
 * (e.g. $WARDEN_HOME/rules), so an operator pack can extend a shipped one but never shadow it.
 */
export function loadRulePack(name: string, customDirs: string[] = []): RulePack {
  const searchPath = [SHIPPED_RULES_DIR, ...customDirs];
  const { description, lineage, rules } = load(name, searchPath, []);
  const patternOwners = rules.flatMap((rule) => rule.patterns.map((_, pattern) => ({ rule, pattern })));
  let patternSet: InstanceType<typeof RE2.Set>;
  try {
    // Compiling the set also proves every pattern is valid RE2, so single patterns can compile lazily.
    patternSet = new RE2.Set(patternOwners.map((o) => o.rule.patterns[o.pattern]!), 'u', { maxMem: 256 * 1024 * 1024 });
  } catch (err) {
    for (const rule of rules) rule.patterns.forEach((_, i) => compilePattern(rule, i));
    throw new RulePackError(`rule pack "${name}": its patterns do not compile together: ${(err as Error).message}`);
  }
  return { name, description, lineage, rules, patternSet, patternOwners };
}

type LoadedRules = Pick<RulePack, 'description' | 'lineage' | 'rules'>;

function load(name: string, searchPath: string[], seen: string[]): LoadedRules {
  if (seen.includes(name)) throw new RulePackError(`rule pack "${name}" extends itself: ${[...seen, name].join(' -> ')}`);
  const rulesDir = searchPath.find((d) => existsSync(join(d, name, 'pack.yaml')));
  if (!rulesDir) throw new RulePackError(`rule pack "${name}" not found (looked in ${searchPath.join(', ')})`);
  const dir = join(rulesDir, name);
  const manifestFile = join(dir, 'pack.yaml');
  const manifest = readRuleYaml<PackManifest>(manifestFile, PackManifestSchema, manifestValidator, packError);
  if (manifest.name !== name) throw new RulePackError(`${manifestFile}: name "${manifest.name}" does not match its folder "${name}"`);

  const base = manifest.extends ? load(manifest.extends, searchPath, [...seen, name]) : undefined;
  const rules = new Map<string, CompiledRule>((base?.rules ?? []).map((r) => [r.id, r]));
  const builtin = rulesDir === SHIPPED_RULES_DIR;
  for (const file of ruleFiles(dir)) {
    const { rules: fileRules } = readRuleYaml<{ rules: Rule[] }>(file, RuleFileSchema, ruleFileValidator, packError);
    for (const rule of fileRules) {
      const previous = rules.get(rule.id);
      if (previous) throw new RulePackError(`${file}: rule ${rule.id}: duplicate id (also in ${previous.source})`);
      rules.set(rule.id, compileRule(rule, file, builtin));
    }
  }
  for (const id of manifest.disable) {
    const rule = rules.get(id);
    if (!rule) throw new RulePackError(`${manifestFile}: disable: unknown rule ${id}`);
    rules.set(id, { ...rule, enabled: false });
  }
  for (const [id, severity] of Object.entries(manifest.severity_overrides)) {
    const rule = rules.get(id);
    if (!rule) throw new RulePackError(`${manifestFile}: severity_overrides: unknown rule ${id}`);
    rules.set(id, { ...rule, severity });
  }
  return { description: manifest.description, lineage: [...(base?.lineage ?? []), name], rules: [...rules.values()] };
}

function ruleFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    throw new RulePackError(`rule pack folder ${dir}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  return names.filter((f) => /\.ya?ml$/.test(f) && f !== 'pack.yaml').sort().map((f) => join(dir, f));
}

function compilePattern(rule: Rule & { source: string }, index: number): RE2 {
  try {
    return new RE2(rule.patterns[index]!, 'u');
  } catch (err) {
    throw new RulePackError(`${rule.source}: rule ${rule.id}: pattern ${index + 1} is not a valid RE2 expression: ${(err as Error).message}`);
  }
}

/**
 * Capturing groups in a pattern, as RE2 counts them: with an empty alternative it matches '' and reports every
 * group. A pattern RE2 refuses counts as having any number: its compile error, which names the rule, follows.
 */
export function captureGroups(pattern: string): number {
  try {
    return new RE2(`(?:${pattern})|`, 'u').exec('')!.length - 1;
  } catch {
    return Infinity;
  }
}

function compileRule(rule: Rule, file: string, builtin: boolean): CompiledRule {
  // A pattern without the value group is checked as a whole match (a rule may mix keyword patterns with a
  // capture group and prefixed-token patterns without one); a group no pattern has is a typo.
  if (rule.value_group !== undefined && !rule.patterns.some((p) => captureGroups(p) >= rule.value_group!)) {
    throw new RulePackError(`${file}: rule ${rule.id}: value_group ${rule.value_group}: no pattern has that many capture groups`);
  }
  if (rule.name_group !== undefined && !rule.patterns.some((p) => captureGroups(p) >= rule.name_group!)) {
    throw new RulePackError(`${file}: rule ${rule.id}: name_group ${rule.name_group}: no pattern has that many capture groups`);
  }
  const compiled: RE2[] = [];
  const regex = (index: number): RE2 => (compiled[index] ??= compilePattern({ ...rule, source: file }, index));
  let evaluate: CompiledExpression | undefined;
  if (rule.expression) {
    try {
      evaluate = compileExpression(rule.expression);
    } catch (err) {
      throw new RulePackError(`${file}: rule ${rule.id}: expression: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  const checksMatches = rule.tags.includes('luhn') || rule.tags.includes('iban') || rule.tags.includes('jwt') || checksValues(rule);
  return { ...rule, source: file, builtin, regex, evaluate, checksMatches };
}

