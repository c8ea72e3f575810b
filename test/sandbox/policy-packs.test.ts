// Sandbox packs as files: the shipped packs load and validate, an operator pack that cannot be loaded refuses
// the runs that use it (400 pack_invalid naming the file and key) and only those, digests follow content and not
// key order, a rebuilt resolver sees changed files (reload), and Explain shows run parameters without secrets.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Compile } from 'typebox/compile';
import { parse, stringify } from 'yaml';
import { ConfigError, parseConfig } from '../../src/config/load.js';
import { buildExplain } from '../../src/sandbox/policy/explain.js';
import { loadShippedPacks, profileSettings } from '../../src/sandbox/policy/files.js';
import { PackSchema } from '../../src/sandbox/policy/schema.js';
import { OPERATOR_PACK, policyHome, refusal, run } from './policy-helpers.js';

const SHIPPED_DIR = fileURLToPath(new URL('../../policies/sandbox/', import.meta.url));

describe('shipped sandbox packs', () => {
  it('are default, strict and permissive, each valid against the published schema', () => {
    assert.deepEqual(readdirSync(SHIPPED_DIR).sort(), ['default.yaml', 'permissive.yaml', 'strict.yaml']);
    const published = Compile(JSON.parse(readFileSync(fileURLToPath(new URL('../../docs/schemas/sandbox-pack.schema.json', import.meta.url)), 'utf8')));
    for (const file of readdirSync(SHIPPED_DIR)) {
      const raw: unknown = parse(readFileSync(join(SHIPPED_DIR, file), 'utf8'));
      assert.ok(published.Check(raw), `${file}: ${JSON.stringify(published.Errors(raw)[0])}`);
      assert.ok(Compile(PackSchema).Check(raw), file);
    }
    const packs = loadShippedPacks();
    assert.deepEqual(packs.map((p) => [p.name, p.source]), [['default', 'shipped'], ['permissive', 'shipped'], ['strict', 'shipped']]);
    for (const pack of packs) assert.match(pack.digest, /^sha256:[0-9a-f]{64}$/);
  });

  it('resolve with every profile, and differ where the docs say they do', () => {
    const policy = policyHome().policy();
    for (const pack of loadShippedPacks()) {
      for (const profile of ['default', ...Object.keys(pack.pack.profiles)]) {
        const resolved = policy.resolve(run({ pack: pack.name, profile }));
        assert.equal(resolved.profile, profile);
        assert.equal(resolved.network_mode, profileSettings(pack.pack, profile)!.network_mode);
      }
    }
    const modes = Object.fromEntries(['default', 'strict', 'permissive'].map((pack) => [pack, policy.resolve(run({ pack }))]));
    assert.deepEqual([modes.default!.network_mode, modes.strict!.network_mode, modes.permissive!.network_mode], ['policed', 'policed', 'open']);
    assert.deepEqual([modes.default!.approvals, modes.strict!.approvals], [true, false]);
    refusal(() => policy.resolve(run({ pack: 'strict', learn: true })), 'policy_violation');
    assert.equal(policy.resolve(run({ pack: 'permissive', learn: true, unmask: ['/etc/hosts'] })).effective.learn, true);
  });
});

