// Exactly pinned dependencies of a skill, for the OSV analyzer: Python (requirements*.txt, pyproject.toml
// [project] dependencies, Pipfile [packages]/[dev-packages], poetry.lock), JavaScript (package.json
// dependencies and devDependencies, package-lock.json v2/v3 `packages`) and Rust (Cargo.lock). Only exact pins
// are returned: a range names no single version to look up, and guessing one would report vulnerabilities the
// skill may never install.
//
// TOML files are parsed with `smol-toml` (a file that is not valid TOML yields no pins, as the tool reading it
// would refuse it); the library gives values without positions, so the line of each pin is found afterwards
// in the text, searching from its section, and left out when it cannot be found.
import { parse as parseToml, type TomlTable } from 'smol-toml';
import type { SkillFile, SkillPackage } from '../types.js';
import { lineAt } from '../snippet.js';
import { isObject, parseJson, type JsonObject } from '../../util/json.js';

export type Ecosystem = 'PyPI' | 'npm' | 'crates.io';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export interface DependencyPin {
  ecosystem: Ecosystem;
  /** As the registry knows it: PyPI names normalised (PEP 503), npm names as written. */
  name: string;
  version: string;
  file_path: string;
  line_number?: number;
}

// ---------------------------------------------------------------------------------------------- Python

/** PEP 503 normalisation: case-insensitive, runs of `-`, `_`, `.` equal. */
export const normalisePypiName = (name: string) => name.toLowerCase().replace(/[-_.]+/g, '-');

