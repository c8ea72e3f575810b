// Exactly pinned dependencies of a skill, for the OSV analyzer: Python (requirements*.txt, pyproject.toml
// [project] dependencies, Pipfile [packages]/[dev-packages]) and JavaScript (package.json dependencies and
// devDependencies, package-lock.json v2/v3 `packages`). Only exact pins are returned: a range names no single
// version to look up, and guessing one would report vulnerabilities the skill may never install.
//
// The TOML files are read line by line instead of with a TOML library: the project has none as a dependency,
// and only two narrow constructs are needed (one array of strings under [project], `name = "==x"` or
// `name = {version = "==x"}` under a Pipfile section). Anything else is skipped, never guessed.
import type { SkillFile, SkillPackage } from '../types.js';
import { lineAt } from '../snippet.js';

export type Ecosystem = 'PyPI' | 'npm';

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
export function exactPythonRequirement(requirement: string): { name: string; version: string } | undefined {
  const match = PEP508_EXACT.exec(requirement.trim());
  return match ? { name: normalisePypiName(match[1]!), version: match[2]! } : undefined;
}

export function requirementsTxtPins(file: SkillFile): DependencyPin[] {
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

/** Section header `[name]` → name; array-of-tables `[[name]]` and other lines → undefined. */
function tomlSection(line: string): string | undefined {
  const match = /^\s*\[\s*([^[\]]+?)\s*\]\s*(?:#.*)?$/.exec(line);
  return match?.[1];
}

/** The strings of a TOML array starting at `start` (the `[`), with their offsets; stops at the closing `]`. */
function tomlStringArray(text: string, start: number): { value: string; offset: number }[] {
  const strings: { value: string; offset: number }[] = [];
  for (let i = start + 1; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === ']') break;
    if (ch === '#') {
      const end = text.indexOf('\n', i);
      if (end < 0) break;
      i = end;
    } else if (ch === '"' || ch === "'") {
      // Basic strings may hold \" escapes; literal strings cannot. Requirement strings need no unescaping.
      let end = i + 1;
      while (end < text.length && text[end] !== ch && text[end] !== '\n') end += ch === '"' && text[end] === '\\' ? 2 : 1;
      strings.push({ value: text.slice(i + 1, end), offset: i });
      i = end;
    }
  }
  return strings;
}

export function pyprojectPins(file: SkillFile): DependencyPin[] {
  const text = file.text ?? '';
  const pins: DependencyPin[] = [];
  let section: string | undefined;
  let offset = 0;
  for (const line of text.split('\n')) {
    section = tomlSection(line) ?? section;
    const key = /^\s*dependencies\s*=\s*\[/.exec(line);
    if (section === 'project' && key) {
      for (const { value, offset: at } of tomlStringArray(text, offset + key[0].length - 1)) {
        const pin = exactPythonRequirement(value);
        if (pin) pins.push({ ecosystem: 'PyPI', ...pin, file_path: file.path, line_number: lineAt(text, at) });
      }
    }
    offset += line.length + 1;
  }
  return pins;
}

export function pipfilePins(file: SkillFile): DependencyPin[] {
  const pins: DependencyPin[] = [];
  let section: string | undefined;
  (file.text ?? '').split('\n').forEach((line, i) => {
    section = tomlSection(line) ?? section;
    if (section !== 'packages' && section !== 'dev-packages') return;
    const entry = /^\s*["']?([A-Za-z0-9][A-Za-z0-9._-]*)["']?\s*=\s*(.+?)\s*$/.exec(line);
    if (!entry) return;
    const value = entry[2]!;
    // `name = "==1.2"`, or an inline table `name = {version = "==1.2", extras = [...]}`.
    const spec = value.startsWith('{') ? /\bversion\s*=\s*["']([^"']*)["']/.exec(value)?.[1] : /^["']([^"']*)["']/.exec(value)?.[1];
    const version = spec === undefined ? undefined : /^===?\s*([A-Za-z0-9][A-Za-z0-9.+!_-]*)$/.exec(spec.trim())?.[1];
    if (version) pins.push({ ecosystem: 'PyPI', name: normalisePypiName(entry[1]!), version, file_path: file.path, line_number: i + 1 });
  });
  return pins;
}

// ------------------------------------------------------------------------------------------ JavaScript

/** An exact semver (npm also accepts a leading `=` or `v`); ranges, tags, URLs and aliases are not. */
const SEMVER_EXACT = /^=?\s*v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?)$/;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function parseJsonObject(text: string | undefined): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text ?? '');
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined; // not JSON: nothing to look up (the static analyzers see the file anyway)
  }
}

/** Line of the first `"key": <valuePattern>` in a JSON text, when there is one. */
function jsonKeyLine(text: string, key: string, valuePattern: string): number | undefined {
  const match = new RegExp(`${escapeRegExp(JSON.stringify(key))}\\s*:\\s*${valuePattern}`).exec(text);
  return match ? lineAt(text, match.index) : undefined;
}

export function packageJsonPins(file: SkillFile): DependencyPin[] {
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

export function packageLockPins(file: SkillFile): DependencyPin[] {
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
export function pinReader(path: string): ((file: SkillFile) => DependencyPin[]) | undefined {
  const name = base(path);
  if (/^requirements.*\.txt$/i.test(name) || /(^|\/)requirements\/[^/]+\.txt$/i.test(path)) return requirementsTxtPins;
  if (name === 'pyproject.toml') return pyprojectPins;
  if (name === 'Pipfile') return pipfilePins;
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
