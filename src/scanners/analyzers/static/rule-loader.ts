// Loading the signature rules: every `*.yaml` in a rules folder, validated (a problem names the file, the rule id
// and the reason; nothing of a bad folder is used) and compiled once per folder. Skill content is attacker
// controlled, so every pattern is RE2 (linear-time matching, no backtracking). For speed, the patterns that apply
// to one file type are also compiled into one RE2.Set: a single pass over a file names the patterns that match
// somewhere in it, and only those are then run on their own to locate the matches.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import RE2 from 're2';
import { Compile } from 'typebox/compile';
import { readRuleYaml } from '../../../util/rule-file.js';
import { expandFileTypes, type FileType } from './file-types.js';
import { CATEGORY_PREFIXES, SignatureRuleFileSchema, type SignatureRuleDefinition } from './rule-schema.js';
import { WardenError } from '../../../errors.js';

export const SHIPPED_SCANNER_RULES_DIR = fileURLToPath(new URL('../../../../policies/scanner/rules/', import.meta.url));

/** RE2 sets above this size fall back to slower matching; a few hundred patterns need far less. */
const SET_MAX_MEMORY = 64 * 1024 * 1024;

/** A scanner signature rule file cannot be loaded. */
export class ScannerRuleError extends WardenError {
  constructor(message: string) {
    super('WARDEN_ERR_SCAN_RULES_INVALID', message);
  }
}

export interface SignatureRule extends SignatureRuleDefinition {
  /** The file the rule was read from. */
  source: string;
  fileTypes: ReadonlySet<FileType>;
  /** One global, multi-line RE2 per pattern, for locating matches. */
  regexes: RE2[];
  /** Tested against the line a match starts on. */
  excludes: RE2[];
}

/** The patterns that apply to one file type, as one set, with each set entry's rule and pattern index. */
export interface TypeMatcher {
  set: InstanceType<typeof RE2.Set> | undefined;
  owners: { rule: SignatureRule; pattern: number }[];
}

export interface SignatureRuleSet {
  dir: string;
  rules: SignatureRule[];
  /** Built on first use for each file type. */
  matcherFor(type: FileType): TypeMatcher;
}

const fileValidator = Compile(SignatureRuleFileSchema);
const loadedSets = new Map<string, SignatureRuleSet>();

/** The rules of `dir` (the shipped rules by default), loaded and compiled on the first call only. */
export function loadSignatureRules(dir: string = SHIPPED_SCANNER_RULES_DIR): SignatureRuleSet {
  let loaded = loadedSets.get(dir);
  if (!loaded) {
    loaded = compileRuleSet(dir);
    loadedSets.set(dir, loaded);
  }
  return loaded;
}

/** Rule files of a folder, in name order. */
export function ruleFilesIn(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    throw new ScannerRuleError(`scanner rules folder ${dir}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  return names.filter((n) => n.endsWith('.yaml') || n.endsWith('.yml')).sort().map((n) => join(dir, n));
}

function compileRuleSet(dir: string): SignatureRuleSet {
  const files = ruleFilesIn(dir);
  if (files.length === 0) throw new ScannerRuleError(`scanner rules folder ${dir} has no .yaml rule files`);
  const rules: SignatureRule[] = [];
  const sources = new Map<string, string>();
  for (const file of files) {
    for (const definition of readRuleFile(file)) {
      const previous = sources.get(definition.id);
      if (previous) throw new ScannerRuleError(`${file}: rule ${definition.id}: duplicate id (also in ${previous})`);
      sources.set(definition.id, file);
      rules.push(compileRule(definition, file));
    }
  }
  const matchers = new Map<FileType, TypeMatcher>();
  const matcherFor = (type: FileType): TypeMatcher => {
    let matcher = matchers.get(type);
    if (!matcher) {
      matcher = buildMatcher(rules.filter((r) => r.fileTypes.has(type)), dir);
      matchers.set(type, matcher);
    }
    return matcher;
  };
  return { dir, rules, matcherFor };
}

/** One rule file's rules, validated; throws ScannerRuleError naming the file, rule and field. */
export function readRuleFile(file: string): SignatureRuleDefinition[] {
  const { rules: definitions } = readRuleYaml<{ rules: SignatureRuleDefinition[] }>(file, SignatureRuleFileSchema, fileValidator, (message) => new ScannerRuleError(message));
  for (const rule of definitions) {
    const prefix = CATEGORY_PREFIXES[rule.category];
    if (!rule.id.startsWith(`SS-${prefix}-`)) {
      throw new ScannerRuleError(`${file}: rule ${rule.id}: id must start with SS-${prefix}- for category ${rule.category}`);
    }
  }
  return definitions;
}

function compilePattern(source: string, flags: string, file: string, ruleId: string, what: string): RE2 {
  try {
    return new RE2(source, flags);
  } catch (err) {
    throw new ScannerRuleError(`${file}: rule ${ruleId}: ${what} is not a valid RE2 expression: ${(err as Error).message}`);
  }
}

function compileRule(definition: SignatureRuleDefinition, file: string): SignatureRule {
  return {
    ...definition,
    source: file,
    fileTypes: expandFileTypes(definition.file_types),
    regexes: definition.patterns.map((p, i) => compilePattern(p, 'gmu', file, definition.id, `pattern ${i + 1}`)),
    excludes: definition.exclude_patterns.map((p, i) => compilePattern(p, 'u', file, definition.id, `exclude_pattern ${i + 1}`)),
  };
}

function buildMatcher(rules: SignatureRule[], dir: string): TypeMatcher {
  const owners = rules.flatMap((rule) => rule.patterns.map((_, pattern) => ({ rule, pattern })));
  if (owners.length === 0) return { set: undefined, owners };
  try {
    const set = new RE2.Set(owners.map((o) => o.rule.patterns[o.pattern]!), 'mu', { maxMem: SET_MAX_MEMORY });
    return { set, owners };
  } catch (err) {
    // Every pattern compiled on its own (compileRule), so this is a resource limit of the combined set.
    throw new ScannerRuleError(`scanner rules in ${dir}: the patterns do not compile together: ${(err as Error).message}`);
  }
}
