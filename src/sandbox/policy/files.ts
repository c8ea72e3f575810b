// Reading the sandbox policy files: shipped packs (policies/sandbox/*.yaml), operator packs (a file path or an
// inline object in `openshell.packs`) and the administrator file. Each is YAML checked against its strict schema
// (schema.ts) and then for what a schema cannot say (a default above its max, a profile that breaks its pack).
// Every problem names the file, the line where YAML can tell, and the dotted key, so an operator can fix it;
// the files are operator-owned, so only regular files within a size cap are read.
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import Value from 'typebox/value';
import { LineCounter, parseDocument, type Document } from 'yaml';
import { readRegularFile } from '../../scanners/special-files.js';
import { canonicalJson } from '../../util/canonical-json.js';
import { SANDBOX_POLICY_LIMITS } from './limits.js';
import { memoryMiB } from './values.js';
import { AdminSchema, PackSchema, type AdminFile, type PackFile, type PackSettings } from './schema.js';

export const SHIPPED_PACKS_DIR = fileURLToPath(new URL('../../../policies/sandbox/', import.meta.url));
/** The implicit profile of every pack: the pack's own settings. */
export const BASE_PROFILE = 'default';

/** A loaded pack, ready to resolve against. */
export interface LoadedPack {
  name: string;
  /** `shipped`, `config` (inline in openshell.packs) or the file path. */
  source: string;
  /** Where its keys were read, for `origin`: a file path, or `config.yaml openshell.packs.<name>`. */
  origin: string;
  /** `sha256:<hex>` of the canonical JSON of the loaded pack. */
  digest: string;
  pack: PackFile;
}

const packValidator = Compile(PackSchema);
const adminValidator = Compile(AdminSchema);

/** A file or inline object that cannot be used; `where` names it (file path or config key). */
export class PolicyFileProblem extends Error {}

