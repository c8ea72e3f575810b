// Sandbox policy resolution: each precedence step (default < pack < profile < user config < flag < admin clamp)
// with its source and origin, clamping with the requested value, and each refusal with its code and message.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HOST, OPERATOR_PACK, policyHome, refusal, run, setting } from './policy-helpers.js';

describe('sandbox policy precedence', () => {
  it('uses the built-in default pack and its own profile when nothing is configured', () => {
    const resolved = policyHome().policy().resolve(run());
    assert.equal(resolved.pack, 'default');
    assert.equal(resolved.pack_source, 'shipped');
    assert.equal(resolved.profile, 'default');
    assert.deepEqual(setting(resolved.settings, 'pack'), { key: 'pack', value: 'default', source: 'default', origin: 'built-in' });
    assert.deepEqual(setting(resolved.settings, 'profile'), { key: 'profile', value: 'default', source: 'default', origin: 'built-in' });
    assert.equal(resolved.network_mode, 'policed');
    assert.equal(resolved.approvals, true);
    assert.deepEqual(setting(resolved.settings, 'cpu'), {
      key: 'cpu', value: 2, source: 'pack', origin: 'policies/sandbox/default.yaml options.cpu.default',
    });
    assert.deepEqual(setting(resolved.settings, 'context'), { key: 'context', value: [], source: 'default', origin: 'built-in' });
    assert.deepEqual(resolved.effective, {
      copy: false, safe: false, yolo: false, no_mcp: false, learn: false, context: [], unmask: [], host_ports: [], cpu: 2, memory: '4g',
    });
    assert.deepEqual(resolved.violations, []);
    assert.deepEqual(resolved.warnings, []);
  });

  it('takes the pack from config.yaml, and a flag over it', () => {
    const policy = policyHome().policy('  pack: strict\n');
    const configured = policy.resolve(run());
    assert.equal(configured.pack, 'strict');
    assert.deepEqual(setting(configured.settings, 'pack'), { key: 'pack', value: 'strict', source: 'user', origin: 'config.yaml openshell.pack' });
    assert.equal(configured.approvals, false);
    assert.equal(setting(configured.settings, 'no_mcp').value, true);
    assert.equal(policy.resolve(run({ pack: '', profile: '' })).pack, 'strict', 'an empty name is no ask');
    const flagged = policy.resolve(run({ pack: 'permissive' }));
    assert.deepEqual(setting(flagged.settings, 'pack'), { key: 'pack', value: 'permissive', source: 'flag', origin: '--pack' });
    assert.equal(flagged.network_mode, 'open');
    assert.equal(setting(flagged.settings, 'cpu').value, null, 'permissive sets no limit');
    assert.equal(setting(flagged.settings, 'cpu').source, 'default');
    assert.equal(flagged.effective.cpu, undefined);
  });

  it('applies a profile over its pack, naming the profile in the origin of what it changes', () => {
    const policy = policyHome().policy('  profile: offline\n');
    const offline = policy.resolve(run());
    assert.equal(offline.profile, 'offline');
    assert.deepEqual(setting(offline.settings, 'profile'), { key: 'profile', value: 'offline', source: 'user', origin: 'config.yaml openshell.profile' });
    assert.deepEqual(setting(offline.settings, 'network_mode'), {
      key: 'network_mode', value: 'none', source: 'pack', origin: 'policies/sandbox/default.yaml profiles.offline.network_mode',
    });
    assert.equal(setting(offline.settings, 'cpu').origin, 'policies/sandbox/default.yaml options.cpu.default', 'unchanged by the profile');
    const review = policy.resolve(run({ profile: 'review' }));
    assert.deepEqual(setting(review.settings, 'profile'), { key: 'profile', value: 'review', source: 'flag', origin: '--profile' });
    assert.equal(review.network_mode, 'policed');
    assert.deepEqual(setting(review.settings, 'safe'), {
      key: 'safe', value: true, source: 'pack', origin: 'policies/sandbox/default.yaml profiles.review.options.safe.default',
    });
    refusal(() => policy.resolve(run({ profile: 'review', yolo: true })), 'policy_violation');
  });

  it('puts user config defaults over the profile and flags over user config', () => {
    const policy = policyHome().policy('  profile: review\n  defaults: {cpu: 3, no_mcp: false, context: [/srv/docs]}\n');
    const resolved = policy.resolve(run());
    assert.deepEqual(setting(resolved.settings, 'cpu'), { key: 'cpu', value: 3, source: 'user', origin: 'config.yaml openshell.defaults.cpu' });
    assert.deepEqual(setting(resolved.settings, 'no_mcp'), { key: 'no_mcp', value: false, source: 'user', origin: 'config.yaml openshell.defaults.no_mcp' });
    assert.deepEqual(setting(resolved.settings, 'context').value, ['/srv/docs']);
    const flagged = policy.resolve(run({ cpu: 1.5, no_mcp: true, context: [] }));
    assert.deepEqual(setting(flagged.settings, 'cpu'), { key: 'cpu', value: 1.5, source: 'flag', origin: '--cpu' });
    assert.deepEqual(setting(flagged.settings, 'no_mcp'), { key: 'no_mcp', value: true, source: 'flag', origin: '--no-mcp' });
    assert.deepEqual(setting(flagged.settings, 'context'), { key: 'context', value: [], source: 'flag', origin: '--context' });
  });

  it('leaves out a user config value the pack does not allow, as a violation and a warning', () => {
    const resolved = policyHome().policy('  pack: strict\n  defaults: {yolo: true, host_ports: [3000]}\n').resolve(run());
    assert.deepEqual(setting(resolved.settings, 'yolo'), {
      key: 'yolo', value: false, source: 'pack', origin: 'policies/sandbox/strict.yaml options.yolo.default', requested: true,
    });
    assert.deepEqual(resolved.effective.host_ports, []);
    assert.deepEqual(resolved.violations.map((v) => [v.key, v.requested, v.value]), [['yolo', true, false], ['host_ports', [3000], []]]);
    assert.match(resolved.violations[0]!.reason, /pack strict does not allow yolo/);
    assert.equal(resolved.warnings.length, 2);
    assert.match(resolved.warnings[0]!, /^config\.yaml openshell\.defaults\.yolo is not used/);
  });

  it('puts an authoritative administrator clamp over everything, keeping the requested value', () => {
    const home = policyHome({ 'admin.yaml': 'description: Acme IT\nmax: {cpu: 1, memory: 2g}\nnetwork_mode: policed\n' });
    const policy = home.policy('  admin: admin.yaml\n  admin_authority: authoritative\n  pack: permissive\n  defaults: {cpu: 3}\n');
    const resolved = policy.resolve(run({ memory: '8g' }));
    const adminPath = `${home.dir}/admin.yaml`;
    assert.deepEqual(setting(resolved.settings, 'cpu'), { key: 'cpu', value: 1, source: 'admin', origin: adminPath, requested: 3 });
    assert.deepEqual(setting(resolved.settings, 'memory'), { key: 'memory', value: '2g', source: 'admin', origin: adminPath, requested: '8g' });
    assert.deepEqual(setting(resolved.settings, 'network_mode'), { key: 'network_mode', value: 'policed', source: 'admin', origin: adminPath, requested: 'open' });
    assert.equal(resolved.network_mode, 'policed');
    assert.deepEqual(resolved.effective.cpu, 1);
    assert.deepEqual(resolved.violations.map((v) => [v.key, v.requested, v.value]), [
      ['network_mode', 'open', 'policed'], ['cpu', 3, 1], ['memory', '8g', '2g'],
    ]);
    assert.equal(resolved.admin.configured, true);
    assert.equal(resolved.admin.authority, 'authoritative');
    assert.match(resolved.admin.detail, /admin\.yaml \(sha256:[0-9a-f]{64}\): Acme IT$/);
  });

  it('lets a network mode stricter than the administrator ceiling stand', () => {
    const home = policyHome({ 'admin.yaml': 'network_mode: policed\n' });
    const resolved = home.policy('  admin: admin.yaml\n  admin_authority: authoritative\n').resolve(run({ pack: 'strict', profile: 'airgap' }));
    assert.equal(resolved.network_mode, 'none');
    assert.equal(setting(resolved.settings, 'network_mode').source, 'pack');
    assert.deepEqual(resolved.violations, []);
  });
});

