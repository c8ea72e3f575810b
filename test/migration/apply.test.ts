// The transactional apply of a migration plan (src/migration/apply.ts): refusals that write nothing, the files
// it leaves and their modes, and the kill-between-steps test: a real child process killed with SIGKILL after
// each step must leave either the old configuration (untouched, and migrating on the next run) or the new one
// (finished by the next run), and the next run must end in the same home as an uninterrupted one.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parseEnv } from 'node:util';
import { parseConfig } from '../../src/config/load.js';
import { applyPlan, APPLY_STEPS, sha256 } from '../../src/migration/apply.js';
import { runMigration } from '../../src/migration/run.js';
import { DATA_JSON, fakeDeps, fakeMigrate, NEW_MODULE, OLD_MODULE, SECRET, V8_CONFIG, writeV8Home } from './helpers/fake-migration.js';

const CHILD = fileURLToPath(new URL('./helpers/apply-child.ts', import.meta.url));
const homes: string[] = [];
const newHome = (config?: string) => {
  const home = writeV8Home(config);
  homes.push(home);
  return home;
};
after(() => homes.forEach((home) => rmSync(home, { recursive: true, force: true })));

/** Every file of a home with its content (the generation's timestamp left out: it says when, not what). */
function snapshot(home: string, dir = home): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isSymbolicLink()) files[relative(home, path)] = '(link)';
    else if (entry.isDirectory()) Object.assign(files, snapshot(home, path));
    else files[relative(home, path)] = readFileSync(path, 'utf8').replace(/"written_at": "[^"]+"/, '"written_at": "…"');
  }
  return files;
}

async function planFor(home: string) {
  const input = await fakeDeps.readHome(home, 'user');
  return { input, plan: fakeMigrate(input) };
}

