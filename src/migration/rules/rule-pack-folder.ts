// Reading one folder named by a version 8 `rule_pack_dir` (rule 5) and deciding what it is
// (docs/migration.md "Version 8 rule packs"): a shipped preset's folder left as installed, a pre-release 9
// composed folder (`protections.yaml`), a folder already in Warden's pack format (`pack.yaml`), or a version 8
// pack of pattern-only rules. Anything that does not load as what it claims to be stops the migration with an
// error naming the folder and the file: a half-understood pack must not silently change what is enforced.
import RE2 from 're2';
import { Compile } from 'typebox/compile';
import { parse } from 'yaml';
import { compileExpression } from '../../guardrail/rules/expression.js';
import { loadRulePack } from '../../guardrail/rules/load.js';
import { PackManifestSchema, RuleFileSchema, type PackManifest, type Rule } from '../../guardrail/rules/schema.js';
import { RulePackUnloadableError } from '../file-errors.js';
import type { HomeFile } from '../types.js';
import { ComposedPackSchema, V8RuleFileSchema, v8Patterns, type ComposedPack, type V8Rule } from '../v8/rule-file.js';

export const PRESETS = ['default', 'strict', 'permissive'] as const;
const PRESET_PARENT = 'policies/guardrail';

export interface V8RuleIn { file: string; rule: V8Rule }

export type PackFolder =
  | { kind: 'preset'; rel: string; preset: string }
  | { kind: 'composed'; rel: string; composed: ComposedPack }
  | { kind: 'v9'; rel: string; name: string; files: HomeFile[] }
  | { kind: 'v8'; rel: string; name: string; base: string; rules: V8RuleIn[] };

const v8Validator = Compile(V8RuleFileSchema);
const composedValidator = Compile(ComposedPackSchema);
const manifestValidator = Compile(PackManifestSchema);
const ruleFileValidator = Compile(RuleFileSchema);

