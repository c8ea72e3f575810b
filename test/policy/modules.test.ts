// The shipped Rego modules (policies/rego/) against the table of cases in cases/modules.json: each case gives
// the operator's admission settings (`config`, as config.yaml's `admission` section), the operator's data for
// the domain (`data`, written to a policy_dir data.json under data.warden.config.<domain>), the enforcement
// lists, the input, and the expected decision (every field given must equal; `null`: no decision).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { validateConfigObject } from '../../src/config/load.js';
import { WardenError } from '../../src/errors.js';
import { PolicyService, type EnforcementLists, type PolicyDomain } from '../../src/policy/service.js';

interface Case { name: string; config?: object; data?: object; lists?: EnforcementLists; input: never; expect: Record<string, unknown> | null }
const cases = JSON.parse(readFileSync(new URL('./cases/modules.json', import.meta.url), 'utf8')) as Record<PolicyDomain, Case[]>;

function serviceFor(domain: PolicyDomain, c: Case): PolicyService {
  const config = validateConfigObject({ config_version: 9, admission: c.config ?? {} }, 'config.yaml');
  let policyDir: string | undefined;
  if (c.data) {
    policyDir = mkdtempSync(join(tmpdir(), 'warden-policy-case-'));
    writeFileSync(join(policyDir, 'data.json'), JSON.stringify({ warden: { config: { [domain]: c.data } } }));
  }
  return new PolicyService(config, { policyDir });
}

for (const [domain, table] of Object.entries(cases) as [PolicyDomain, Case[]][]) {
  describe(`policies/rego ${domain}`, () => {
    for (const c of table) {
      it(c.name, () => {
        const service = serviceFor(domain, c);
        if (c.expect === null) {
          assert.throws(() => service.evaluate(domain, c.input, c.lists), (err: unknown) => err instanceof WardenError && err.code === 'WARDEN_ERR_POLICY_UNDEFINED');
          return;
        }
        const decision = service.evaluate(domain, c.input, c.lists) as unknown as Record<string, unknown>;
        for (const [field, value] of Object.entries(c.expect)) assert.deepEqual(decision[field], value, `${field} of ${JSON.stringify(decision)}`);
      });
    }
  });
}
