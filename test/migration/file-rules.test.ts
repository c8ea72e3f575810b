// The migration's file rules (5: rule packs, 8: audit.db actions rows, 10: pre-9 Rego modules) and readHome.
// The fixture homes `test/migration/fixtures/file-*/` (each: `home/`, `case.json` with the scope or the expected
// error, `actions.sql` building audit.db, and the expected `config.yaml`, `migration-v9.json`, `operations.json`
// and `written/` files) run through the real readHome and migrate() in the shared runner (fixture-homes.ts;
// WARDEN_UPDATE_FIXTURES=1 rewrites the expectations, each diff then reviewed by hand). Cases that need generated
// or unusual homes (a merge over 2,048 rules, a symlink out of the home, a file over the size limit) build them here.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { parseDocument, stringify } from 'yaml';
import { InspectionEngine } from '../../src/guardrail/engine.js';
import { extractFacts } from '../../src/guardrail/facts/index.js';
import { Inspector } from '../../src/guardrail/inspector.js';
import { loadRulePack } from '../../src/guardrail/rules/load.js';
import { parseModule } from '../../src/policy/rego/parser.js';
import { MIGRATION_LIMITS } from '../../src/migration/limits.js';
import { migrate } from '../../src/migration/migrate.js';
import { packDigest } from '../../src/guardrail/rules/pack-digest.js';
import { readHome } from '../../src/migration/read-home.js';
import { readsForeignData } from '../../src/migration/rules/rego-modules.js';
import type { FileOperation } from '../../src/migration/types.js';
import { WardenError } from '../../src/errors.js';
import { copyFixtureHome, FIXTURE_NAMES, FIXTURES, NOW, runFixtureHomes, sha256 } from './fixture-homes.js';

const temps: string[] = [];
after(() => temps.forEach((d) => rmSync(d, { recursive: true, force: true })));

const cases = FIXTURE_NAMES.filter((name) => name.startsWith('file-'));
/** A user's home folder without agent configurations, so no test reads the real one. */
const NO_AGENTS = mkdtempSync(join(tmpdir(), 'warden-migb-user-'));
temps.push(NO_AGENTS);

/** Write the plan's write and rename operations into the home, as the apply step would. */
function applyOperations(home: string, operations: FileOperation[]): void {
  for (const op of operations) {
    if (op.op === 'write') {
      mkdirSync(dirname(join(home, op.path)), { recursive: true });
      writeFileSync(join(home, op.path), op.bytes);
    } else if (op.op === 'rename') {
      cpSync(join(home, op.from), join(home, op.to));
      rmSync(join(home, op.from));
    }
  }
}

const SHIPPED_REGO = join(import.meta.dirname, '../../policies/rego');

test('there are the fixture homes this part promises, and 25 in all', () => {
  assert.ok(cases.length >= 10, `only ${cases.length} file-* fixtures`);
  assert.ok(FIXTURE_NAMES.length >= 25, `only ${FIXTURE_NAMES.length} fixture homes`);
});

runFixtureHomes(cases);

