// The migration's file rules (5: rule packs, 8: audit.db actions rows, 10: pre-9 Rego modules) and readHome,
// run over the fixture homes `test/migration/fixtures/file-*/` (each: `home/`, `case.json` with the scope or
// the expected error, `actions.sql` building audit.db, and the expected `config.yaml`, `migration-v9.json`,
// `operations.json` and `written/` files). Until migrate() is merged, the plan is built here the way
// migrate() frames the rules: the document, the record, config_version 9 (not on a client-managed profile),
// the hashes. Cases that need generated or unusual homes (a merge over 2,048 rules, a symlink out of the home,
// a file over the size limit) build them in the test. UPDATE_MIGRATION_FIXTURES=1 rewrites the expected files
// from the current code: for regenerating after a deliberate change, each diff then reviewed by hand.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { parseDocument, stringify } from 'yaml';
import { InspectionEngine } from '../../src/guardrail/engine.js';
import { extractFacts } from '../../src/guardrail/facts/index.js';
import { Inspector } from '../../src/guardrail/inspector.js';
import { loadRulePack } from '../../src/guardrail/rules/load.js';
import { parseModule } from '../../src/policy/rego/parser.js';
import { MIGRATION_LIMITS } from '../../src/migration/limits.js';
import { packDigest } from '../../src/migration/pack-digest.js';
import { readHome } from '../../src/migration/read-home.js';
import { auditActionsRule } from '../../src/migration/rules/audit-actions.js';
import { readsForeignData, regoModulesRule } from '../../src/migration/rules/rego-modules.js';
import { rulePacksRule } from '../../src/migration/rules/rule-packs.js';
import type { FileOperation, MigrationInput, MigrationPlan, MigrationRecord, MigrationScope } from '../../src/migration/types.js';
import { WardenError } from '../../src/errors.js';

const FIXTURES = join(import.meta.dirname, 'fixtures');
const NOW = new Date('2026-11-20T12:00:00.000Z');
const UPDATE = process.env.UPDATE_MIGRATION_FIXTURES === '1';
const temps: string[] = [];
after(() => temps.forEach((d) => rmSync(d, { recursive: true, force: true })));

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/** The rules this engineer owns, in the spec's order. */
const FILE_RULES = [rulePacksRule, auditActionsRule, regoModulesRule];

function emptyRecord(input: MigrationInput): MigrationRecord {
  return {
    schema_version: 1, from_version: 8, to_version: 9, migrated_at: input.now.toISOString(),
    actor: input.scope === 'managed' ? 'lifecycle' : 'migration',
    source_sha256: sha256(input.configText), result_sha256: '',
    moved: [], conflicts: [], removed: [], actions_rows_moved: 0, actions_rows_ignored: 0, notes: [],
    renamed_rules: [], expressed_rules: [], detection_only_rules: [], rule_file_merges: [], rule_pack_rebase_failures: [],
    unenforced_rego_data: [], unscannable_mcp: [], acknowledged: false,
  };
}

/** The plan migrate() would give when only the file rules change anything. */
function plan(input: MigrationInput): MigrationPlan {
  const doc = parseDocument(input.configText);
  const ctx = { input, doc, record: emptyRecord(input), operations: [] as FileOperation[] };
  if (input.scope !== 'client-managed') doc.set('config_version', 9);
  for (const rule of FILE_RULES) rule(ctx);
  const configText = input.scope === 'client-managed' && ctx.operations.length === 0 && doc.toString() === parseDocument(input.configText).toString()
    ? input.configText
    : doc.toString();
  ctx.record.result_sha256 = sha256(configText);
  return { configText, record: ctx.record, operations: ctx.operations };
}

/** A temp copy of a fixture home, with audit.db built from the case's actions.sql. */
function homeOf(caseDir: string): string {
  const home = mkdtempSync(join(tmpdir(), 'warden-migb-'));
  temps.push(home);
  cpSync(join(caseDir, 'home'), home, { recursive: true });
  const sql = join(caseDir, 'actions.sql');
  if (existsSync(sql)) {
    const db = new Database(join(home, 'audit.db'));
    db.exec(readFileSync(sql, 'utf8'));
    db.close();
  }
  return home;
}

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