describe('operator sandbox packs', () => {
  it('refuses a pack file with bad YAML as pack_invalid naming the file and line, and keeps the others working', () => {
    const home = policyHome({ 'packs/broken.yaml': 'description: x\nnetwork_mode: [policed\n' });
    const policy = home.policy('  packs: {broken: packs/broken.yaml}\n');
    const err = refusal(() => policy.resolve(run({ pack: 'broken' })), 'pack_invalid');
    assert.equal(err.code, 'WARDEN_ERR_SANDBOX_PACK_INVALID');
    assert.match(err.message, new RegExp(`^sandbox pack "broken" cannot be loaded: ${home.dir}/packs/broken\\.yaml:\\d+: invalid YAML: `));
    assert.equal(err.violation, 'pack:broken');
    assert.equal(policy.resolve(run()).pack, 'default', 'the shipped packs still resolve');
  });

  it('refuses a pack file with an unknown key, naming the file, line and dotted key', () => {
    const text = OPERATOR_PACK.replace('  cpu: {allowed: true, default: 1, max: 3}', '  cpu: {allowed: true, default: 1, maximum: 3}');
    const home = policyHome({ 'team.yaml': text });
    const err = refusal(() => home.policy('  packs: {team: team.yaml}\n').resolve(run({ pack: 'team' })), 'pack_invalid');
    assert.match(err.message, new RegExp(`${home.dir}/team\\.yaml:13: options\\.cpu\\.maximum: unknown key$`));
  });

  it('refuses an inline pack that misses an option or breaks its bounds, naming the config key', () => {
    const missing = parse(OPERATOR_PACK) as { options: Record<string, unknown> };
    delete missing.options.learn;
    const inline = (pack: unknown) => `  packs:\n    team: ${JSON.stringify(pack)}\n`;
    const err = refusal(() => policyHome().policy(inline(missing)).resolve(run({ pack: 'team' })), 'pack_invalid');
    assert.match(err.message, /config\.yaml openshell\.packs\.team: options: .*learn/);
    const above = parse(OPERATOR_PACK.replace('default: 1, max: 3', 'default: 4, max: 3'));
    assert.match(refusal(() => policyHome().policy(inline(above)).resolve(run({ pack: 'team' })), 'pack_invalid').message,
      /config\.yaml openshell\.packs\.team: options\.cpu\.default: 4 is above max 3/);
    const badProfile = { ...(parse(OPERATOR_PACK) as object), profiles: { wild: { description: 'w', options: { safe: { default: true }, yolo: { default: true } } } } };
    assert.match(refusal(() => policyHome().policy(inline(badProfile)).resolve(run({ pack: 'team' })), 'pack_invalid').message,
      /profiles\.wild\.options: safe\.default and yolo\.default cannot both be true/);
    const badName = { ...(parse(OPERATOR_PACK) as object), profiles: { 'Loud Name': { description: 'x' } } };
    assert.match(refusal(() => policyHome().policy(inline(badName)).resolve(run({ pack: 'team' })), 'pack_invalid').message,
      /config\.yaml openshell\.packs\.team: profiles\.Loud Name: unknown key$/);
    const redefined = { ...(parse(OPERATOR_PACK) as object), profiles: { default: { description: 'd' } } };
    assert.match(refusal(() => policyHome().policy(inline(redefined)).resolve(run({ pack: 'team' })), 'pack_invalid').message,
      /profiles\.default: is the pack itself/);
  });

  it('gives the same digest whatever the key order, and another one when a value changes', () => {
    const original = parse(OPERATOR_PACK) as Record<string, unknown>;
    const reordered = Object.fromEntries(Object.entries(original).reverse().map(([key, value]) => [
      key, value && typeof value === 'object' ? Object.fromEntries(Object.entries(value).reverse()) : value,
    ]));
    assert.notEqual(stringify(reordered), OPERATOR_PACK, 'the file really is written in another order');
    const home = policyHome({ 'a.yaml': OPERATOR_PACK, 'b.yaml': stringify(reordered) });
    const policy = home.policy(`  packs:\n    a: a.yaml\n    b: b.yaml\n    c: ${JSON.stringify(original)}\n`);
    const digests = ['a', 'b', 'c'].map((pack) => policy.resolve(run({ pack })).pack_digest);
    assert.match(digests[0]!, /^sha256:[0-9a-f]{64}$/);
    assert.deepEqual(new Set(digests).size, 1, digests.join(' '));
    home.write('a.yaml', OPERATOR_PACK.replace('max_items: 2', 'max_items: 3'));
    assert.notEqual(home.policy('  packs: {a: a.yaml}\n').resolve(run({ pack: 'a' })).pack_digest, digests[0], 'a rebuilt resolver reads the file again');
  });

  it('refuses a pack file over the size cap and one that is not a regular file', () => {
    const home = policyHome({ 'big.yaml': `${OPERATOR_PACK}# ${'x'.repeat(300 * 1024)}\n` });
    assert.match(refusal(() => home.policy('  packs: {big: big.yaml, dir: .}\n').resolve(run({ pack: 'big' })), 'pack_invalid').message,
      /big\.yaml: \d+ bytes, more than the 262144/);
    assert.match(refusal(() => home.policy('  packs: {dir: .}\n').resolve(run({ pack: 'dir' })), 'pack_invalid').message, /not a regular file/);
  });

  it('cannot be named like a shipped pack (config.yaml refuses it)', () => {
    assert.throws(
      () => parseConfig('config_version: 9\nopenshell:\n  packs: {strict: my-strict.yaml}\n', '/tmp/config.yaml'),
      (err) => err instanceof ConfigError && /openshell\.packs\.strict/.test(err.message),
    );
    assert.throws(() => parseConfig('config_version: 9\nopenshell:\n  admin_authority: maybe\n', '/tmp/config.yaml'), ConfigError);
  });
});

describe('sandbox policy explain', () => {
  it('answers the resolution with run parameters, naming withheld variables and credentials only', () => {
    const policy = policyHome().policy();
    const explain = buildExplain(policy.resolve(run({ pack: 'strict' })), {
        env: { EDITOR: 'vim' },
        env_withheld: ['OPENAI_API_KEY', 'OPENAI_API_KEY'],
        credentials: ['github', 'anthropic'],
        llm_profile: 'work',
        bedrock_region: 'eu-west-1',
    });
    assert.equal(explain.pack, 'strict');
    assert.equal(explain.pack_source, 'shipped');
    assert.match(explain.pack_digest, /^sha256:/);
    assert.equal(explain.vm_first_boot, false);
    assert.deepEqual(explain.admin, { configured: false, authority: 'advisory', detail: 'no administrator file (openshell.admin)' });
    assert.ok(explain.settings.some((s) => s.key === 'yolo' && s.source === 'pack'));
    assert.deepEqual(explain.run, {
      env: { EDITOR: 'vim' }, env_withheld: ['OPENAI_API_KEY'], credentials: ['anthropic', 'github'], llm_profile: 'work', bedrock_region: 'eu-west-1',
      first_boot: true,
    });
    assert.ok(!('effective' in explain));
    assert.equal(buildExplain(policy.resolve(run())).run, undefined);
  });

  it('reports the configured pack, profile and administrator status for GET /status', () => {
    const home = policyHome({ 'admin.yaml': 'forbid: [learn]\n' });
    const status = home.policy('  pack: strict\n  profile: airgap\n  admin: admin.yaml\n  admin_authority: authoritative\n').status();
    assert.equal(status.pack, 'strict');
    assert.equal(status.profile, 'airgap');
    assert.equal(status.admin.authority, 'authoritative');
    assert.deepEqual(status.packs, ['default', 'permissive', 'strict']);
  });
});