describe('applyPlan', () => {
  it('writes the new config last, keeps the old bytes, the record and generation 0600, and moves the files', async () => {
    const home = newHome();
    const { input, plan } = await planFor(home);
    const { changed } = applyPlan(home, plan, { expectedSourceSha256: sha256(input.configText) });
    assert.equal(readFileSync(join(home, 'config.yaml.v8.bak'), 'utf8'), V8_CONFIG);
    assert.equal(readFileSync(join(home, 'config.yaml'), 'utf8'), plan.configText);
    assert.equal(parseConfig(readFileSync(join(home, 'config.yaml'), 'utf8'), 'config.yaml').config_version, 9);
    assert.match(readFileSync(join(home, 'config.yaml'), 'utf8'), /^# Operator's settings/);
    for (const file of ['migration-v9.json', 'config.generation.json', 'config.yaml.v8.bak', '.env']) {
      assert.equal(statSync(join(home, file)).mode & 0o777, 0o600, file);
    }
    assert.deepEqual(JSON.parse(readFileSync(join(home, 'migration-v9.json'), 'utf8')), plan.record);
    const generation = JSON.parse(readFileSync(join(home, 'config.generation.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(generation.generation, 1);
    assert.equal(generation.sha256, sha256(plan.configText));
    assert.equal(generation.by, 'migration');
    assert.equal(readFileSync(join(home, 'policies/rego/data.json.migrated-v9'), 'utf8'), DATA_JSON);
    assert.equal(existsSync(join(home, 'policies/rego/data.json')), false, 'data.json is no longer read');
    assert.equal(readFileSync(join(home, 'policies/rego/admission.rego.migrated-v9'), 'utf8'), OLD_MODULE);
    assert.equal(readFileSync(join(home, 'policies/rego/admission.rego'), 'utf8'), NEW_MODULE);
    assert.equal(readFileSync(join(home, 'rules/custom-1.0/rules.yaml'), 'utf8'), 'rules: []\n');
    assert.match(readFileSync(join(home, '.env'), 'utf8'), new RegExp(`^SKILL_SCANNER_LLM_API_KEY=${SECRET}$`, 'm'));
    assert.match(readFileSync(join(home, '.env'), 'utf8'), /^WARDEN_GATEWAY_TOKEN=t$/m, 'other variables kept');
    assert.equal(existsSync(join(home, 'migration-v9.pending.json')), false, 'the journal is gone once done');
    assert.equal(changed.at(-3), 'policies/rego/admission.rego.migrated-v9');
    assert.ok(changed.indexOf('config.yaml') > changed.indexOf('migration-v9.json'));
  });

  it('refuses, writing nothing, when config.yaml changed since it was read', async () => {
    const home = newHome();
    const { input, plan } = await planFor(home);
    const before = snapshot(home);
    writeFileSync(join(home, 'config.yaml'), `${V8_CONFIG}# edited meanwhile\n`);
    assert.throws(() => applyPlan(home, plan, { expectedSourceSha256: sha256(input.configText) }),
      (err: Error & { code?: string }) => err.code === 'WARDEN_ERR_MIGRATION_SOURCE_CHANGED' && /changed while the migration ran/.test(err.message));
    assert.deepEqual(snapshot(home), { ...before, 'config.yaml': `${V8_CONFIG}# edited meanwhile\n` });
  });

  it('refuses, writing nothing, a result that would not load as version 9', async () => {
    const home = newHome();
    const { input, plan } = await planFor(home);
    const before = snapshot(home);
    const broken = `${plan.configText}guardrail_typo: 1\n`;
    const bad = { ...plan, configText: broken, record: { ...plan.record, result_sha256: sha256(broken) } };
    assert.throws(() => applyPlan(home, bad, { expectedSourceSha256: sha256(input.configText) }),
      (err: Error & { code?: string }) => err.code === 'WARDEN_ERR_MIGRATION_RESULT_INVALID' && /unknown key "guardrail_typo"/.test(err.message));
    const mismatched = { ...plan, record: { ...plan.record, result_sha256: sha256('other') } };
    assert.throws(() => applyPlan(home, mismatched, { expectedSourceSha256: sha256(input.configText) }), /result_sha256/);
    assert.deepEqual(snapshot(home), before);
  });

  it('refuses, writing nothing, operations that leave the home, cross a link or touch its own files', async () => {
    const home = newHome();
    const outside = newHome();
    symlinkSync(outside, join(home, 'linked'));
    const { input, plan } = await planFor(home);
    const before = snapshot(home);
    for (const operation of [
      { op: 'write' as const, path: '../escape', bytes: Buffer.from('x') },
      { op: 'write' as const, path: '/etc/escape', bytes: Buffer.from('x') },
      { op: 'write' as const, path: 'linked/policies/x.rego', bytes: Buffer.from('x') },
      { op: 'write' as const, path: 'migration-v9.json', bytes: Buffer.from('{}') },
      { op: 'rename' as const, from: 'policies/rego/data.json', to: 'config.yaml' },
      { op: 'env' as const, name: 'A\nB', value: 'x' },
      { op: 'env' as const, name: 'OK', value: 'x\nWARDEN_GATEWAY_TOKEN=stolen' },
    ]) {
      assert.throws(() => applyPlan(home, { ...plan, operations: [...plan.operations, operation] }, { expectedSourceSha256: sha256(input.configText) }),
        (err: Error & { code?: string }) => err.code === 'WARDEN_ERR_MIGRATION_UNSAFE_PATH', JSON.stringify(operation));
    }
    assert.deepEqual(snapshot(home), before);
    assert.equal(readdirSync(outside).includes('escape'), false);
  });
});

describe('applyPlan and .env', () => {
  it('writes a key that needs quoting so that it reads back the same, and leaves an equal one alone', async () => {
    const home = newHome();
    const { input, plan } = await planFor(home);
    const value = 'sk-with#hash and space';
    applyPlan(home, { ...plan, operations: [{ op: 'env', name: 'ODD_KEY', value }, ...plan.operations] }, { expectedSourceSha256: sha256(input.configText) });
    assert.equal(parseEnv(readFileSync(join(home, '.env'), 'utf8')).ODD_KEY, value);
  });

  it('refuses, writing nothing, to replace a variable the operator set to another value', async () => {
    const home = newHome();
    writeFileSync(join(home, '.env'), 'WARDEN_GATEWAY_TOKEN=t\nSKILL_SCANNER_LLM_API_KEY=operator-own\n', { mode: 0o600 });
    const { input, plan } = await planFor(home);
    const before = snapshot(home);
    assert.throws(() => applyPlan(home, plan, { expectedSourceSha256: sha256(input.configText) }), /already sets SKILL_SCANNER_LLM_API_KEY to another value; nothing was written/);
    assert.deepEqual(snapshot(home), before);
  });
});

// Two children at a time: each spends most of its second starting Node and tsx.
describe('a migration killed between steps', { concurrency: 2 }, () => {
  const reference = newHome();
  let expected: Record<string, string>;

  function killAt(home: string, step: string, occurrence = 1): Promise<{ signal: NodeJS.Signals | null; stdout: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', CHILD, home, step, String(occurrence)], { stdio: ['ignore', 'pipe', 'inherit'] });
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.on('error', reject);
      child.on('close', (_code, signal) => resolve({ signal, stdout }));
    });
  }

  const points = [...APPLY_STEPS.filter((s) => s !== 'operation').map((step) => ({ step, occurrence: 1 })),
    { step: 'operation', occurrence: 1 }, { step: 'operation', occurrence: 2 }];

  before(async () => {
    await runMigration(fakeDeps, reference);
    expected = snapshot(reference);
    assert.match(expected['config.yaml']!, /^config_version: 9$/m);
  });

  for (const { step, occurrence } of points) {
    it(`after ${step}${step === 'operation' ? ` #${occurrence}` : ''}: the old or the new configuration is in force, and the next run finishes the job`, async () => {
      const home = newHome();
      const killed = await killAt(home, step, occurrence);
      assert.equal(killed.signal, 'SIGKILL', `the child was killed (${killed.stdout})`);
      const config = readFileSync(join(home, 'config.yaml'), 'utf8');
      const committed = APPLY_STEPS.indexOf(step as (typeof APPLY_STEPS)[number]) >= APPLY_STEPS.indexOf('commit');
      if (committed) {
        assert.equal(parseConfig(config, 'config.yaml').config_version, 9, 'the new configuration is in force');
      } else {
        assert.equal(config, V8_CONFIG, 'the old configuration is untouched');
        assert.equal(readFileSync(join(home, 'policies/rego/data.json'), 'utf8'), DATA_JSON, 'and so is every file it reads');
        assert.equal(readFileSync(join(home, 'policies/rego/admission.rego'), 'utf8'), OLD_MODULE);
      }
      const rerun = await runMigration(fakeDeps, home);
      assert.equal(rerun.status, committed ? 'nothing-to-do' : 'migrated');
      if (rerun.status === 'nothing-to-do') assert.equal(rerun.finishedInterrupted, step !== 'deferred');
      assert.deepEqual(snapshot(home), expected);
    });
  }
});
