// Rule 5's 1.0 copy of a version 8 pack (docs/migration.md "Version 8 rule packs"): the folder `<folder>-1.0`
// beside the old one, a pack that extends the preset it was copied from and holds only the operator's own
// decisions. Unedited built-in rules are left to the preset (they gain its expressions); an edited built-in
// rule is kept as `CUSTOM-<ID>` (`-2`, `-3` on a clash) with the built-in turned off; a built-in the operator
// turned off stays off; own rules with literal patterns get an expression, the rest are tagged
// `detection-only` for tool calls; rule files of one category merge into the first by file name. The old
// folder is left as it was.
import { stringify } from 'yaml';
import { DETECTION_ONLY_TAG } from '../../guardrail/engine.js';
import { RULE_CATEGORIES, type Rule } from '../../guardrail/rules/schema.js';
import { RuleMergeUnsafeError, RulePackUnloadableError } from '../file-errors.js';
import { MIGRATION_LIMITS } from '../limits.js';
import { packDigest } from '../../guardrail/rules/pack-digest.js';
import type { HomeFile, MigrationRecord } from '../types.js';
import { v8Patterns, type V8Rule } from '../v8/rule-file.js';
import { literalExpression } from './literal-expression.js';
import { builtinRules, sameAsBuiltin, type PackFolder } from './rule-pack-folder.js';

