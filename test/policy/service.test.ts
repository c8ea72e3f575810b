// The policy service beyond the module cases: policy_dir handling (the `rego` child, regular files only, size
// caps, data.json), evaluation budgets against a hostile operator module, and decisions that follow the
// enforcement lists passed in (the cache never answers for lists that changed).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { validateConfigObject } from '../../src/config/load.js';
import { WardenError } from '../../src/errors.js';
import { POLICY_LIMITS } from '../../src/policy/limits.js';
import { PolicyService, type EnforcementLists } from '../../src/policy/service.js';

const config = validateConfigObject({ config_version: 9 }, 'config.yaml');
const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const folder = (files: Record<string, string>) => {
  const dir = mkdtempSync(join(tmpdir(), 'warden-policy-svc-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
};
const refusedWith = (code: string) => (err: unknown) => err instanceof WardenError && err.code === code && err.statusCode === 400;

describe('policy service', () => {
  it('reads the rego child of policy_dir when it has one, else the folder', () => {
    const withChild = folder({ 'rego/a.rego': 'package a\n\nx := 1\n', 'b.rego': 'package b\n\nx := 2\n' });
    const service = new PolicyService(config, { policyDir: withChild });
    assert.equal(service.query('data.a.x'), 1);
    assert.equal(service.query('data.b.x'), undefined, 'the folder itself is not read when rego/ exists');
    const flat = folder({ 'b.rego': 'package b\n\nx := 2\n', 'data.json': '{"team": {"name": "platform"}}' });
    const second = new PolicyService(config, { policyDir: flat });
    assert.equal(second.query('data.b.x'), 2);
    assert.equal(second.query('data.team.name'), 'platform');
  });

  it('refuses links, oversized modules, bad data.json and a missing folder by name', () => {
    const linked = folder({ 'real.rego': 'package r\n' });
    symlinkSync(join(linked, 'real.rego'), join(linked, 'link.rego'));
    assert.throws(() => new PolicyService(config, { policyDir: linked }), refusedWith('WARDEN_ERR_POLICY_DIR'));
    const big = folder({ 'big.rego': `package big\n\n# ${'x'.repeat(POLICY_LIMITS.maxModuleBytes)}\n` });
    assert.throws(() => new PolicyService(config, { policyDir: big }), (err: unknown) => refusedWith('WARDEN_ERR_POLICY_DIR')(err) && /big\.rego is \d+ bytes/.test((err as Error).message));
    assert.throws(() => new PolicyService(config, { policyDir: folder({ 'data.json': '{nope' }) }), refusedWith('WARDEN_ERR_POLICY_DATA'));
    assert.throws(() => new PolicyService(config, { policyDir: folder({ 'data.json': '[1]' }) }), refusedWith('WARDEN_ERR_POLICY_DATA'));
    assert.throws(() => new PolicyService(config, { policyDir: join(tmpdir(), 'warden-no-such-policy-dir') }), refusedWith('WARDEN_ERR_POLICY_DIR'));
  });

  it('a module over its evaluation budget is an error, not a hang', () => {
    const hostile = folder({ 'spin.rego': 'package spin\n\nimport rego.v1\n\nn := count([x | some i in numbers.range(1, 10000000); x := i * i])\n' });
    const service = new PolicyService(config, { policyDir: hostile });
    const started = Date.now();
    assert.throws(() => service.query('data.spin.n'), (err: unknown) => err instanceof WardenError && err.code === 'WARDEN_ERR_POLICY_EVAL');
    assert.ok(Date.now() - started < 5000);
  });

  it('decides with the lists passed in, also for an input it decided before', () => {
    const service = new PolicyService(config, { policyDir: undefined });
    const input = { target_type: 'skill' as const, target_name: 'fmt', scan_result: { max_severity: 'NONE' } };
    assert.equal(service.evaluate('admission', input).verdict, 'clean');
    const lists: EnforcementLists = { skill: { denied: [{ name: 'fmt', reason: 'r' }], allowed: [] } };
    assert.equal(service.evaluate('admission', input, lists).verdict, 'blocked');
    assert.equal(service.evaluate('admission', input, { skill: { denied: [], allowed: [] } }).verdict, 'clean');
  });
});