describe('rule 5: the rebased pack works in Warden', () => {
  test('the <folder>-1.0 copy loads, its digest pins its files, and literal rules decide on parsed tool calls', async () => {
    const home = copyFixtureHome('file-custom-rebase').home;
    const result = migrate(await readHome(home, 'user', NOW, NO_AGENTS));
    applyOperations(home, result.operations);
    const pack = loadRulePack('acme-1.0', [join(home, 'policies/guardrail')]);
    assert.deepEqual(pack.lineage, ['default', 'acme-1.0']);

    const folder = join(home, 'policies/guardrail/acme-1.0');
    const onDisk = readdirSync(folder).map((f) => ({ path: f, bytes: readFileSync(join(folder, f)) }));
    const pinned = parseDocument(result.configText).getIn(['custom_packs', 'acme-1.0', 'digest']);
    assert.equal(pinned, packDigest(onDisk));

    const engine = new InspectionEngine(pack);
    const ids = (command: string) => engine.scanToolCall(`Bash\n${command}`, extractFacts('Bash', { command })).map((f) => f.rule.id);
    assert.ok(ids('cd infra && terraform   destroy -auto-approve').includes('CMD-ACME-TF-DESTROY'), 'the expression sees the parsed command');
    assert.ok(ids('kubectl delete ns payments').includes('CMD-ACME-KUBECTL-DELETE-NS'));
    assert.ok(ids('cat ~/.VAULT-TOKEN').includes('PATH-ACME-VAULT-TOKEN'));
    assert.ok(!ids('terraform plan').includes('CMD-ACME-TF-DESTROY'));
    // A rule left without an expression reports on tool calls without blocking; in a prompt it still blocks.
    const key = `acme_${'0123456789abcdef'.repeat(2)}`;
    const thresholds = { mode: 'action', blockAt: 'CRITICAL', alertAt: 'MEDIUM', hiltEnabled: false, hiltMinSeverity: 'HIGH' } as const;
    const inspector = new Inspector(engine, thresholds);
    const onToolCall = inspector.tool('Bash', { command: `curl -H "X-Key: ${key}" https://api.acme.example` });
    assert.ok(onToolCall.findings.some((f) => f.rule.id === 'SECRET-ACME-KEY' && f.detectionOnly));
    assert.equal(onToolCall.verdict.action, 'alert');
    const inPrompt = inspector.text(`here is the key ${key}`);
    assert.equal(inPrompt.verdict.action, 'block');
  });

  test('a custom pack digest follows the documented canonical form', () => {
    const folder = join(FIXTURES, 'file-v9-pack/home/policies/guardrail/payments');
    const lines = readdirSync(folder).sort().map((f) => `${f}\0${sha256(readFileSync(join(folder, f)))}\n`).join('');
    const config = parseDocument(readFileSync(join(FIXTURES, 'file-v9-pack/config.yaml'), 'utf8'));
    assert.equal(config.getIn(['custom_packs', 'payments', 'digest']), `sha256:${sha256(lines)}`);
    assert.equal(config.getIn(['custom_packs', 'payments', 'path']), 'policies/guardrail/payments');
  });

  test('an edited built-in rule replaces the shipped one in the copy', async () => {
    const home = copyFixtureHome('file-edited-builtin-clash').home;
    const result = migrate(await readHome(home, 'user', NOW, NO_AGENTS));
    applyOperations(home, result.operations);
    const pack = loadRulePack('team-1.0', [join(home, 'policies/guardrail')]);
    const byId = new Map(pack.rules.map((r) => [r.id, r]));
    assert.equal(byId.get('CMD-CURL-PIPE-SHELL')!.enabled, false);
    assert.equal(byId.get('CUSTOM-CMD-CURL-PIPE-SHELL-2')!.severity, 'HIGH');
    assert.equal(byId.get('PATH-DOTENV-FILE')!.enabled, false);
    assert.equal(byId.get('CMD-GIT-NO-VERIFY')!.builtin, true, 'an unedited built-in comes from the shipped pack');
  });

  test(`a category merged over ${MIGRATION_LIMITS.maxRulesPerMergedFile} rules stops the migration naming the pack`, async () => {
    const home = mkdtempSync(join(tmpdir(), 'warden-migb-'));
    temps.push(home);
    writeFileSync(join(home, 'config.yaml'), 'config_version: 8\nguardrail:\n  rule_pack_dir: policies/guardrail/huge\n');
    const dir = join(home, 'policies/guardrail/huge');
    mkdirSync(dir, { recursive: true });
    const file = (from: number, count: number) => stringify({
      rules: Array.from({ length: count }, (_, i) => ({
        id: `CMD-HUGE-${from + i}`, category: 'command', severity: 'LOW', pattern: `tool-${from + i}\\s+--go`,
      })),
    });
    writeFileSync(join(dir, 'a.yaml'), file(0, 1500));
    writeFileSync(join(dir, 'b.yaml'), file(1500, 549));
    const input = await readHome(home, 'user', NOW, NO_AGENTS);
    assert.throws(() => migrate(input), (err: unknown) => {
      assert.ok(err instanceof WardenError);
      assert.equal(err.code, 'WARDEN_ERR_MIGRATION_RULE_MERGE_UNSAFE');
      assert.match(err.message, /policies\/guardrail\/huge: merging the command rules of a\.yaml, b\.yaml gives 2049 rules/);
      return true;
    });
    // One rule fewer is exactly the limit: it merges.
    writeFileSync(join(dir, 'b.yaml'), file(1500, 548));
    const merged = migrate(await readHome(home, 'user', NOW, NO_AGENTS));
    assert.deepEqual(merged.record.rule_file_merges, [{ pack: 'policies/guardrail/huge', category: 'command', into: 'a.yaml', from: ['b.yaml'], rules: 2048 }]);
  });

  test('an existing <folder>-1.0 is not overwritten', async () => {
    const home = copyFixtureHome('file-custom-rebase').home;
    mkdirSync(join(home, 'policies/guardrail/acme-1.0'));
    writeFileSync(join(home, 'policies/guardrail/acme-1.0/pack.yaml'), 'name: acme-1.0\n');
    const input = await readHome(home, 'user', NOW, NO_AGENTS);
    assert.throws(() => migrate(input), { code: 'WARDEN_ERR_MIGRATION_RULE_MERGE_UNSAFE' });
  });
});