const V9_RULE_ID = /^[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+$/;
const PACK_NAME = /^[a-z0-9][a-z0-9_.-]*$/;
const DEFAULT_CONFIDENCE = 0.7;

export interface RebasedPack {
  name: string;
  /** Home-relative folder of the copy. */
  rel: string;
  files: HomeFile[];
  digest: string;
}

type RecordParts = Pick<MigrationRecord, 'renamed_rules' | 'expressed_rules' | 'detection_only_rules' | 'rule_file_merges' | 'rule_pack_rebase_failures'>;

export function rebasePack(folder: Extract<PackFolder, { kind: 'v8' }>, home: ReadonlyMap<string, HomeFile>, record: RecordParts): RebasedPack {
  const name = `${folder.name}-1.0`;
  if (!PACK_NAME.test(name)) throw new RulePackUnloadableError(`rule pack ${folder.rel}: "${folder.name}" cannot name a pack (lower-case letters, digits, ".", "_", "-")`);
  const rel = `${folder.rel}-1.0`;
  if ([...home.keys()].some((p) => p.startsWith(`${rel}/`))) {
    throw new RuleMergeUnsafeError(`rule pack ${folder.rel}: its 1.0 copy ${rel} already exists; move it away and migrate again`);
  }
  const builtins = builtinRules(folder.base);
  const taken = new Set([...builtins.keys(), ...folder.rules.map((r) => r.rule.id)]);
  const disable: string[] = [];
  const carried: { file: string; rule: V8Rule; id: string }[] = [];

  for (const { file, rule } of folder.rules) {
    let id = rule.id;
    if (builtins.has(rule.id)) {
      if (sameAsBuiltin(rule, folder.base)) continue;
      disable.push(rule.id);
      if (onlyTurnedOff(rule, folder.base)) continue;
      id = customId(rule.id, taken);
      record.renamed_rules.push({ pack: folder.rel, from: rule.id, to: id });
    }
    const problem = carryOverProblem(rule, id);
    if (problem) record.rule_pack_rebase_failures.push({ pack: folder.rel, reason: `${file}: rule ${rule.id}: ${problem}` });
    else carried.push({ file, rule, id });
  }
  // Before any rule is converted: a merge that cannot be done stops the migration at once.
  const groups = groupByCategory(carried, folder.rel);

  const own = carried.map(({ file, rule, id }) => {
    const converted = convert(rule, id, builtins.get(rule.id));
    if (converted.tags.includes(DETECTION_ONLY_TAG)) record.detection_only_rules.push({ pack: folder.rel, id });
    else if (converted.expression !== builtins.get(rule.id)?.expression) record.expressed_rules.push({ pack: folder.rel, id });
    return { file, rule: converted };
  });

  const files: HomeFile[] = [manifest(rel, name, folder, disable)];
  for (const merged of mergedFiles(groups, own, folder.rel, record)) {
    const header = `# Rules of pack ${name} (category ${merged.category}), migrated from version 8 ${folder.rel}.\n`;
    files.push({ path: `${rel}/${merged.into}`, bytes: Buffer.from(header + stringify({ rules: merged.rules }, { lineWidth: 0 })) });
  }
  const digest = packDigest(files.map((f) => ({ path: f.path.slice(rel.length + 1), bytes: f.bytes })));
  return { name, rel, files, digest };
}

/** A built-in rule whose only change is being turned off: the copy disables the built-in, no custom rule. */
function onlyTurnedOff(rule: V8Rule, base: string): boolean {
  return rule.enabled === false && sameAsBuiltin({ ...rule, enabled: true }, base);
}

function customId(id: string, taken: Set<string>): string {
  let candidate = `CUSTOM-${id}`;
  for (let n = 2; taken.has(candidate); n++) candidate = `CUSTOM-${id}-${n}`;
  taken.add(candidate);
  return candidate;
}

/** Why a version 8 rule cannot be carried over under `id`, or undefined when it can. */
function carryOverProblem(rule: V8Rule, id: string): string | undefined {
  if (!V9_RULE_ID.test(id)) return `id is not a valid rule id (upper-case words joined by "-", e.g. CMD-ACME-DEPLOY)`;
  if (!(RULE_CATEGORIES as readonly string[]).includes(rule.category)) return `category "${rule.category}" does not exist in version 9 (${RULE_CATEGORIES.join(', ')})`;
  return undefined;
}

/**
 * The version 9 rule for a version 8 one that can be carried over. An edited built-in starts from the shipped
 * rule (its confidence, value checks, capability class) and keeps the shipped expression while its patterns
 * are the shipped ones: only then does the expression still say what the patterns say.
 */
function convert(rule: V8Rule, id: string, builtin: Rule | undefined): Rule {
  const patterns = v8Patterns(rule);
  const samePatterns = builtin !== undefined && [...patterns].sort().join('\n') === [...builtin.patterns].sort().join('\n');
  const expression = samePatterns ? builtin.expression : literalExpression(rule.category, patterns);
  const tags = [...(rule.tags ?? builtin?.tags ?? [])];
  if (!expression && !tags.includes(DETECTION_ONLY_TAG)) tags.push(DETECTION_ONLY_TAG);
  return {
    ...(samePatterns ? builtin : {}),
    id,
    title: rule.title ?? rule.name ?? builtin?.title ?? id,
    category: rule.category as Rule['category'],
    severity: rule.severity as Rule['severity'],
    confidence: rule.confidence ?? builtin?.confidence ?? DEFAULT_CONFIDENCE,
    patterns,
    expression,
    tags,
    tool_call_only: rule.tool_call_only ?? builtin?.tool_call_only ?? false,
    enabled: rule.enabled ?? true,
  };
}

function manifest(rel: string, name: string, folder: Extract<PackFolder, { kind: 'v8' }>, disable: string[]): HomeFile {
  const body = {
    name,
    description: `Version 8 pack ${folder.rel}, rebased on ${folder.base} by the 8 → 9 migration.`,
    extends: folder.base,
    ...(disable.length ? { disable } : {}),
  };
  return { path: `${rel}/pack.yaml`, bytes: Buffer.from(stringify(body, { lineWidth: 0 })) };
}

interface CategoryGroup { category: string; into: string; from: string[]; count: number }

/** Rules grouped by category, each group going to the first file (by name) holding one of its rules. */
function groupByCategory(carried: { file: string; rule: V8Rule }[], pack: string): CategoryGroup[] {
  const groups = new Map<string, CategoryGroup>();
  for (const { file, rule } of carried) {
    const group = groups.get(rule.category) ?? { category: rule.category, into: file, from: [], count: 0 };
    groups.set(rule.category, group);
    if (file !== group.into && !group.from.includes(file)) group.from.push(file);
    group.count++;
  }
  for (const group of groups.values()) {
    if (group.count > MIGRATION_LIMITS.maxRulesPerMergedFile) {
      throw new RuleMergeUnsafeError(
        `rule pack ${pack}: merging the ${group.category} rules of ${[group.into, ...group.from].join(', ')} gives ` +
          `${group.count} rules in one file, over the limit of ${MIGRATION_LIMITS.maxRulesPerMergedFile}; ` +
          'split the category across packs or remove rules, then migrate again',
      );
    }
  }
  return [...groups.values()];
}

/** The merged rule files; a file mixing categories is the first of several, so later categories get their own name. */
function mergedFiles(groups: CategoryGroup[], own: { rule: Rule }[], pack: string, record: RecordParts) {
  const used = new Set<string>();
  return groups.map((group) => {
    const rules = own.filter((o) => o.rule.category === group.category).map((o) => o.rule);
    if (group.from.length) record.rule_file_merges.push({ pack, category: group.category, into: group.into, from: group.from, rules: rules.length });
    const into = used.has(group.into) ? group.into.replace(/(\.ya?ml)$/, `-${group.category}$1`) : group.into;
    used.add(into);
    return { category: group.category, into, rules };
  });
}
