// The config rules of the 8 → 9 migration (rules 1–4, 6, 7, 9, 11, 12, the version 8 keys no rule names, and
// the 7 → 8 conversion), over the fixture homes in fixtures/<case>/ that are not `file-*` (those are
// file-rules.test.ts's): every home runs through the real readHome and migrate() in the shared runner
// (fixture-homes.ts, where WARDEN_UPDATE_FIXTURES=1 rewrites the expectations); the tests below look closer at
// what each rule wrote, on the same inputs.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { LineCounter, parseDocument } from 'yaml';
import { parseConfig } from '../../src/config/load.js';
import { MigrationError } from '../../src/migration/errors.js';
import { restoreLayout } from '../../src/migration/layout.js';
import { migrate } from '../../src/migration/migrate.js';
import { BUILT_IN_ACTIONS, BUILT_IN_FIRST_PARTY } from '../../src/migration/rules/built-in-policy.js';
import type { MigrationInput, MigrationPlan, MigrationScope } from '../../src/migration/types.js';
import { convertV7 } from '../../src/migration/v8/from-v7.js';
import { validateV8 } from '../../src/migration/v8/validate.js';
import { FIXTURE_NAMES, FIXTURES, NOW, readFixture, runFixtureHomes, sha256 } from './fixture-homes.js';

const HOME = '/home/dev/.warden';

/** The config rules' fixture homes (the file rules' are `file-*`). */
const fixtures = FIXTURE_NAMES.filter((name) => !name.startsWith('file-'));
/** What readHome read from each fixture home, read once for the whole file. */
const inputs = new Map(await Promise.all(fixtures.map(async (name) => [name, await readFixture(name)] as const)));

/** The fixture's input (a copy: a test may change its files), with another config text when given. */
function inputOf(fixture: string, configText?: string): MigrationInput {
  const input = inputs.get(fixture)!;
  return { ...input, files: new Map(input.files), configText: configText ?? input.configText };
}

function expectError(fn: () => unknown, code: string, message?: RegExp): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof MigrationError, `expected a MigrationError, got ${String(err)}`);
    assert.equal(err.code, code);
    if (message) assert.match(err.message, message);
    return true;
  });
}

const plans = new Map<string, MigrationPlan>();
const planOf = (fixture: string) => {
  if (!plans.has(fixture)) plans.set(fixture, migrate(inputOf(fixture)));
  return plans.get(fixture)!;
};

runFixtureHomes(fixtures);


