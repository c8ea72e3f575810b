import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { rewriteMatches } from '../../src/guardrail/rules/expression.js';
import { loadRulePack, RulePackError } from '../../src/guardrail/rules/load.js';
import { RULE_CATEGORIES } from '../../src/guardrail/rules/schema.js';

describe('shipped rule packs', () => {
  it('default loads with at least 150 enabled rules in all seven categories', () => {
    const pack = loadRulePack('default');
    const enabled = pack.rules.filter((r) => r.enabled);
    assert.ok(enabled.length >= 150, `${enabled.length} enabled rules`);
    assert.deepEqual(new Set(enabled.map((r) => r.category)), new Set(RULE_CATEGORIES));
    assert.ok(pack.rules.every((r) => r.builtin));
  });

  it('strict extends default with extra rules and raised severities', () => {
    const strict = loadRulePack('strict');
    const base = loadRulePack('default');
    assert.deepEqual(strict.lineage, ['default', 'strict']);
    assert.ok(strict.rules.length > base.rules.length);
    assert.equal(strict.rules.find((r) => r.id === 'SECRET-JWT')?.severity, 'HIGH');
  });

  it('permissive disables noisy rules of default', () => {
    const permissive = loadRulePack('permissive');
    assert.ok(permissive.rules.some((r) => !r.enabled));
    assert.equal(permissive.rules.length, loadRulePack('default').rules.length);
  });
});

describe('rule pack errors name the file, the rule and the reason', () => {
  const root = mkdtempSync(join(tmpdir(), 'warden-packs-'));
  after(() => rmSync(root, { recursive: true, force: true }));
  let n = 0;
  const pack = (files: Record<string, string>, manifest = '') => {
    const name = `p${++n}`;
    mkdirSync(join(root, name));
    writeFileSync(join(root, name, 'pack.yaml'), `name: ${name}\n${manifest}`);
    for (const [file, text] of Object.entries(files)) writeFileSync(join(root, name, file), text);
    return name;
  };
  const rule = (extra: string) =>
    `rules:\n  - id: CMD-TEST-ONE\n    title: test\n    category: command\n    severity: HIGH\n    confidence: 0.9\n${extra}`;
  const fails = (name: string, message: RegExp) =>
    assert.throws(() => loadRulePack(name, [root]), (err: Error) => err instanceof RulePackError && message.test(err.message));

  it('a pattern RE2 cannot compile (lookahead)', () => {
    const name = pack({ 'a.yaml': rule("    patterns: ['foo(?=bar)']\n") });
    fails(name, new RegExp(`${name}/a\\.yaml: rule CMD-TEST-ONE: pattern 1 is not a valid RE2 expression`));
  });

  it('a field of the wrong kind or an unknown field', () => {
    fails(pack({ 'a.yaml': rule("    patterns: ['x']\n    severity_level: 3\n") }), /a\.yaml: rule CMD-TEST-ONE: severity_level: unknown field/);
    fails(pack({ 'a.yaml': rule("    patterns: ['x']\n").replace('HIGH', 'SEVERE') }), /a\.yaml: rule CMD-TEST-ONE: severity/);
    fails(pack({ 'a.yaml': rule('    patterns: []\n') }), /a\.yaml: rule CMD-TEST-ONE: patterns/);
    // A rule without an id is named by its position in the file.
    fails(pack({ 'a.yaml': `${rule("    patterns: ['x']\n")}  - title: second\n` }), /a\.yaml: rule #2: /);
  });

  it('an expression that does not compile', () => {
    fails(pack({ 'a.yaml': rule("    patterns: ['x']\n    expression: 'commands.exists(c, '\n") }), /a\.yaml: rule CMD-TEST-ONE: expression:/);
  });

  it('a duplicate id across files', () => {
    const one = rule("    patterns: ['x']\n");
    fails(pack({ 'a.yaml': one, 'b.yaml': one }), /b\.yaml: rule CMD-TEST-ONE: duplicate id \(also in .*a\.yaml\)/);
  });

  it('an unknown id in disable or severity_overrides, and an extends cycle', () => {
    fails(pack({ 'a.yaml': rule("    patterns: ['x']\n") }, 'disable: [CMD-NOPE-X]\n'), /pack\.yaml: disable: unknown rule CMD-NOPE-X/);
    fails(pack({}, 'severity_overrides: {CMD-NOPE-X: LOW}\n'), /severity_overrides: unknown rule CMD-NOPE-X/);
    const name = `p${n + 1}`;
    fails(pack({}, `extends: ${name}\n`), /extends itself/);
  });

  it('operator packs are not built in, so their titles stay out of reasons', () => {
    const name = pack({ 'a.yaml': rule("    patterns: ['x']\n") });
    assert.equal(loadRulePack(name, [root]).rules[0]!.builtin, false);
  });
});

describe('expression rewriting', () => {
  it('routes matches() to RE2 but leaves string literals alone', () => {
    assert.equal(rewriteMatches('a.matches("x") || matches(b, "y")'), 'a.re2matches("x") || re2matches(b, "y")');
    assert.equal(rewriteMatches('a == "matches(" && b.rematches("z")'), 'a == "matches(" && b.rematches("z")');
  });
});

describe('operator packs', () => {
  it('live in a custom folder and may extend a shipped pack, which they cannot shadow', () => {
    const root = mkdtempSync(join(tmpdir(), 'warden-custom-'));
    try {
      mkdirSync(join(root, 'team'));
      writeFileSync(join(root, 'team', 'pack.yaml'), 'name: team\nextends: default\ndisable: [SECRET-JWT]\n');
      writeFileSync(join(root, 'team', 'extra.yaml'),
        "rules:\n  - id: CMD-TEAM-DEPLOY\n    title: deploy\n    category: command\n    severity: HIGH\n    confidence: 0.8\n    patterns: ['\\bmake deploy\\b']\n");
      const pack = loadRulePack('team', [root]);
      assert.deepEqual(pack.lineage, ['default', 'team']);
      assert.equal(pack.rules.find((r) => r.id === 'SECRET-JWT')?.enabled, false);
      const own = pack.rules.find((r) => r.id === 'CMD-TEAM-DEPLOY')!;
      assert.equal(own.builtin, false);
      assert.ok(pack.rules.find((r) => r.id === 'SECRET-JWT')!.builtin);
      assert.throws(() => loadRulePack('nosuch', [root]), /rule pack "nosuch" not found/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
