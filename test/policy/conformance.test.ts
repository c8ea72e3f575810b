// OPA's Rego conformance suite against src/policy/rego: prints passed/failed per folder and fails when a case
// listed in conformance-must-pass.txt (the recorded baseline, written by scripts/conformance-baseline.ts)
// no longer passes, so the engine cannot regress while the list grows.

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import test from 'node:test';
import { findSuite, MUST_PASS_FILE, runSuite, summarise } from './conformance-runner.js';

test('OPA Rego v1 conformance: every case in the must-pass list passes', { timeout: 120_000 }, () => {
  const dir = findSuite();
  assert.ok(dir, 'OPA conformance cases not found: set WARDEN_OPA_CONFORMANCE to the folder holding index.json (shared/conformance/opa)');
  const results = runSuite(dir);
  console.log(summarise(results).join('\n'));
  assert.ok(existsSync(MUST_PASS_FILE), `missing ${MUST_PASS_FILE}: run node --import tsx scripts/conformance-baseline.ts`);
  const must = readFileSync(MUST_PASS_FILE, 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  const byId = new Map(results.map((r) => [r.id, r]));
  const regressions = must.filter((id) => !byId.get(id)?.pass).map((id) => `${id}: ${byId.get(id)?.detail ?? 'case not found'}`);
  assert.deepEqual(regressions, [], `${regressions.length} conformance cases regressed`);
  assert.ok(must.length > 1000, 'the must-pass list is implausibly short');
});
