// Runs OPA's Rego conformance cases against src/policy/rego, as OPA's own topdown test does (see the README
// beside the cases): compile the modules as Rego v1, load data and input, evaluate the query, compare the
// solutions as a set of binding objects, or the error's text and code. Shared by the conformance test and
// scripts/conformance-baseline.ts. The cases are not copied here: they are found on disk (findSuite).

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RegoError, RegoPolicy, compare, fromJSON, keyOfValue, parseValue, toJSON, type Value } from '../../src/policy/rego/index.js';

interface Case {
  note: string;
  query: string;
  modules?: string[];
  data?: unknown;
  input?: unknown;
  input_term?: string;
  want_result?: Record<string, unknown>[];
  want_error?: string;
  want_error_code?: string;
  strict_error?: boolean;
  sort_bindings?: boolean;
  ignore_generated_vars?: boolean;
}

export interface CaseResult {
  id: string;
  folder: string;
  tier: string;
  pass: boolean;
  detail?: string;
}

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** $WARDEN_OPA_CONFORMANCE, else shared/conformance/opa in an ancestor of the repository, else this machine's copy. */
export function findSuite(): string | undefined {
  const env = process.env.WARDEN_OPA_CONFORMANCE;
  if (env) return existsSync(join(env, 'index.json')) ? env : undefined;
  for (let dir = repoRoot; ; dir = dirname(dir)) {
    const candidate = join(dir, 'shared/conformance/opa');
    if (existsSync(join(candidate, 'index.json'))) return candidate;
    if (dirname(dir) === dir) break;
  }
  const fallback = '/work/shared/conformance/opa';
  return existsSync(join(fallback, 'index.json')) ? fallback : undefined;
}

/** JSON with integers past 2^53 kept exact (as bigint), through the reviver's access to the source text. */
function parseLossless(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown, context?: { source?: string }) => {
    if (typeof value === 'number' && !Number.isSafeInteger(value) && context?.source && /^-?\d+$/.test(context.source)) return BigInt(context.source);
    return value;
  });
}

function normalise(bindings: Map<string, Value> | Record<string, unknown>, sortArrays: boolean, dropGenerated: boolean): string {
  const entries = bindings instanceof Map ? [...bindings.entries()].map(([k, v]) => [k, fromJSON(toJSON(v))] as const) : Object.entries(bindings).map(([k, v]) => [k, fromJSON(v)] as const);
  const obj = new Map<string, Value>();
  for (const [k, v] of entries) {
    if (dropGenerated && k.startsWith('__')) continue;
    obj.set(k, sortArrays && Array.isArray(v) ? [...v].sort(compare) : v);
  }
  return [...obj.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([k, v]) => `${k}=${keyOfValue(v)}`).join(';');
}

export function runCase(c: Case): { pass: boolean; detail?: string } {
  const wantsError = c.want_error !== undefined || c.want_error_code !== undefined;
  try {
    const policy = RegoPolicy.compile(
      (c.modules ?? []).map((source, i) => ({ file: `test-${i}.rego`, source })),
      c.data ?? {},
    );
    const input = c.input_term !== undefined ? parseValue(c.input_term) : c.input !== undefined ? fromJSON(c.input) : undefined;
    const solutions = policy.query(c.query, { ...(input !== undefined ? { input } : {}), strictBuiltinErrors: c.strict_error === true, limits: { maxMillis: 2000 } });
    if (wantsError) return { pass: false, detail: `want error ${c.want_error_code ?? ''} ${c.want_error ?? ''}, got ${solutions.length} solutions` };
    const sortArrays = c.sort_bindings === true;
    const got = [...new Set(solutions.map((s) => normalise(s, sortArrays, c.ignore_generated_vars === true)))].sort();
    const want = [...new Set((c.want_result ?? []).map((s) => normalise(s, sortArrays, false)))].sort();
    const pass = got.length === want.length && got.every((g, i) => g === want[i]);
    return pass ? { pass } : { pass, detail: `got ${JSON.stringify(got).slice(0, 400)} want ${JSON.stringify(want).slice(0, 400)}` };
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    if (!wantsError) return { pass: false, detail: `error: ${msg}` };
    const code = err instanceof RegoError ? err.code : '';
    const okCode = c.want_error_code === undefined || code === c.want_error_code;
    const okText = c.want_error === undefined || msg.includes(c.want_error);
    return okCode && okText ? { pass: true } : { pass: false, detail: `error ${msg} (code ${code}); want ${c.want_error_code ?? ''} ${c.want_error ?? ''}` };
  }
}

export function runSuite(dir: string, only?: (folder: string) => boolean): CaseResult[] {
  const index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as { folders: Record<string, { tier: string }> };
  const out: CaseResult[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'index.json').sort()) {
    const folder = file.slice(0, -5);
    if (only && !only(folder)) continue;
    const cases = parseLossless(readFileSync(join(dir, file), 'utf8')) as Case[];
    cases.forEach((c, i) => {
      const r = runCase(c);
      out.push({ id: `${folder}#${i}`, folder, tier: index.folders[folder]?.tier ?? '?', ...r });
    });
  }
  return out;
}

/** passed/total per folder and tier, as printable lines. */
export function summarise(results: CaseResult[]): string[] {
  const by = new Map<string, { pass: number; total: number; tier: string }>();
  const tiers = new Map<string, { pass: number; total: number }>();
  for (const r of results) {
    const f = by.get(r.folder) ?? { pass: 0, total: 0, tier: r.tier };
    f.total++;
    if (r.pass) f.pass++;
    by.set(r.folder, f);
    const t = tiers.get(r.tier) ?? { pass: 0, total: 0 };
    t.total++;
    if (r.pass) t.pass++;
    tiers.set(r.tier, t);
  }
  const pass = results.filter((r) => r.pass).length;
  const lines = [...by.entries()].map(([k, v]) => `${k.padEnd(36)} ${v.tier.padEnd(11)} ${v.pass}/${v.total}`);
  for (const [k, v] of tiers) lines.push(`tier ${k}: ${v.pass}/${v.total} (${((100 * v.pass) / v.total).toFixed(1)} %)`);
  lines.push(`total: ${pass}/${results.length} (${((100 * pass) / results.length).toFixed(1)} %)`);
  return lines;
}

export const MUST_PASS_FILE = join(repoRoot, 'test/policy/conformance-must-pass.txt');