/** The files directly inside home-relative folder `rel` (rule packs have no subfolders), by name. */
export function folderFiles(files: ReadonlyMap<string, HomeFile>, rel: string): HomeFile[] {
  const prefix = rel === '' ? '' : `${rel}/`;
  return [...files.values()]
    .filter((f) => f.path.startsWith(prefix) && !f.path.slice(prefix.length).includes('/'))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

export const baseName = (rel: string) => rel.slice(rel.lastIndexOf('/') + 1);
const isRuleFile = (name: string) => /\.ya?ml$/.test(name) && name !== 'pack.yaml' && name !== 'protections.yaml';

export function readPackFolder(files: ReadonlyMap<string, HomeFile>, rel: string): PackFolder {
  const fail = (what: string) => new RulePackUnloadableError(`rule pack ${rel}: ${what}`);
  const inside = folderFiles(files, rel);
  const byName = new Map(inside.map((f) => [baseName(f.path), f]));
  if (inside.length === 0) throw fail('the folder is missing or empty');
  const name = baseName(rel);

  const composed = byName.get('protections.yaml');
  if (composed) {
    if ([...byName.keys()].some(isRuleFile)) throw fail('a composed folder (protections.yaml) must hold no rule files');
    return { kind: 'composed', rel, composed: checked<ComposedPack>(composed, composedValidator, fail) };
  }
  if (byName.has('pack.yaml')) return { kind: 'v9', rel, ...readV9Pack(inside, name, fail) };

  const rules: V8RuleIn[] = [];
  const seen = new Map<string, string>();
  for (const file of inside.filter((f) => isRuleFile(baseName(f.path)))) {
    for (const rule of checked<{ rules: V8Rule[] }>(file, v8Validator, fail).rules) {
      const where = `${baseName(file.path)}: rule ${rule.id}`;
      const patterns = v8Patterns(rule);
      if (patterns.length === 0) throw fail(`${where}: no pattern`);
      patterns.forEach((p, i) => compileOrFail(p, `${where}: pattern ${i + 1}`, fail));
      const previous = seen.get(rule.id);
      if (previous) throw fail(`${where}: duplicate id (also in ${previous})`);
      seen.set(rule.id, baseName(file.path));
      rules.push({ file: baseName(file.path), rule });
    }
  }
  if (rules.length === 0) throw fail('holds no rules');
  const preset = (PRESETS as readonly string[]).includes(name) ? name : undefined;
  const base = preset ?? 'default';
  if (preset && rel === `${PRESET_PARENT}/${preset}` && rules.every(({ rule }) => sameAsBuiltin(rule, base))) {
    return { kind: 'preset', rel, preset };
  }
  return { kind: 'v8', rel, name, base, rules };
}

function readV9Pack(inside: HomeFile[], name: string, fail: (what: string) => Error): { name: string; files: HomeFile[] } {
  const manifestFile = inside.find((f) => baseName(f.path) === 'pack.yaml')!;
  const manifest = checked<PackManifest>(manifestFile, manifestValidator, fail, true);
  if (manifest.name !== name) throw fail(`pack.yaml: name "${manifest.name}" does not match its folder`);
  for (const file of inside.filter((f) => isRuleFile(baseName(f.path)))) {
    for (const rule of checked<{ rules: Rule[] }>(file, ruleFileValidator, fail, true).rules) {
      const where = `${baseName(file.path)}: rule ${rule.id}`;
      rule.patterns.forEach((p, i) => compileOrFail(p, `${where}: pattern ${i + 1}`, fail));
      if (rule.expression) {
        try {
          compileExpression(rule.expression);
        } catch (err) {
          throw fail(`${where}: expression: ${(err as Error).message.split('\n')[0]}`);
        }
      }
    }
  }
  return { name, files: inside };
}

function checked<T>(file: HomeFile, validator: ReturnType<typeof Compile>, fail: (what: string) => Error, defaults = false): T {
  let raw: unknown;
  try {
    raw = parse(file.bytes.toString('utf8'), { uniqueKeys: true });
  } catch (err) {
    throw fail(`${baseName(file.path)}: ${(err as Error).message.split('\n')[0]}`);
  }
  const value = defaults ? validator.Default(raw ?? {}) : raw;
  const first = validator.Errors(value)[0];
  if (first) throw fail(`${baseName(file.path)}: ${first.instancePath || '(top level)'}: ${first.keyword === 'boolean' ? 'unknown field' : first.message}`);
  return value as T;
}

function compileOrFail(pattern: string, where: string, fail: (what: string) => Error): void {
  try {
    new RE2(pattern, 'u');
  } catch (err) {
    throw fail(`${where} is not a valid RE2 expression: ${(err as Error).message}`);
  }
}

const builtinCache = new Map<string, Map<string, Rule>>();

/** The rules of shipped pack `preset` by id (severity overrides and disables applied). */
export function builtinRules(preset: string): Map<string, Rule> {
  let rules = builtinCache.get(preset);
  if (!rules) {
    // The rule as its file has it: what the loader adds (source, compiled forms) is not part of a rule.
    rules = new Map(loadRulePack(preset).rules.map(({ source: _s, builtin: _b, regex: _r, evaluate: _e, checksMatches: _c, ...rule }) => [rule.id, rule]));
    builtinCache.set(preset, rules);
  }
  return rules;
}

/** A v8 rule that is a shipped rule as shipped: same id, severity and patterns, not turned off. */
export function sameAsBuiltin(rule: V8Rule, preset: string): boolean {
  const builtin = builtinRules(preset).get(rule.id);
  if (!builtin) return false;
  const a = [...v8Patterns(rule)].sort();
  const b = [...builtin.patterns].sort();
  return builtin.severity === rule.severity && (rule.enabled ?? true) === builtin.enabled && a.length === b.length && a.every((p, i) => p === b[i]);
}
