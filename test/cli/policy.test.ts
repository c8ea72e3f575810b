// `warden policy eval|test|reload` as the built CLI (dist/cli/warden.js): eval builds the policy as the gateway
// does (config.yaml overrides, policy_dir), test runs an operator's test_ rules as `opa test` does, reload asks
// the running gateway and reports a refused module with its code.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { runCli, startInProcess, type InProcessGateway } from '../helpers/gateway.js';
import { EPHEMERAL_CONFIG, tempHome } from '../helpers/home.js';

const PASSING = `package team_test

import rego.v1

test_high_skill_rejected if {
	data.warden.admission.decision.verdict == "rejected" with input as {"target_type": "skill", "target_name": "s", "scan_result": {"max_severity": "HIGH"}}
}

test_owner if data.team.owner == "platform"
`;

describe('warden policy', () => {
  const cleanup: (() => void)[] = [];
  after(() => cleanup.forEach((f) => f()));
  const folder = (files: Record<string, string>) => {
    const dir = mkdtempSync(join(tmpdir(), 'warden-policy-cli-'));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    return dir;
  };

  test('eval prints the decision, with config.yaml overrides and policy_dir applied', async () => {
    const dir = folder({ 'team.rego': 'package team\n\nimport rego.v1\n\nowner := "platform"\n' });
    const home = tempHome(`${EPHEMERAL_CONFIG}policy_dir: ${JSON.stringify(dir)}\nadmission:\n  mcp:\n    actions:\n      LOW: block\n`);
    cleanup.push(home.remove);
    const input = JSON.stringify({ target_type: 'mcp', target_name: 'm', scan_result: { max_severity: 'LOW' } });
    const run = await runCli(['policy', 'eval', 'data.warden.admission.decision', '--input', '-'], home.env, input);
    assert.equal(run.code, 0, run.stderr);
    assert.equal((JSON.parse(run.stdout) as { verdict: string }).verdict, 'rejected');
    const owner = await runCli(['policy', 'eval', 'data.team.owner'], home.env);
    assert.equal(owner.stdout.trim(), '"platform"');
    const missing = await runCli(['policy', 'eval', 'data.team.nothing'], home.env);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /undefined/);
    const badInput = await runCli(['policy', 'eval', 'data.team.owner', '--input', '-'], home.env, 'not json');
    assert.equal(badInput.code, 1);
    assert.match(badInput.stderr, /\(WARDEN_ERR_POLICY_INPUT\)/);
  });

  test('test runs the test_ rules and fails on a failing or erroring one', async () => {
    const home = tempHome();
    cleanup.push(home.remove);
    const good = folder({ 'team.rego': 'package team\n\nimport rego.v1\n\nowner := "platform"\n', 'team_test.rego': PASSING });
    const pass = await runCli(['policy', 'test', good], home.env);
    assert.equal(pass.code, 0, pass.stdout + pass.stderr);
    assert.match(pass.stdout, /data\.team_test\.test_high_skill_rejected: PASS/);
    assert.match(pass.stdout, /PASS: 2\/2/);

    const bad = folder({ 'x_test.rego': 'package x_test\n\nimport rego.v1\n\ntest_wrong if 1 == 2\n\ntest_right if true\n' });
    const fail = await runCli(['policy', 'test', bad], home.env);
    assert.equal(fail.code, 1);
    assert.match(fail.stdout, /data\.x_test\.test_wrong: FAIL/);
    assert.match(fail.stdout, /FAIL: 1\/2/);

    const broken = folder({ 'y_test.rego': 'package y_test\n\ntest_x if {\n' });
    const refused = await runCli(['policy', 'test', broken], home.env);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /y_test\.rego:\d+:\d+: rego_parse_error.*\(WARDEN_ERR_POLICY_COMPILE\)/);
  });

  test('reload asks the running gateway; a bad module is refused and reported', async () => {
    const dir = folder({ 'team.rego': 'package team\n\nimport rego.v1\n\nowner := "platform"\n' });
    const gw = await startInProcess(`${EPHEMERAL_CONFIG}policy_dir: ${JSON.stringify(dir)}\n`);
    try {
      await reloadThroughCli(gw, dir);
    } finally {
      await gw.close();
    }
  });
});

async function reloadThroughCli(gw: InProcessGateway, dir: string): Promise<void> {
  const ok = await runCli(['policy', 'reload'], gw.home.env);
  assert.equal(ok.code, 0, ok.stderr);
  assert.equal(ok.stdout.trim(), `policy reloaded from ${dir}`);
  writeFileSync(join(dir, 'bad.rego'), 'package bad\n\nx := \n');
  const bad = await runCli(['policy', 'reload'], gw.home.env);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /reload refused, the running policy stays: .*bad\.rego:\d+:\d+: rego_parse_error.*\(WARDEN_ERR_POLICY_COMPILE\)/);
}