describe('rules', () => {
  it('rule 1: the built-in policy is admission.rego\'s', () => {
    const rego = readFileSync(fileURLToPath(new URL('../../policies/rego/admission.rego', import.meta.url)), 'utf8');
    for (const type of ['skill', 'mcp', 'plugin'] as const) {
      const actions = new RegExp(`^default_actions\\["${type}"\\] := (\\{.*\\})$`, 'm').exec(rego);
      assert.deepEqual(JSON.parse(actions![1]!), BUILT_IN_ACTIONS[type]);
      const firstParty = new RegExp(`^default_first_party\\["${type}"\\] := (\\[.*\\])$`, 'm').exec(rego);
      assert.deepEqual(JSON.parse(firstParty![1]!), BUILT_IN_FIRST_PARTY[type]);
    }
  });

  it('rule 1: a data.json equal to the built-in policy writes no admission block and still retires data.json', () => {
    const plan = planOf('thresholds-looser');
    assert.doesNotMatch(plan.configText, /admission/);
    assert.deepEqual(plan.operations, [{ op: 'rename', from: 'policies/rego/data.json', to: 'policies/rego/data.json.migrated-v9' }]);
  });

  it('rule 2: shorthand when a triple matches one, else the triple; all five severities of a differing type', () => {
    const config = parseConfig(planOf('admission-custom').configText, 'c');
    assert.deepEqual(config.admission.skill.actions, {
      CRITICAL: 'block',
      HIGH: 'quarantine',
      MEDIUM: { install: 'none', file: 'quarantine', runtime: 'enable' },
      LOW: 'warn',
      INFO: 'warn',
    });
    // The base HIGH action changed, so mcp (which has no HIGH override) differs too; plugin's own override restores it.
    assert.deepEqual(config.admission.mcp.actions, { CRITICAL: 'block', HIGH: 'quarantine', MEDIUM: 'block', LOW: 'warn', INFO: 'warn' });
    assert.deepEqual(config.admission.plugin.actions, {}, 'plugin equals the built-in policy: nothing written');
    assert.deepEqual(config.admission.skill.first_party_allow_list?.map((e) => e.name), ['codeguard', 'repo-janitor']);
    assert.equal(config.admission.plugin.first_party_allow_list, undefined, 'the plugin list is the built-in one');
  });

  it('rule 3: stricter written, equal noted, looser a conflict, config.yaml wins', () => {
    const stricter = planOf('thresholds-stricter');
    assert.equal(parseConfig(stricter.configText, 'c').guardrail.block_at, 'HIGH');
    assert.ok(stricter.record.notes.some((n) => /guardrail\.alert_at: .*equals the default rule pack's default/.test(n)));
    assert.ok(stricter.record.notes.includes('guardrail thresholds now apply alike to hook prompts, hook tool calls and the proxy'));

    const looser = planOf('thresholds-looser');
    assert.equal(parseConfig(looser.configText, 'c').guardrail.alert_at, undefined);
    assert.deepEqual(looser.record.conflicts.map((c) => [c.to, c.kept, c.lost]), [['guardrail.alert_at', 'MEDIUM', 'HIGH']]);

    const wins = planOf('thresholds-config-wins');
    const config = parseConfig(wins.configText, 'c');
    assert.equal(config.guardrail.alert_at, 'HIGH');
    assert.equal(config.guardrail.block_at, 'HIGH');
    assert.deepEqual(wins.record.conflicts.map((c) => [c.to, c.kept, c.lost]), [['guardrail.alert_at', 'HIGH', 'LOW']]);
    assert.match(wins.configText, /# Chosen by the team: alerts only from HIGH up\.\n {2}alert_at: HIGH\n/);
  });

  it('rule 4: customised action keys and the allow-list switch are conflicts; the enforced values stay', () => {
    const plan = planOf('removed-actions-conflict');
    assert.deepEqual(plan.record.conflicts.map((c) => [c.to, c.kept, c.lost]), [
      ['admission.skill.actions.HIGH', 'block', 'warn'],
      ['admission.plugin.actions.LOW', 'warn', 'quarantine'],
      ['admission.defaults.allow_list_bypass_scan', false, true],
    ]);
    const config = parseConfig(plan.configText, 'c');
    assert.equal(config.admission.defaults.allow_list_bypass_scan, false);
    for (const key of ['skill_actions', 'plugin_actions', 'watch.allow_list_bypass_scan']) assert.ok(plan.record.removed.includes(key), key);
  });

  it('rule 4 on a managed host: compared with the built-in default; data.json is not taken', () => {
    const plan = planOf('managed');
    assert.equal(plan.record.actor, 'lifecycle');
    assert.deepEqual(plan.record.conflicts.map((c) => [c.to, c.kept, c.lost]), [
      ['admission.mcp.actions.MEDIUM', 'block', 'warn'],
      ['admission.defaults.allow_list_bypass_scan', true, false],
    ]);
    const config = parseConfig(plan.configText, 'c');
    assert.deepEqual(config.admission.mcp.actions, {});
    assert.equal(config.guardrail.block_at, undefined, 'data.json\'s threshold is the lifecycle\'s');
    assert.equal(config.openshell.mode, 'standalone');
    assert.deepEqual(plan.operations, [], 'the lifecycle\'s data.json stays where it is');
  });

  it('rule 6: scanner keys, the inline analyzer key to .env (redacted in the record), judge_source', () => {
    const plan = planOf('scanners');
    const config = parseConfig(plan.configText, 'c');
    assert.equal(config.scanners.skill_scanner.policy, 'quiet');
    assert.deepEqual(config.scanners.skill_scanner.analyzers, { llm: { enabled: true }, behavioral: { enabled: true } });
    assert.deepEqual(config.scanners.mcp_scanner.analyzers, ['yara', 'llm', 'api']);
    assert.equal(config.judge_source, 'override');
    assert.deepEqual(plan.operations, [
      { op: 'env', name: 'CISCO_AI_DEFENSE_API_KEY', value: 'test-aidefense-key-0001' },
      { op: 'env', name: 'SKILL_SCANNER_LLM_API_KEY', value: 'test-llm-key-0002' },
    ]);
    const record = JSON.stringify(plan.record);
    assert.doesNotMatch(record, /test-aidefense-key-0001|test-llm-key-0002/);
    assert.ok(plan.record.moved.some((m) => m.from === 'cisco_ai_defense.api_key' && m.to === '.env:CISCO_AI_DEFENSE_API_KEY' && m.value === '<redacted>'));
    assert.doesNotMatch(plan.configText, /test-/);
  });

  it('rule 6: a policy file becomes custom with its digest; auto analyzers are the empty default; a different key in .env wins', () => {
    const plan = planOf('scanner-policy-file');
    const config = parseConfig(plan.configText, 'c');
    const bytes = readFileSync(join(FIXTURES, 'scanner-policy-file', 'home', 'scan-policy.yaml'));
    assert.deepEqual(config.scanners.skill_scanner.policy_file, { path: '/home/dev/.warden/scan-policy.yaml', digest: `sha256:${sha256(bytes)}` });
    assert.equal(config.scanners.skill_scanner.policy, 'custom');
    assert.deepEqual(config.scanners.mcp_scanner.analyzers, []);
    assert.doesNotMatch(plan.configText, /mcp_scanner/);
    assert.deepEqual(plan.operations, []);
    assert.deepEqual(plan.record.conflicts, [{ to: '.env:AI_GUARD_API_KEY', kept: '<redacted>', lost: '<redacted>', reason: 'cisco_ai_defense.api_key differs from AI_GUARD_API_KEY already in .env; the .env value is kept' }]);
  });

  it('rule 6: a key that would write more than one .env line stops the migration without showing it', () => {
    const text = 'config_version: 8\ncisco_ai_defense: {api_key: "k1\\nWARDEN_GATEWAY_TOKEN=evil", api_key_env: AI_GUARD_API_KEY}\n';
    expectError(() => migrate({ ...inputOf('scanners'), configText: text }), 'WARDEN_ERR_MIGRATION_SOURCE_INVALID', /^cisco_ai_defense\.api_key: the value holds a line break/);
    assert.throws(() => migrate({ ...inputOf('scanners'), configText: text }), (err: Error) => !err.message.includes('evil'));
    const badName = 'config_version: 8\ncisco_ai_defense: {api_key: k1, api_key_env: "A=B"}\n';
    expectError(() => migrate({ ...inputOf('scanners'), configText: badName }), 'WARDEN_ERR_MIGRATION_SOURCE_INVALID', /not a variable name/);
  });

  it('rule 6: a missing policy file stops the migration naming it', () => {
    const input = inputOf('scanner-policy-file');
    input.files.delete('scan-policy.yaml');
    expectError(() => migrate(input), 'WARDEN_ERR_MIGRATION_FILE_INVALID', /scan-policy\.yaml/);
  });

  it('rules 7 and 9: update_check and pinned signature packs', () => {
    const packs = parseConfig(planOf('signature-packs').configText, 'c');
    assert.deepEqual(packs.ai_discovery.signature_packs, ['signature-packs/cli.json', 'signature-packs/ide.yaml']);
    assert.match(packs.ai_discovery.signature_pack_digests['signature-packs/ide.yaml']!, /^sha256:[0-9a-f]{64}$/);
    assert.equal(packs.update.check, true);
    assert.equal(parseConfig(planOf('comments-order').configText, 'c').update.check, false);
  });

  it('rule 11: the overlay moves (and is retired), or stays live with request_overrides', () => {
    const moved = planOf('providers-overlay');
    const config = parseConfig(moved.configText, 'c');
    assert.deepEqual(config.llm_providers.custom, [
      { name: 'acme-llm', domains: ['llm.acme.example', 'llm.acme.example:8443'], base_url: 'https://llm.acme.example/v1' },
      { name: 'internal-vllm', domains: ['vllm.corp.example'] },
    ]);
    assert.deepEqual(config.llm_providers.ollama_ports, [11434, 11435]);
    assert.deepEqual(moved.operations, [{ op: 'rename', from: 'custom-providers.json', to: 'custom-providers.json.migrated-v9' }]);

    const live = planOf('providers-overlay-live');
    assert.deepEqual(live.operations, []);
    assert.deepEqual(parseConfig(live.configText, 'c').llm_providers.custom, []);
    assert.ok(live.record.notes.some((n) => /request_overrides.*left live/.test(n)));
  });

  it('rule 11: an overlay version 8 ignored (not JSON) is left in place with a note', () => {
    const input = inputOf('providers-overlay');
    input.files.set('custom-providers.json', { path: 'custom-providers.json', bytes: Buffer.from('{"providers": [') });
    const plan = migrate(input);
    assert.deepEqual(plan.operations, []);
    assert.ok(plan.record.notes.some((n) => n.startsWith('custom-providers.json was ignored by version 8')));
  });

  it('rule 12: unscannable MCP servers from the agents\' files, each with a fix command', () => {
    const plan = planOf('unscannable-mcp');
    assert.deepEqual(plan.record.unscannable_mcp.map((m) => [m.name, m.connector, m.command]), [
      ['db', 'codex', 'docker run -i --rm acme/db-mcp:1.2'],
      ['local-notes', 'cursor', 'node /opt/notes/server.js --api-key <redacted> --db=postgres://redacted@db.local/notes'],
      ['shell-tools', 'openclaw', '/usr/local/bin/shell-mcp'],
    ]);
    for (const entry of plan.record.unscannable_mcp) assert.match(entry.fix, /warden mcp scan ~\//);
    assert.doesNotMatch(JSON.stringify(plan.record), /test-notes-key|test-pw/);
  });

  it('version 8 asset_policy: entries kept with their comments; what has no home removed', () => {
    const plan = planOf('asset-policy');
    const config = parseConfig(plan.configText, 'c');
    assert.deepEqual(config.asset_policy.skill.allowed, [{ name: 'repo-janitor', reason: 'reviewed', source_path_contains: '/opt/acme/skills/' }]);
    assert.deepEqual(config.asset_policy.skill.denied, [{ name: 'crypto-miner', reason: 'malware' }]);
    assert.deepEqual(config.asset_policy.mcp.allowed, [{ name: 'github', connector: 'cursor', reason: 'approved' }]);
    assert.match(plan.configText, /# Approved after review SEC-114\./);
  });
});

describe('what no rule touches', () => {
  it('keeps comments, key order and layout', () => {
    const text = planOf('comments-order').configText;
    const source = inputOf('comments-order').configText;
    // Every kept line of the source is in the result, in the same order, byte for byte.
    const gone = /detection_strategy|^watch:|rescan_enabled|allow_list_bypass_scan|update_check|# Nightly rescans\./;
    assert.match(text, /config_version: 9\n\ngateway:\n/);
    assert.match(text, / {2}token_env: WARDEN_GATEWAY_TOKEN {3}# kept in \.env\n\nguardrail:\n/);
    const kept = source.split('\n').filter((line) => line !== '' && !gone.test(line)).map((l) => (l.startsWith('config_version') ? 'config_version: 9' : l));
    let at = 0;
    const lines = text.split('\n');
    for (const line of kept) {
      const found = lines.indexOf(line, at);
      assert.ok(found >= at, `line ${JSON.stringify(line)} kept in order`);
      at = found + 1;
    }
  });
});

describe('restoreLayout', () => {
  it('puts back the operator\'s in-line spacing, matching lines in order and by indentation', () => {
    const source = 'a:     1   # aligned\nb:\n  c:   2\nc:   2\n';
    assert.equal(restoreLayout(source, 'a: 1 # aligned\nb:\n  c: 2\nc: 2\nd: 3\n'), 'a:     1   # aligned\nb:\n  c:   2\nc:   2\nd: 3\n');
    // A line the printer wrote at another indentation, or a line of its own, is left as printed.
    assert.equal(restoreLayout(source, 'c: 2\n  a: 1 # aligned\n'), 'c:   2\n  a: 1 # aligned\n');
  });

  it('keeps the layout of a large file (2,000 list entries)', () => {
    const entries = Array.from({ length: 2000 }, (_, i) => `      - {name:  skill-${i}, reason:  r}`).join('\n');
    const text = `config_version: 8\nasset_policy:\n  skill:\n    denied:\n${entries}\n`;
    const plan = migrate({ home: HOME, scope: 'user', configText: text, files: new Map(), actionsRows: [], now: NOW });
    assert.ok(plan.configText.includes('      - {name:  skill-1999, reason:  r}'));
  });
});

describe('version gates and errors', () => {
  const v8 = 'config_version: 8\nguardrail:\n  connector: claudecode\n';
  const input = (configText: string, scope: MigrationScope = 'user'): MigrationInput => ({ home: HOME, scope, configText, files: new Map(), actionsRows: [], now: NOW });

  it('7 is converted, 8 migrated, 9 has nothing to do, 10 and 6 are refused', () => {
    assert.match(migrate(input(v8)).configText, /^config_version: 9$/m);
    assert.match(migrate(input(v8.replace('8', '7'))).configText, /^config_version: 9$/m);
    expectError(() => migrate(input(v8.replace('8', '9'))), 'WARDEN_ERR_MIGRATION_NOTHING_TO_DO', /nothing to migrate/);
    expectError(() => migrate(input(v8.replace('8', '10'))), 'WARDEN_ERR_MIGRATION_VERSION_UNSUPPORTED', /unsupported/);
    expectError(() => migrate(input(v8.replace('8', '6'))), 'WARDEN_ERR_MIGRATION_VERSION_UNSUPPORTED', /upgrade required/);
    expectError(() => migrate(input('guardrail: {}\n')), 'WARDEN_ERR_MIGRATION_VERSION_UNSUPPORTED', /no config_version/);
    expectError(() => migrate(input('config_version: "8"\n')), 'WARDEN_ERR_MIGRATION_VERSION_UNSUPPORTED', /integer/);
  });

  it('an unknown version 8 key is an error naming it and its line', () => {
    expectError(() => migrate(input(`${v8}  rule_pack_dri: /tmp/x\n`)), 'WARDEN_ERR_MIGRATION_SOURCE_INVALID', /line 4: unknown key "guardrail\.rule_pack_dri"/);
    expectError(() => migrate(input(`${v8}otel: {}\n`)), 'WARDEN_ERR_MIGRATION_SOURCE_INVALID', /unknown key "otel"/);
  });

  it('a result the version 9 loader rejects is refused', () => {
    expectError(() => migrate(input('config_version: 8\nguardrail:\n  port: 70000\n')), 'WARDEN_ERR_MIGRATION_RESULT_INVALID', /guardrail\.port/);
  });

  it('an openshell.mode version 9 does not know is removed with a note; standalone stays', () => {
    const plan = migrate(input('config_version: 8\nopenshell: {mode: local, binary: openshell}\n'));
    assert.doesNotMatch(plan.configText, /openshell/);
    assert.ok(plan.record.removed.includes('openshell.mode'));
    assert.ok(plan.record.notes.some((n) => n.startsWith('openshell.mode: "local"')));
  });

  it('a malformed data.json is named', () => {
    const bad = input(v8);
    bad.files.set('policies/rego/data.json', { path: 'policies/rego/data.json', bytes: Buffer.from('{"actions": ') });
    expectError(() => migrate(bad), 'WARDEN_ERR_MIGRATION_FILE_INVALID', /policies\/rego\/data\.json is not valid JSON/);
  });

  it('a client-managed profile is left unchanged', () => {
    expectError(() => migrate(input(v8, 'client-managed')), 'WARDEN_ERR_MIGRATION_CLIENT_MANAGED');
  });
});

describe('7 → 8', () => {
  it('moves the legacy observability keys and the inline Splunk token, giving a valid version 8 file', () => {
    const lines = new LineCounter();
    const doc = parseDocument(inputOf('from-v7').configText, { lineCounter: lines });
    const { operations } = convertV7(doc);
    const v8 = validateV8(doc.toJS(), doc, lines);
    assert.equal(v8.config_version, 8);
    assert.deepEqual(v8.observability?.local, { path: '~/.warden/audit.db', judge_bodies_path: '~/.warden/judge_bodies.db' });
    assert.deepEqual(v8.observability?.destinations?.map((d) => [d.name, d.kind]), [['corp', 'otlp'], ['splunk', 'splunk_hec']]);
    assert.deepEqual(operations, [{ op: 'env', name: 'WARDEN_SPLUNK_HEC_TOKEN', value: 'test-hec-token-0005' }]);
    assert.doesNotMatch(doc.toString(), /test-hec-token/);
    assert.match(doc.toString(), /^# A version 7 workstation\./);
  });
});
