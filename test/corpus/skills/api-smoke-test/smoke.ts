// Minimal smoke tester: GET each path in the spec and check status / JSON keys.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

interface Check { name: string; path: string; expect_status: number; expect_json_key?: string }
interface Spec { base_url: string; timeout_ms?: number; checks: Check[] }

const [specPath = 'smoke.yaml', ...flags] = process.argv.slice(2);
const spec = parse(readFileSync(specPath, 'utf8')) as Spec;
const base = new URL(spec.base_url);

if (!['localhost', '127.0.0.1', '[::1]'].includes(base.hostname) && !flags.includes('--allow-remote')) {
  console.error(`refusing non-local base_url ${base.origin}; pass --allow-remote if intended`);
  process.exit(2);
}

let failed = 0;
for (const check of spec.checks) {
  const started = performance.now();
  let line: string;
  try {
    const res = await fetch(new URL(check.path, base), { signal: AbortSignal.timeout(spec.timeout_ms ?? 3000) });
    const ms = Math.round(performance.now() - started);
    let ok = res.status === check.expect_status;
    if (ok && check.expect_json_key) {
      const body = (await res.json()) as Record<string, unknown>;
      ok = check.expect_json_key in body;
    }
    line = `${ok ? '✅' : '❌'} ${check.name}: ${res.status} in ${ms} ms`;
    if (!ok) failed++;
  } catch (err) {
    failed++;
    line = `❌ ${check.name}: ${(err as Error).message}`;
  }
  console.log(line);
}
process.exit(failed ? 1 : 0);