describe('sandbox policy clamping', () => {
  it('clamps a CPU or memory ask above the pack maximum and reports it', () => {
    const resolved = policyHome().policy().resolve(run({ cpu: 12, memory: '32g' }));
    assert.deepEqual(setting(resolved.settings, 'cpu'), {
      key: 'cpu', value: 8, source: 'pack', origin: 'policies/sandbox/default.yaml options.cpu.max', requested: 12,
    });
    assert.deepEqual(setting(resolved.settings, 'memory'), {
      key: 'memory', value: '16g', source: 'pack', origin: 'policies/sandbox/default.yaml options.memory.max', requested: '32g',
    });
    assert.deepEqual(resolved.violations, [
      { key: 'cpu', requested: 12, value: 8, reason: 'pack default allows at most 8 cpu' },
      { key: 'memory', requested: '32g', value: '16g', reason: 'pack default allows at most 16g memory' },
    ]);
  });

  it('lowers a limit above what the machine has (source gateway), keeping the original ask', () => {
    const resolved = policyHome().policy().resolve(run({ pack: 'permissive', cpu: 64, memory: '128g' }));
    assert.deepEqual(setting(resolved.settings, 'cpu'), { key: 'cpu', value: HOST.cpus, source: 'gateway', origin: 'host CPUs', requested: 64 });
    assert.deepEqual(setting(resolved.settings, 'memory'), { key: 'memory', value: `${HOST.memoryMiB}m`, source: 'gateway', origin: 'host memory', requested: '128g' });
    assert.deepEqual(resolved.violations, [], 'the machine size is not a policy');
    assert.equal(resolved.warnings.length, 2);
  });

  it('clamps a pack value the administrator forbids or requires, and an unlimited value to its maximum', () => {
    const home = policyHome({ 'admin.yaml': 'forbid: [yolo]\nrequire: [copy]\nmax: {cpu: 4}\n' });
    const resolved = home.policy('  admin: admin.yaml\n  admin_authority: authoritative\n').resolve(run({ pack: 'permissive', profile: 'yolo' }));
    assert.equal(resolved.yolo, false);
    assert.deepEqual(setting(resolved.settings, 'yolo'), { key: 'yolo', value: false, source: 'admin', origin: `${home.dir}/admin.yaml`, requested: true });
    assert.equal(resolved.effective.copy, true);
    assert.equal(setting(resolved.settings, 'copy').source, 'admin');
    assert.deepEqual(setting(resolved.settings, 'cpu'), { key: 'cpu', value: 4, source: 'admin', origin: `${home.dir}/admin.yaml`, requested: null });
  });

  it('replaces a configured pack the administrator does not list with the first one it lists', () => {
    const home = policyHome({ 'admin.yaml': 'packs: [strict, default]\n' });
    const resolved = home.policy('  admin: admin.yaml\n  admin_authority: authoritative\n  pack: permissive\n').resolve(run());
    assert.equal(resolved.pack, 'strict');
    assert.deepEqual(setting(resolved.settings, 'pack'), { key: 'pack', value: 'strict', source: 'admin', origin: `${home.dir}/admin.yaml`, requested: 'permissive' });
  });

  it('turns yolo off where safe mode comes from the pack or config, with a violation', () => {
    const resolved = policyHome().policy('  defaults: {safe: true}\n').resolve(run({ pack: 'permissive', profile: 'yolo' }));
    assert.equal(resolved.yolo, false);
    assert.equal(resolved.effective.safe, true);
    assert.deepEqual(resolved.violations.map((v) => v.key), ['yolo']);
  });
});

