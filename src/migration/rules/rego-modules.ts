// Rule 10 of the 8 → 9 migration: a Rego module of the version 8 home (`policies/rego/*.rego`) that reads `data`
// outside its own package and outside Warden 9's own namespace (`data.warden.…`, where Warden puts the
// operator's settings) was written for data.json, which version 9 no longer reads. On a per-user install it is
// kept as `<name>.rego.migrated-v9` and, where Warden ships a module of that name, replaced by the shipped one;
// on a managed host the admin's modules are left alone (noted). Top-level keys of data.json that are the
// operator's own (not a key version 8 shipped) have no version 9 home: they are listed as unenforced.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SHIPPED_POLICY_DIR } from '../../policy/files.js';
import { parseModule } from '../../policy/rego/parser.js';
import type { Module, Term } from '../../policy/rego/ast.js';
import type { MigrationRule } from '../types.js';

export const REGO_DIR = 'policies/rego';
export const DATA_JSON = `${REGO_DIR}/data.json`;
/** The top-level keys of the data.json version 8 shipped (/work/shared/migration-v8.md); anything else is the operator's. */
const SHIPPED_DATA_KEYS = new Set(['config', 'actions', 'scanner_overrides', 'first_party_allow_list', 'severity_ranking', 'audit', 'guardrail']);

export const regoModulesRule: MigrationRule = (ctx) => {
  if (ctx.input.scope === 'client-managed') return;
  const modules = [...ctx.input.files.values()].filter((f) => /^policies\/rego\/[^/]+\.rego$/.test(f.path));
  for (const file of modules.sort((a, b) => (a.path < b.path ? -1 : 1))) {
    const name = file.path.slice(REGO_DIR.length + 1);
    let module: Module;
    try {
      module = parseModule(file.path, file.bytes.toString('utf8'));
    } catch (err) {
      ctx.record.notes.push(`${file.path} does not parse (${(err as Error).message.split('\n')[0]}); it is treated as a pre-9 module`);
      module = { file: file.path, pkg: [], imports: [], rules: [] };
    }
    if (module.pkg.length && !readsForeignData(module)) continue;
    if (ctx.input.scope === 'managed') {
      ctx.record.notes.push(`${file.path} reads data outside its package (pre-9); on a managed host the admin's module is left as it is`);
      continue;
    }
    ctx.operations.push({ op: 'rename', from: file.path, to: `${file.path}.migrated-v9` });
    const shipped = shippedModule(name);
    if (shipped) {
      ctx.operations.push({ op: 'write', path: file.path, bytes: shipped });
      ctx.record.notes.push(`${file.path} read version 8 data; kept as ${name}.migrated-v9 and replaced by the shipped module`);
    } else {
      ctx.record.notes.push(`${file.path} read version 8 data; kept as ${name}.migrated-v9 (Warden ships no module of that name)`);
    }
  }
  ctx.record.unenforced_rego_data.push(...operatorDataKeys(ctx.input.files.get(DATA_JSON)?.bytes));
};

function shippedModule(name: string): Buffer | undefined {
  try {
    return readFileSync(join(SHIPPED_POLICY_DIR, name));
  } catch {
    return undefined;
  }
}

/** Keys of data.json that version 8 did not ship, as `data.json:<key>`. */
function operatorDataKeys(bytes: Buffer | undefined): string[] {
  if (!bytes) return [];
  let data: unknown;
  try {
    data = JSON.parse(bytes.toString('utf8'));
  } catch {
    return [];
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return [];
  return Object.keys(data).filter((k) => !SHIPPED_DATA_KEYS.has(k)).sort().map((k) => `data.json:${k}`);
}

/** Whether any `data` reference of the module (imports, rule heads and bodies) leaves its package and `data.warden`. */
export function readsForeignData(module: Module): boolean {
  const allowed = (path: string[]) => path[0] === 'warden' || module.pkg.every((p, i) => path[i] === p);
  const refs: string[][] = [];
  collectDataRefs(module.imports.map((i) => i.path), refs);
  collectDataRefs(module.rules, refs);
  return refs.some((path) => !allowed(path));
}

/** The ground prefix of every `data…` reference under `node` (a bare `data` gives an empty path). */
function collectDataRefs(node: unknown, out: string[][]): void {
  if (node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const item of node) collectDataRefs(item, out);
    return;
  }
  const term = node as Term;
  if (term.type === 'var' && term.name === 'data') {
    out.push([]);
    return;
  }
  if (term.type === 'ref' && term.head.type === 'var' && term.head.name === 'data') {
    const path: string[] = [];
    for (const p of term.path) {
      if (p.type !== 'scalar' || typeof p.value !== 'string') break;
      path.push(p.value);
    }
    out.push(path);
    collectDataRefs(term.path, out);
    return;
  }
  for (const [key, value] of Object.entries(node)) if (key !== 'loc') collectDataRefs(value, out);
}