/** `name[extras] == version ; marker`: a single `==`/`===` specifier, no wildcard (PEP 508/440). */
const PEP508_EXACT = /^([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(?:\[[^\]]*\])?\s*\(?\s*===?\s*([A-Za-z0-9][A-Za-z0-9.+!_-]*)\s*\)?\s*(?:;.*)?$/;

/** The pin in one PEP 508 requirement string, when it is an exact one. */
function exactPythonRequirement(requirement: string): { name: string; version: string } | undefined {
  const match = PEP508_EXACT.exec(requirement.trim());
  return match ? { name: normalisePypiName(match[1]!), version: match[2]! } : undefined;
}

function requirementsTxtPins(file: SkillFile): DependencyPin[] {
  const pins: DependencyPin[] = [];
  (file.text ?? '').split('\n').forEach((raw, i) => {
    // Comments start at a `#` preceded by whitespace; per-requirement options (`--hash=…`) follow the spec.
    const line = raw.replace(/(^|\s)#.*$/, '').replace(/\s--?[A-Za-z].*$/, '').replace(/\\\s*$/, '').trim();
    if (line === '' || line.startsWith('-')) return; // -r, -e, -c, --index-url…
    const pin = exactPythonRequirement(line);
    if (pin) pins.push({ ecosystem: 'PyPI', ...pin, file_path: file.path, line_number: i + 1 });
  });
  return pins;
}

/** The TOML document in a file, or undefined when it is not valid TOML (the tool that reads it would refuse it too). */
function parseTomlTable(text: string | undefined): TomlTable | undefined {
  try {
    return parseToml(text ?? '');
  } catch {
    return undefined; // not TOML: nothing to look up (the static analyzers see the file anyway)
  }
}

/** A TOML table (or JSON object) value, else undefined. */
const tableAt = (value: unknown): JsonObject | undefined => (isObject(value) ? value : undefined);

/** Where a section's header `[name]` ends, so a key is looked for in its own section; 0 when not found. */
function sectionStart(text: string, name: string): number {
  const match = new RegExp(`^\\s*\\[\\s*${escapeRegExp(name)}\\s*\\]`, 'm').exec(text);
  return match ? match.index + match[0].length : 0;
}

/** Line of the first match of `pattern` at or after `from` (the library gives values, not their positions). */
function lineOfMatch(text: string, pattern: RegExp, from: number): number | undefined {
  pattern.lastIndex = from;
  const match = pattern.exec(text);
  return match ? lineAt(text, match.index) : undefined;
}

/** `"value"` or `'value'` written as is (requirement strings hold no escapes in practice). */
const quoted = (value: string) => new RegExp(`["']${escapeRegExp(value)}["']`, 'g');

function pyprojectPins(file: SkillFile): DependencyPin[] {
  const text = file.text ?? '';
  const dependencies = tableAt(parseTomlTable(text)?.project)?.dependencies;
  if (!Array.isArray(dependencies)) return [];
  const from = sectionStart(text, 'project');
  return dependencies.flatMap((requirement) => {
    const pin = typeof requirement === 'string' ? exactPythonRequirement(requirement) : undefined;
    if (!pin) return [];
    const line = lineOfMatch(text, quoted(requirement as string), from);
    return [{ ecosystem: 'PyPI' as const, ...pin, file_path: file.path, line_number: line }];
  });
}

function pipfilePins(file: SkillFile): DependencyPin[] {
  const text = file.text ?? '';
  const pipfile = parseTomlTable(text);
  return ['packages', 'dev-packages'].flatMap((section) => {
    const from = sectionStart(text, section);
    return Object.entries(tableAt(pipfile?.[section]) ?? {}).flatMap(([name, value]) => {
      // `name = "==1.2"`, or an inline table `name = {version = "==1.2", extras = [...]}`.
      const spec = typeof value === 'string' ? value : tableAt(value)?.version;
      const version = typeof spec === 'string' ? /^===?\s*([A-Za-z0-9][A-Za-z0-9.+!_-]*)$/.exec(spec.trim())?.[1] : undefined;
      if (!version || !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) return [];
      // The key as written under its header, or dotted at the top level (`packages.requests = …`).
      const key = new RegExp(`^\\s*(?:["']?${escapeRegExp(section)}["']?\\s*\\.\\s*)?["']?${escapeRegExp(name)}["']?\\s*=`, 'gm');
      const line = lineOfMatch(text, key, from);
      return [{ ecosystem: 'PyPI' as const, name: normalisePypiName(name), version, file_path: file.path, line_number: line }];
    });
  });
}

/**
 * The `[[package]]` entries of a lock file that come from the ecosystem's registry, with the line of each
 * entry's `name`. Every version in a lock file is exact by construction.
 */
function lockedPackages(file: SkillFile, ecosystem: Ecosystem, fromRegistry: (entry: Record<string, unknown>) => boolean): DependencyPin[] {
  const text = file.text ?? '';
  const packages = parseTomlTable(text)?.package;
  if (!Array.isArray(packages)) return [];
  let from = 0;
  return packages.flatMap((value) => {
    const entry = tableAt(value);
    if (!entry || typeof entry.name !== 'string' || typeof entry.version !== 'string') return [];
    const pattern = new RegExp(`^\\s*name\\s*=\\s*["']${escapeRegExp(entry.name)}["']`, 'gm');
    const line = lineOfMatch(text, pattern, from);
    if (line !== undefined) from = pattern.lastIndex; // entries are in file order: the next one is further down
    if (!fromRegistry(entry)) return [];
    const name = ecosystem === 'PyPI' ? normalisePypiName(entry.name) : entry.name;
    return [{ ecosystem, name, version: entry.version, file_path: file.path, line_number: line }];
  });
}

/** poetry.lock: packages without a `[package.source]` come from PyPI; git, url, file and directory ones do not. */
const poetryLockPins = (file: SkillFile) =>
  lockedPackages(file, 'PyPI', (entry) => {
    const type = tableAt(entry.source)?.type;
    return type === undefined || type === 'legacy'; // `legacy` is a PyPI-compatible index
  });

/** Cargo.lock: only crates whose `source` is the crates.io index; path and git crates have none or another. */
const cargoLockPins = (file: SkillFile) =>
  lockedPackages(file, 'crates.io', (entry) => entry.source === 'registry+https://github.com/rust-lang/crates.io-index');

// ------------------------------------------------------------------------------------------ JavaScript

/** An exact semver (npm also accepts a leading `=` or `v`); ranges, tags, URLs and aliases are not. */
const SEMVER_EXACT = /^=?\s*v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?)$/;

/** The file's top-level JSON object; undefined when it is not JSON (the static analyzers see the file anyway). */
function parseJsonObject(text: string | undefined): JsonObject | undefined {
  return tableAt(parseJson(text ?? ''));
}

/** Line of the first `"key": <valuePattern>` in a JSON text, when there is one. */
function jsonKeyLine(text: string, key: string, valuePattern: string): number | undefined {
  const match = new RegExp(`${escapeRegExp(JSON.stringify(key))}\\s*:\\s*${valuePattern}`).exec(text);
  return match ? lineAt(text, match.index) : undefined;
}

function packageJsonPins(file: SkillFile): DependencyPin[] {
  const manifest = parseJsonObject(file.text);
  if (!manifest) return [];
  const pins: DependencyPin[] = [];
  for (const field of ['dependencies', 'devDependencies']) {
    const deps = manifest[field];
    if (!deps || typeof deps !== 'object') continue;
    for (const [name, spec] of Object.entries(deps as Record<string, unknown>)) {
      const version = typeof spec === 'string' ? SEMVER_EXACT.exec(spec.trim())?.[1] : undefined;
      if (!version || name.length === 0 || /\s/.test(name)) continue;
      const line = jsonKeyLine(file.text!, name, escapeRegExp(JSON.stringify(spec)));
      pins.push({ ecosystem: 'npm', name, version, file_path: file.path, line_number: line });
    }
  }
  return pins;
}

function packageLockPins(file: SkillFile): DependencyPin[] {
  const lock = parseJsonObject(file.text);
  const packages = lock?.packages;
  // v1 lockfiles have only the nested `dependencies` tree; v2 carries both, v3 only `packages`.
  if (!packages || typeof packages !== 'object' || typeof lock.lockfileVersion !== 'number' || lock.lockfileVersion < 2) return [];
  const pins: DependencyPin[] = [];
  for (const [key, entry] of Object.entries(packages as Record<string, unknown>)) {
    const at = key.lastIndexOf('node_modules/');
    // "" is the project itself; keys without node_modules/ are workspace folders, not registry packages.
    if (at < 0 || !entry || typeof entry !== 'object') continue;
    const { name, version, link, resolved } = entry as Record<string, unknown>;
    if (link === true || typeof version !== 'string') continue;
    if (typeof resolved === 'string' && !/^https?:/.test(resolved)) continue; // git, file: and other non-registry sources
    const exact = SEMVER_EXACT.exec(version)?.[1];
    if (!exact) continue;
    const packageName = typeof name === 'string' ? name : key.slice(at + 'node_modules/'.length);
    pins.push({ ecosystem: 'npm', name: packageName, version: exact, file_path: file.path, line_number: jsonKeyLine(file.text!, key, '\\{') });
  }
  return pins;
}

// ---------------------------------------------------------------------------------------------- all

const base = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/** Which reader a file needs, by name; undefined for files that declare no dependencies. */
function pinReader(path: string): ((file: SkillFile) => DependencyPin[]) | undefined {
  const name = base(path);
  if (/^requirements.*\.txt$/i.test(name) || /(^|\/)requirements\/[^/]+\.txt$/i.test(path)) return requirementsTxtPins;
  if (name === 'pyproject.toml') return pyprojectPins;
  if (name === 'Pipfile') return pipfilePins;
  if (name === 'poetry.lock') return poetryLockPins;
  if (name === 'Cargo.lock') return cargoLockPins;
  if (name === 'package.json' && !path.includes('node_modules/')) return packageJsonPins;
  if (name === 'package-lock.json') return packageLockPins;
  return undefined;
}

/** Every exact pin in the skill, in file order. */
export function findPins(skill: SkillPackage): DependencyPin[] {
  return skill.files.flatMap((file) => {
    const read = pinReader(file.path);
    return read && file.text !== undefined ? read(file) : [];
  });
}