describe('sandbox policy refusals', () => {
  it('refuses a flag the pack does not allow with 403 policy_violation', () => {
    const policy = policyHome().policy();
    const yolo = refusal(() => policy.resolve(run({ pack: 'strict', yolo: true })), 'policy_violation');
    assert.equal(yolo.code, 'WARDEN_ERR_SANDBOX_POLICY_VIOLATION');
    assert.equal(yolo.message, '--yolo: pack strict does not allow yolo other than false');
    assert.equal(yolo.violation, 'pack:strict/options.yolo');
    assert.equal(policy.resolve(run({ pack: 'strict', yolo: false })).yolo, false, 'the pack\'s own value is no violation');
    assert.match(refusal(() => policy.resolve(run({ unmask: ['/home/me/.ssh'] })), 'policy_violation').message, /^--unmask: pack default does not allow unmask$/);
    assert.match(refusal(() => policy.resolve(run({ host_ports: [22] })), 'policy_violation').message, /allows host ports 1024-65535 only, not 22/);
    const many = Array.from({ length: 9 }, (_, i) => `/srv/${i}`);
    assert.match(refusal(() => policy.resolve(run({ context: many })), 'policy_violation').message, /at most 8 context, not 9/);
    assert.match(refusal(() => policy.resolve(run({ safe: true, yolo: true })), 'policy_violation').message, /exclude each other/);
    assert.match(refusal(() => policy.resolve(run({ memory: '4 gigs' })), 'policy_violation').message, /is not <n>m or <n>g/);
  });

  it('refuses what an authoritative administrator forbids with 403 admin_violation and the organization wording', () => {
    const home = policyHome({ 'admin.yaml': 'forbid: [yolo, host_ports]\nrequire: [no_mcp]\npacks: [default, strict]\nmax: {context: 1}\n' });
    const policy = home.policy('  admin: admin.yaml\n  admin_authority: authoritative\n');
    const yolo = refusal(() => policy.resolve(run({ yolo: true })), 'admin_violation');
    assert.equal(yolo.code, 'WARDEN_ERR_SANDBOX_ADMIN_VIOLATION');
    assert.equal(yolo.message, "blocked by your organization's policy: yolo is forbidden");
    assert.equal(yolo.violation, 'admin:forbid.yolo');
    for (const options of [{ host_ports: [3000] }, { no_mcp: false }, { pack: 'permissive' }, { context: ['/a', '/b'] }]) {
      const err = refusal(() => policy.resolve(run(options)), 'admin_violation');
      assert.ok(err.message.startsWith("blocked by your organization's policy"), err.message);
    }
    const allowed = policy.resolve(run({ context: ['/a'] }));
    assert.equal(allowed.effective.no_mcp, true);
    assert.deepEqual(allowed.effective.context, ['/a']);
  });

  it('only reports what an advisory administrator would refuse or clamp', () => {
    const home = policyHome({ 'admin.yaml': 'forbid: [yolo]\nmax: {cpu: 1}\n' });
    const resolved = home.policy('  admin: admin.yaml\n').resolve(run({ yolo: true, cpu: 2 }));
    assert.equal(resolved.admin.authority, 'advisory');
    assert.equal(resolved.yolo, true);
    assert.deepEqual(setting(resolved.settings, 'yolo'), { key: 'yolo', value: true, source: 'flag', origin: '--yolo' });
    assert.equal(resolved.effective.cpu, 2);
    assert.deepEqual(resolved.violations, [
      { key: 'yolo', requested: true, value: false, reason: 'advisory, not enforced: yolo is forbidden' },
      { key: 'cpu', requested: 2, value: 1, reason: 'advisory, not enforced: at most 1 cpu is allowed, not 2' },
    ]);
    assert.equal(resolved.warnings.length, 2);
    assert.match(resolved.warnings[0]!, /would change yolo \(advisory, not enforced\)/);
  });

  it('refuses every run when an authoritative administrator file cannot be used, and warns when advisory', () => {
    const home = policyHome({ 'admin.yaml': 'forbid: [yolo]\nmaximum: {cpu: 1}\n' });
    const err = refusal(() => home.policy('  admin: admin.yaml\n  admin_authority: authoritative\n').resolve(run()), 'admin_violation');
    assert.match(err.message, /^blocked by your organization's policy: the administrator file cannot be used: .*admin\.yaml:2: maximum: unknown key$/);
    const missing = refusal(() => home.policy('  admin: nowhere.yaml\n  admin_authority: authoritative\n').resolve(run()), 'admin_violation');
    assert.match(missing.message, /nowhere\.yaml: cannot read: ENOENT/);
    const advisory = home.policy('  admin: admin.yaml\n').resolve(run({ yolo: true }));
    assert.equal(advisory.yolo, true);
    assert.match(advisory.warnings[0]!, /administrator file cannot be used \(advisory, ignored\)/);
    assert.match(advisory.admin.detail, /^cannot be used: /);
  });

  it('refuses an unknown pack or profile with 400 pack_invalid', () => {
    const policy = policyHome().policy();
    assert.match(refusal(() => policy.resolve(run({ pack: 'nope' })), 'pack_invalid').message,
      /^no sandbox pack named "nope" \(packs: default, permissive, strict\)$/);
    assert.match(refusal(() => policy.resolve(run({ pack: 'strict', profile: 'offline' })), 'pack_invalid').message,
      /^sandbox pack "strict" has no profile "offline" \(profiles: default, airgap\)$/);
  });

  it('falls back to the pack itself when the configured profile is not in the pack a flag chose', () => {
    const resolved = policyHome().policy('  profile: offline\n').resolve(run({ pack: 'strict' }));
    assert.equal(resolved.profile, 'default');
    assert.equal(setting(resolved.settings, 'profile').requested, 'offline');
    assert.match(resolved.warnings[0]!, /not a profile of pack strict/);
  });

  it('applies an operator pack within its own bounds', () => {
    const home = policyHome({ 'packs/team.yaml': OPERATOR_PACK });
    const policy = home.policy('  packs: {team: packs/team.yaml}\n  pack: team\n');
    const resolved = policy.resolve(run({ host_ports: [3000] }));
    assert.equal(resolved.pack, 'team');
    assert.equal(resolved.pack_source, `${home.dir}/packs/team.yaml`);
    assert.equal(setting(resolved.settings, 'approvals').origin, `${home.dir}/packs/team.yaml approvals`);
    assert.match(refusal(() => policy.resolve(run({ memory: '2g' })), 'policy_violation').message, /does not allow another memory limit than 1g/);
    assert.match(refusal(() => policy.resolve(run({ host_ports: [4000] })), 'policy_violation').message, /3000-3999 only, not 4000/);
  });
});
