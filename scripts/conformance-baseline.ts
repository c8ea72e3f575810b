// Records the OPA conformance cases the Rego engine passes today into test/policy/conformance-must-pass.txt
// (one `<folder>#<index>` per line), the baseline the conformance test holds the engine to. Run it after
// making more cases pass: node --import tsx scripts/conformance-baseline.ts

import { writeFileSync } from 'node:fs';
import { findSuite, MUST_PASS_FILE, runSuite, summarise } from '../test/policy/conformance-runner.js';

const dir = findSuite();
if (!dir) {
  console.error('OPA conformance cases not found: set WARDEN_OPA_CONFORMANCE to the folder holding index.json');
  process.exit(1);
}
const results = runSuite(dir);
const passing = results.filter((r) => r.pass).map((r) => r.id);
writeFileSync(MUST_PASS_FILE, '# OPA conformance cases that must pass (written by scripts/conformance-baseline.ts)\n' + passing.join('\n') + '\n');
console.log(summarise(results).slice(-4).join('\n'));
console.log(`${passing.length} case ids written to ${MUST_PASS_FILE}`);