/** Reads a regular file of at most the size cap; a problem names the file. */
export function readPolicyText(path: string): string {
  let bytes: Buffer | undefined;
  try {
    bytes = readRegularFile(path, { followLinks: true });
  } catch (err) {
    throw new PolicyFileProblem(`${path}: cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  if (!bytes) throw new PolicyFileProblem(`${path}: not a regular file`);
  if (bytes.length > SANDBOX_POLICY_LIMITS.maxFileBytes) {
    throw new PolicyFileProblem(`${path}: ${bytes.length} bytes, more than the ${SANDBOX_POLICY_LIMITS.maxFileBytes} a policy file may hold`);
  }
  return bytes.toString('utf8');
}

/** YAML text → the value checked against `schema`, defaults filled in. */
function parseYaml<T>(text: string, where: string, schema: TSchema, validator: ReturnType<typeof Compile>): T {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: true });
  const yamlError = doc.errors[0];
  if (yamlError) {
    const line = yamlError.linePos?.[0].line;
    throw new PolicyFileProblem(`${where}${line ? `:${line}` : ''}: invalid YAML: ${yamlError.message.split('\n')[0]}`);
  }
  return check<T>(doc.toJS() ?? {}, where, schema, validator, doc, lines);
}

/** An already-parsed value (an inline pack) → the value checked against `schema`, defaults filled in. */
function check<T>(raw: unknown, where: string, schema: TSchema, validator: ReturnType<typeof Compile>, doc?: Document, lines?: LineCounter): T {
  const value = Value.Default(schema, structuredClone(raw)) as unknown;
  const problems: string[] = [];
  for (const error of validator.Errors(value)) {
    const segments = error.instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    // A key the schema does not know (`false`, or `Never` in a record) is reported by name as additionalProperties.
    if (error.keyword === 'boolean' || error.keyword === 'not') continue;
    if (error.keyword === 'additionalProperties') {
      for (const key of (error.params as { additionalProperties: string[] }).additionalProperties) {
        const at = [...segments, key];
        problems.push(`${locate(where, doc, lines, at)}: ${at.join('.')}: unknown key`);
      }
      continue;
    }
    problems.push(`${locate(where, doc, lines, segments)}: ${segments.join('.') || '(top level)'}: ${error.message}`);
  }
  if (problems.length > 0) throw new PolicyFileProblem([...new Set(problems)].join('; '));
  return value as T;
}

function locate(where: string, doc: Document | undefined, lines: LineCounter | undefined, segments: string[]): string {
  if (!doc || !lines) return where;
  for (let depth = segments.length; depth > 0; depth--) {
    const node = doc.getIn(segments.slice(0, depth), true) as { range?: [number, number, number] } | undefined;
    if (node?.range) return `${where}:${lines.linePos(node.range[0]).line}`;
  }
  return where;
}

/** The settings of `profile` of `pack`: the pack's, with the profile's fields on top. */
export function profileSettings(pack: PackFile, profile: string): PackSettings | undefined {
  if (profile === BASE_PROFILE) return { network_mode: pack.network_mode, approvals: pack.approvals, options: pack.options };
  const variant = pack.profiles[profile];
  if (!variant) return undefined;
  const options = structuredClone(pack.options) as Record<string, Record<string, unknown>>;
  for (const [key, fields] of Object.entries(variant.options ?? {})) Object.assign(options[key]!, fields);
  return {
    network_mode: variant.network_mode ?? pack.network_mode,
    approvals: variant.approvals ?? pack.approvals,
    options: options as unknown as PackSettings['options'],
  };
}

/** What the schema cannot say: bounds in order, safe and yolo not both on, in the pack and each profile. */
function checkConsistent(pack: PackFile, where: string): void {
  if (BASE_PROFILE in pack.profiles) throw new PolicyFileProblem(`${where}: profiles.${BASE_PROFILE}: is the pack itself and cannot be redefined`);
  for (const profile of [BASE_PROFILE, ...Object.keys(pack.profiles)]) {
    const { options } = profileSettings(pack, profile)!;
    const at = profile === BASE_PROFILE ? 'options' : `profiles.${profile}.options`;
    const { cpu, memory, host_ports: ports } = options;
    if (cpu.default !== undefined && cpu.max !== undefined && cpu.default > cpu.max) {
      throw new PolicyFileProblem(`${where}: ${at}.cpu.default: ${cpu.default} is above max ${cpu.max}`);
    }
    if (memory.default !== undefined && memory.max !== undefined && memoryMiB(memory.default) > memoryMiB(memory.max)) {
      throw new PolicyFileProblem(`${where}: ${at}.memory.default: ${memory.default} is above max ${memory.max}`);
    }
    if (ports.min_port > ports.max_port) {
      throw new PolicyFileProblem(`${where}: ${at}.host_ports.min_port: ${ports.min_port} is above max_port ${ports.max_port}`);
    }
    if (options.safe.default && options.yolo.default) {
      throw new PolicyFileProblem(`${where}: ${at}: safe.default and yolo.default cannot both be true`);
    }
  }
}

function loaded(name: string, source: string, origin: string, pack: PackFile): LoadedPack {
  checkConsistent(pack, origin);
  return { name, source, origin, pack, digest: `sha256:${createHash('sha256').update(canonicalJson(pack)).digest('hex')}` };
}

/** A pack from a YAML file (shipped, or an operator's path); `shown` names the file in origins and errors. */
export function loadPackFile(name: string, path: string, source: string, shown = path): LoadedPack {
  return loaded(name, source, shown, parseYaml<PackFile>(readPolicyText(path), shown, PackSchema, packValidator));
}

/** A pack written inline in config.yaml under `openshell.packs.<name>`. */
export function loadInlinePack(name: string, raw: unknown): LoadedPack {
  const where = `config.yaml openshell.packs.${name}`;
  return loaded(name, 'config', where, check<PackFile>(raw, where, PackSchema, packValidator));
}

/** The shipped packs: every policies/sandbox/<name>.yaml. */
export function loadShippedPacks(dir = SHIPPED_PACKS_DIR): LoadedPack[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.yaml'))
    .sort()
    .map((file) => loadPackFile(file.slice(0, -'.yaml'.length), join(dir, file), 'shipped', `policies/sandbox/${file}`));
}

export interface LoadedAdmin {
  path: string;
  digest: string;
  admin: AdminFile;
}

export function loadAdminFile(path: string): LoadedAdmin {
  const text = readPolicyText(path);
  const admin = parseYaml<AdminFile>(text, path, AdminSchema, adminValidator);
  return { path, admin, digest: `sha256:${createHash('sha256').update(canonicalJson(admin)).digest('hex')}` };
}