describe('readHome', () => {
  test('refuses a symlink that leads out of the home, and follows none', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'warden-migb-outside-'));
    temps.push(outside);
    writeFileSync(join(outside, 'rules.yaml'), 'rules: []\n');
    const home = copyFixtureHome('file-custom-rebase').home;
    symlinkSync(join(outside, 'rules.yaml'), join(home, 'policies/guardrail/acme/stolen.yaml'));
    await assert.rejects(readHome(home, 'user', NOW, NO_AGENTS), (err: unknown) => {
      assert.ok(err instanceof WardenError);
      assert.equal(err.code, 'WARDEN_ERR_MIGRATION_HOME_UNREADABLE');
      assert.match(err.message, /policies\/guardrail\/acme\/stolen\.yaml: a symlink leads out of the data home/);
      return true;
    });

    const home2 = copyFixtureHome('file-rego-pre9').home;
    rmSync(join(home2, 'policies/rego'), { recursive: true });
    symlinkSync(outside, join(home2, 'policies/rego'));
    await assert.rejects(readHome(home2, 'user', NOW, NO_AGENTS), { code: 'WARDEN_ERR_MIGRATION_HOME_UNREADABLE' });
  });

  test('follows a symlink that stays inside the home', async () => {
    const home = copyFixtureHome('file-rego-pre9').home;
    symlinkSync(join(home, 'policies/rego/data.json'), join(home, 'custom-providers.json'));
    const input = await readHome(home, 'user', NOW, NO_AGENTS);
    assert.ok(input.files.get('custom-providers.json')!.bytes.equals(readFileSync(join(home, 'policies/rego/data.json'))));
  });

  test('reads config.yaml exactly, the files the rules need, and audit.db rows without writing to it', async () => {
    const home = copyFixtureHome('file-audit-actions').home;
    writeFileSync(join(home, '.env'), 'WARDEN_LLM_KEY=sk-test\n');
    mkdirSync(join(home, 'signature-packs'));
    writeFileSync(join(home, 'signature-packs/corp.json'), '{"signatures":[]}');
    const before = readFileSync(join(home, 'audit.db'));
    const input = await readHome(home, 'user', NOW, NO_AGENTS);
    assert.equal(input.configText, readFileSync(join(home, 'config.yaml'), 'utf8'));
    assert.deepEqual([...input.files.keys()].sort(), ['.env', 'signature-packs/corp.json']);
    assert.equal(input.actionsRows.length, 13);
    assert.deepEqual(input.actionsRows[2], {
      id: 3, target_type: 'tool', target_name: '@claudecode/WebFetch', action: 'block', reason: 'no web fetches from this laptop',
      row: { id: 3, target_type: 'tool', target_name: '@claudecode/WebFetch', source_path: null, action: 'block',
        reason: 'no web fetches from this laptop', actor: 'dev', updated_at: '2026-01-04T10:00:00Z' },
    });
    assert.ok(readFileSync(join(home, 'audit.db')).equals(before), 'audit.db is opened read-only');
  });

  test('stops at a file over the size limit, naming it', async () => {
    const home = copyFixtureHome('file-rego-pre9').home;
    writeFileSync(join(home, 'policies/rego/data.json'), Buffer.alloc(MIGRATION_LIMITS.maxFileBytes + 1, 0x20));
    await assert.rejects(readHome(home, 'user', NOW, NO_AGENTS), /policies\/rego\/data\.json: \d+ bytes, over the migration's limit/);
  });
});

describe('rule 10: what counts as a pre-9 module', () => {
  const pre9 = (source: string) => readsForeignData(parseModule('m.rego', source));
  test('own package and data.warden are version 9; anything else in data is not', () => {
    assert.equal(pre9('package acme.p\nx := data.acme.p.y'), false);
    assert.equal(pre9('package acme.p\nx := data.warden.config.admission'), false);
    assert.equal(pre9('package acme.p\nx := data.acme.other'), true);
    assert.equal(pre9('package acme.p\nx := data'), true);
    assert.equal(pre9('package acme.p\nimport data.guardrail\nx := guardrail.block_threshold'), true);
    assert.equal(pre9('package acme.p\nx := data[k]'), true);
    for (const file of readdirSync(SHIPPED_REGO).filter((f) => f.endsWith('.rego'))) {
      assert.equal(readsForeignData(parseModule(file, readFileSync(join(SHIPPED_REGO, file), 'utf8'))), false, `shipped ${file} is version 9`);
    }
  });
});
