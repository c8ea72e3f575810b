// Dependencies declared in project manifests, by ecosystem: package.json (npm), requirements*.txt and
// pyproject.toml (PyPI, PEP 621 and Poetry tables), go.mod (Go modules) and Cargo.toml (crates.io). Only names and
// version requirements are read; a file too large or unparsable yields nothing and a warning.
import { basename } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { readRegularFile } from '../scanners/special-files.js';
import { asObject, isObject, parseJson } from '../util/json.js';
import { DISCOVERY_LIMITS } from './limits.js';
import type { SdkEcosystem } from './packs.js';

export interface Dependency {
  ecosystem: SdkEcosystem;
  name: string;
  version: string;
}

/** PEP 503 normalised name: lower case, runs of `-`, `_` and `.` as one `-`. */
export const normalisePypi = (name: string) => name.toLowerCase().replace(/[-_.]+/g, '-');

/** A PEP 508 requirement (`openai>=1.0; python_version>"3.8"`) → name and the rest, or undefined for options and URLs. */
function requirement(line: string): { name: string; version: string } | undefined {
  const text = line.replace(/(^|\s)#.*$/, '').trim();
  const match = /^([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]*\])?\s*(.*)$/.exec(text);
  if (!match) return undefined;
  return { name: normalisePypi(match[1]!), version: match[3]!.split(';')[0]!.trim() };
}

const entriesOf = (table: unknown): [string, unknown][] => Object.entries(asObject(table));
const versionOf = (value: unknown) => (typeof value === 'string' ? value : isObject(value) && typeof value.version === 'string' ? value.version : '');

function npm(text: string): Dependency[] {
  const doc = asObject(parseJson(text));
  return ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'].flatMap((key) =>
    entriesOf(doc[key]).map(([name, version]) => ({ ecosystem: 'npm' as const, name, version: typeof version === 'string' ? version : '' })),
  );
}

function requirements(text: string): Dependency[] {
  return text.split('\n').flatMap((line) => {
    const found = requirement(line);
    return found ? [{ ecosystem: 'pypi' as const, ...found }] : [];
  });
}

function pyproject(text: string): Dependency[] {
  const doc = parseToml(text);
  const project = asObject(doc.project);
  const pep621 = [
    ...(Array.isArray(project.dependencies) ? project.dependencies : []),
    ...entriesOf(project['optional-dependencies']).flatMap(([, list]) => (Array.isArray(list) ? list : [])),
  ].flatMap((spec) => (typeof spec === 'string' ? (requirement(spec) ?? []) : []));
  const poetry = asObject(asObject(doc.tool).poetry);
  const poetryDeps = [poetry.dependencies, poetry['dev-dependencies'], ...entriesOf(poetry.group).map(([, group]) => asObject(group).dependencies)]
    .flatMap((table) => entriesOf(table))
    .filter(([name]) => name !== 'python')
    .map(([name, value]) => ({ name: normalisePypi(name), version: versionOf(value) }));
  return [...pep621, ...poetryDeps].map((d) => ({ ecosystem: 'pypi' as const, ...d }));
}

function goMod(text: string): Dependency[] {
  const found: Dependency[] = [];
  let inBlock = false;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\/\/.*$/, '').trim();
    if (inBlock && line === ')') inBlock = false;
    else if (line === 'require (') inBlock = true;
    else {
      const match = (inBlock ? /^(\S+)\s+(\S+)/ : /^require\s+(\S+)\s+(\S+)/).exec(line);
      if (match) found.push({ ecosystem: 'go', name: match[1]!, version: match[2]! });
    }
  }
  return found;
}

function cargo(text: string): Dependency[] {
  const doc = parseToml(text);
  const tables = [doc.dependencies, doc['dev-dependencies'], doc['build-dependencies'], asObject(doc.workspace).dependencies,
    ...entriesOf(doc.target).flatMap(([, target]) => [asObject(target).dependencies, asObject(target)['dev-dependencies']])];
  return tables.flatMap((table) => entriesOf(table)).map(([name, value]) => ({
    ecosystem: 'cargo' as const,
    // A renamed dependency (`foo = { package = "async-openai" }`) is the package it names.
    name: isObject(value) && typeof value.package === 'string' ? value.package : name,
    version: versionOf(value),
  }));
}

/** The dependencies a manifest declares; throws on a file it cannot parse. */
export function dependenciesIn(path: string): Dependency[] {
  const bytes = readRegularFile(path);
  if (!bytes || bytes.length > DISCOVERY_LIMITS.manifestBytes) return [];
  const text = bytes.toString('utf8');
  const name = basename(path);
  if (name === 'package.json') return npm(text);
  if (name === 'pyproject.toml') return pyproject(text);
  if (name === 'go.mod') return goMod(text);
  if (name === 'Cargo.toml') return cargo(text);
  if (name.startsWith('requirements')) return requirements(text);
  return [];
}