/** Operations as stored in operations.json: writes name their expected bytes (written/<path>, or a shipped module). */
function describeOperations(operations: FileOperation[]): unknown[] {
  return operations.map((op) => {
    if (op.op !== 'write') return op;
    const shipped = join(SHIPPED_REGO, op.path.replace(/^policies\/rego\//, ''));
    if (op.path.startsWith('policies/rego/') && existsSync(shipped) && readFileSync(shipped).equals(op.bytes)) {
      return { op: 'write', path: op.path, shipped: `policies/rego/${op.path.slice('policies/rego/'.length)}` };
    }
    return { op: 'write', path: op.path, sha256: sha256(op.bytes) };
  });
}

const cases = readdirSync(FIXTURES).filter((name) => name.startsWith('file-')).sort();

describe('file rules over the fixture homes', () => {
  test('there are the fixture homes this part promises', () => {
    assert.ok(cases.length >= 10, `only ${cases.length} file-* fixtures`);
  });

  for (const name of cases) {
    test(name, async () => {
      const caseDir = join(FIXTURES, name);
      const spec = JSON.parse(readFileSync(join(caseDir, 'case.json'), 'utf8')) as { scope: MigrationScope; error?: { code: string; message: string } };
      const input = await readHome(homeOf(caseDir), spec.scope, NOW);
      if (spec.error) {
        assert.throws(() => plan(input), (err: unknown) => {
          assert.ok(err instanceof WardenError);
          assert.equal(err.code, spec.error!.code);
          assert.ok(err.message.includes(spec.error!.message), err.message);
          return true;
        });
        return;
      }
      const result = plan(input);
      const operations = describeOperations(result.operations);
      const record = JSON.stringify(result.record, null, 2) + '\n';
      if (UPDATE) {
        writeFileSync(join(caseDir, 'config.yaml'), result.configText);
        writeFileSync(join(caseDir, 'migration-v9.json'), record);
        writeFileSync(join(caseDir, 'operations.json'), JSON.stringify(operations, null, 2) + '\n');
        rmSync(join(caseDir, 'written'), { recursive: true, force: true });
        for (const op of result.operations) {
          if (op.op === 'write' && !('shipped' in (operations[result.operations.indexOf(op)] as object))) {
            mkdirSync(dirname(join(caseDir, 'written', op.path)), { recursive: true });
            writeFileSync(join(caseDir, 'written', op.path), op.bytes);
          }
        }
      }
      assert.equal(result.configText, readFileSync(join(caseDir, 'config.yaml'), 'utf8'));
      assert.deepEqual(JSON.parse(record), JSON.parse(readFileSync(join(caseDir, 'migration-v9.json'), 'utf8')));
      assert.deepEqual(operations, JSON.parse(readFileSync(join(caseDir, 'operations.json'), 'utf8')));
      for (const op of result.operations) {
        if (op.op !== 'write') continue;
        const expected = (operations[result.operations.indexOf(op)] as { shipped?: string }).shipped
          ? readFileSync(join(SHIPPED_REGO, op.path.slice('policies/rego/'.length)))
          : readFileSync(join(caseDir, 'written', op.path));
        assert.ok(op.bytes.equals(expected), `${op.path} differs from the expected bytes`);
      }

      // Idempotence: the migrated file, migrated again with the same home, changes nothing more.
      const again = plan({ ...input, configText: result.configText });
      assert.equal(again.configText, result.configText);
      assert.deepEqual(again.operations.filter((op) => op.op === 'write' && !op.path.startsWith('policies/rego/')), []);
    });
  }
});

describe('rule 5: the rebased pack works in Warden', () => {
  test('the <folder>-1.0 copy loads, its digest pins its files, and literal rules decide on parsed tool calls', async () => {
    const home = homeOf(join(FIXTURES, 'file-custom-rebase'));
    const result = plan(await readHome(home, 'user', NOW));
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
    const home = homeOf(join(FIXTURES, 'file-edited-builtin-clash'));
    const result = plan(await readHome(home, 'user', NOW));
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
    const input = await readHome(home, 'user', NOW);
    assert.throws(() => plan(input), (err: unknown) => {
      assert.ok(err instanceof WardenError);
      assert.equal(err.code, 'WARDEN_ERR_MIGRATION_RULE_MERGE_UNSAFE');
      assert.match(err.message, /policies\/guardrail\/huge: merging the command rules of a\.yaml, b\.yaml gives 2049 rules/);
      return true;
    });
    // One rule fewer is exactly the limit: it merges.
    writeFileSync(join(dir, 'b.yaml'), file(1500, 548));
    const merged = plan(await readHome(home, 'user', NOW));
    assert.deepEqual(merged.record.rule_file_merges, [{ pack: 'policies/guardrail/huge', category: 'command', into: 'a.yaml', from: ['b.yaml'], rules: 2048 }]);
  });

  test('an existing <folder>-1.0 is not overwritten', async () => {
    const home = homeOf(join(FIXTURES, 'file-custom-rebase'));
    mkdirSync(join(home, 'policies/guardrail/acme-1.0'));
    writeFileSync(join(home, 'policies/guardrail/acme-1.0/pack.yaml'), 'name: acme-1.0\n');
    const input = await readHome(home, 'user', NOW);
    assert.throws(() => plan(input), { code: 'WARDEN_ERR_MIGRATION_RULE_MERGE_UNSAFE' });
  });
});

describe('readHome', () => {
  test('refuses a symlink that leads out of the home, and follows none', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'warden-migb-outside-'));
    temps.push(outside);
    writeFileSync(join(outside, 'rules.yaml'), 'rules: []\n');
    const home = homeOf(join(FIXTURES, 'file-custom-rebase'));
    symlinkSync(join(outside, 'rules.yaml'), join(home, 'policies/guardrail/acme/stolen.yaml'));
    await assert.rejects(readHome(home, 'user', NOW), (err: unknown) => {
      assert.ok(err instanceof WardenError);
      assert.equal(err.code, 'WARDEN_ERR_MIGRATION_HOME_UNREADABLE');
      assert.match(err.message, /policies\/guardrail\/acme\/stolen\.yaml: a symlink leads out of the data home/);
      return true;
    });

    const home2 = homeOf(join(FIXTURES, 'file-rego-pre9'));
    rmSync(join(home2, 'policies/rego'), { recursive: true });
    symlinkSync(outside, join(home2, 'policies/rego'));
    await assert.rejects(readHome(home2, 'user', NOW), { code: 'WARDEN_ERR_MIGRATION_HOME_UNREADABLE' });
  });

  test('follows a symlink that stays inside the home', async () => {
    const home = homeOf(join(FIXTURES, 'file-rego-pre9'));
    symlinkSync(join(home, 'policies/rego/data.json'), join(home, 'custom-providers.json'));
    const input = await readHome(home, 'user', NOW);
    assert.ok(input.files.get('custom-providers.json')!.bytes.equals(readFileSync(join(home, 'policies/rego/data.json'))));
  });

  test('reads config.yaml exactly, the files the rules need, and audit.db rows without writing to it', async () => {
    const home = homeOf(join(FIXTURES, 'file-audit-actions'));
    writeFileSync(join(home, '.env'), 'WARDEN_LLM_KEY=sk-test\n');
    mkdirSync(join(home, 'signature-packs'));
    writeFileSync(join(home, 'signature-packs/corp.json'), '{"signatures":[]}');
    const before = readFileSync(join(home, 'audit.db'));
    const input = await readHome(home, 'user', NOW);
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
    const home = homeOf(join(FIXTURES, 'file-rego-pre9'));
    writeFileSync(join(home, 'policies/rego/data.json'), Buffer.alloc(MIGRATION_LIMITS.maxFileBytes + 1, 0x20));
    await assert.rejects(readHome(home, 'user', NOW), /policies\/rego\/data\.json: \d+ bytes, over the migration's limit/);
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
