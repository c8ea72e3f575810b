// The Rego modules and data a policy is built from: the shipped modules in policies/rego/, and the operator's
// own `.rego` files and `data.json` from `policy_dir` (its `rego` child when it has one, as in v8 installs).
// The folder is operator-owned but read by a long-running service, so it is handled like untrusted input:
// regular files only (a symbolic link or a FIFO is refused, checked on the open descriptor), sizes capped
// (src/policy/limits.ts). Any problem is a WardenError naming the file, so a reload can refuse and keep the
// running policy.
import { lstatSync, readdirSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WardenError } from '../errors.js';
import { readRegularFile } from '../scanners/special-files.js';
import type { SourceFile } from './rego/index.js';
import { POLICY_LIMITS } from './limits.js';

export const SHIPPED_POLICY_DIR = fileURLToPath(new URL('../../policies/rego/', import.meta.url));

export interface PolicySources {
  /** The shipped modules, then the operator's. */
  modules: SourceFile[];
  /** The operator's own modules (a suffix of `modules`). */
  operatorModules: SourceFile[];
  /** The operator's data.json, or an empty object. */
  data: Record<string, unknown>;
  /** The folder the operator's files were read from; undefined without `policy_dir`. */
  dir: string | undefined;
}

const dirError = (message: string) => new WardenError('WARDEN_ERR_POLICY_DIR', message, { statusCode: 400 });

/** `policy_dir` as a path: `~` is the home folder, a relative path is under the Warden home. */
export function resolvePolicyDir(configured: string, wardenHome: string, home: string): string | undefined {
  if (configured === '') return undefined;
  const expanded = configured === '~' || configured.startsWith('~/') ? join(home, configured.slice(1)) : configured;
  return isAbsolute(expanded) ? expanded : resolve(wardenHome, expanded);
}

/** The shipped modules, named by their path in the repository so errors point at the right file. */
export function shippedModules(): SourceFile[] {
  return regoFilesIn(SHIPPED_POLICY_DIR).map((name) => ({
    file: `policies/rego/${name}`,
    source: readCapped(join(SHIPPED_POLICY_DIR, name), POLICY_LIMITS.maxModuleBytes),
  }));
}

/** Everything a policy is compiled from; `policyDir` undefined means the shipped modules alone. */
export function loadPolicySources(policyDir: string | undefined): PolicySources {
  const modules = shippedModules();
  if (policyDir === undefined) return { modules, operatorModules: [], data: {}, dir: undefined };
  const dir = operatorFolder(policyDir);
  const names = regoFilesIn(dir);
  if (names.length > POLICY_LIMITS.maxModules) throw dirError(`${dir} holds ${names.length} .rego files; at most ${POLICY_LIMITS.maxModules} are loaded`);
  const operatorModules = names.map((name) => ({ file: join(dir, name), source: readCapped(join(dir, name), POLICY_LIMITS.maxModuleBytes) }));
  return { modules: [...modules, ...operatorModules], operatorModules, data: readData(join(dir, 'data.json')), dir };
}

/** The `rego` child of the configured folder when it has one, else the folder; never through a link. */
function operatorFolder(configured: string): string {
  const child = join(configured, 'rego');
  for (const candidate of [child, configured]) {
    let stats;
    try {
      stats = lstatSync(candidate);
    } catch {
      continue;
    }
    if (stats.isSymbolicLink()) throw dirError(`${candidate} is a symbolic link; policy_dir must be a real folder`);
    if (stats.isDirectory()) return candidate;
    if (candidate === configured) throw dirError(`${configured} (policy_dir) is not a folder`);
  }
  throw dirError(`${configured} (policy_dir) does not exist`);
}

function regoFilesIn(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.endsWith('.rego')).sort();
}

/** A regular file's text within a size cap; a link, a special file or a larger file is refused by name. */
function readCapped(path: string, cap: number): string {
  const stats = lstatSync(path);
  if (stats.size > cap) throw dirError(`${path} is ${stats.size} bytes; at most ${cap} are read`);
  const bytes = readRegularFile(path);
  if (bytes === undefined) throw dirError(`${path} is not a regular file (symbolic links and special files are refused)`);
  if (bytes.length > cap) throw dirError(`${path} is over ${cap} bytes`);
  return bytes.toString('utf8');
}

function readData(path: string): Record<string, unknown> {
  try {
    lstatSync(path);
  } catch {
    return {};
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readCapped(path, POLICY_LIMITS.maxDataBytes));
  } catch (err) {
    if (err instanceof WardenError) throw err;
    throw new WardenError('WARDEN_ERR_POLICY_DATA', `${path}: not valid JSON (${(err as Error).message})`, { statusCode: 400 });
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new WardenError('WARDEN_ERR_POLICY_DATA', `${path}: must hold a JSON object`, { statusCode: 400 });
  }
  return parsed as Record<string, unknown>;
}

