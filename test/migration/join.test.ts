// The migration's pieces joined, on copies of real fixture homes: runMigration with the real readHome and
// migrate() and the transactional apply. The home ends as the fixture's expectations say (config.yaml, record,
// .v8.bak, renamed and written files, .env), migrating again is "nothing to migrate" and changes nothing, the
// scope run.ts detects is the one migrate() was written for, a config.yaml edited while migrating is refused, and
// a run killed between apply's steps on a real home leaves the old or the new configuration and is finished next.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parseEnv } from 'node:util';
import { parseConfig } from '../../src/config/load.js';
import { BUILT_IN_DEPS } from '../../src/migration/index.js';
import { runMigration, type MigrationDeps } from '../../src/migration/run.js';
import type { FileOperation, MigrationRecord } from '../../src/migration/types.js';
import { copyFixtureHome, FIXTURES, NOW } from './fixture-homes.js';

const CHILD = fileURLToPath(new URL('./helpers/apply-child.ts', import.meta.url));
const SHIPPED_REGO = fileURLToPath(new URL('../../policies/rego/', import.meta.url));

/** Every file of a home with its content (the generation's timestamp left out: it says when, not what). */
function snapshot(home: string, dir = home): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) Object.assign(files, snapshot(home, path));
    else if (entry.name === 'config.generation.json') files[relative(home, path)] = readFileSync(path, 'utf8').replace(/"written_at": "[^"]+"/, '');
    else files[relative(home, path)] = readFileSync(path).toString('base64');
  }
  return files;
}

const expected = (fixture: string, file: string) => readFileSync(join(FIXTURES, fixture, file), 'utf8');

async function migrated(fixture: string) {
  const { home, userHome } = copyFixtureHome(fixture);
  const source = readFileSync(join(home, 'config.yaml'), 'utf8');
  const outcome = await runMigration(BUILT_IN_DEPS, home, { now: NOW, userHome });
  assert.equal(outcome.status, 'migrated');
  return { home, userHome, source, outcome };
}

describe('runMigration on fixture homes, apply included', () => {
  for (const fixture of ['stock', 'file-rego-pre9', 'scanners', 'file-audit-managed', 'file-custom-rebase', 'providers-overlay', 'unscannable-mcp', 'everything']) {
    it(`${fixture}: the home holds the expected version 9 files; a second run is "nothing to migrate" and changes nothing`, async () => {
      const { home, userHome, source, outcome } = await migrated(fixture);
      assert.equal(readFileSync(join(home, 'config.yaml'), 'utf8'), expected(fixture, 'config.yaml'));
      assert.equal(readFileSync(join(home, 'config.yaml.v8.bak'), 'utf8'), source);
      const record = JSON.parse(readFileSync(join(home, 'migration-v9.json'), 'utf8')) as MigrationRecord;
      assert.deepEqual(record, JSON.parse(expected(fixture, 'migration-v9.json')));
      assert.equal(statSync(join(home, 'migration-v9.json')).mode & 0o777, 0o600);
      assert.equal(existsSync(join(home, 'migration-v9.pending.json')), false);
      const env = existsSync(join(home, '.env')) ? parseEnv(readFileSync(join(home, '.env'), 'utf8')) : {};
      const operations = outcome.status === 'migrated' ? outcome.plan.operations : [];
      checkOperations(home, operations, env);

      const before = snapshot(home);
      const again = await runMigration(BUILT_IN_DEPS, home, { now: NOW, userHome });
      assert.equal(again.status, 'nothing-to-do');
      assert.deepEqual(snapshot(home), before);
    });
  }

  it('a managed standalone host: detected by run.ts, migrated by the lifecycle, operator rows left in audit.db', async () => {
    const { outcome } = await migrated('file-audit-managed');
    assert.equal(outcome.scope, 'managed');
    assert.ok(outcome.status === 'migrated');
    assert.equal(outcome.plan.record.actor, 'lifecycle');
    assert.equal(outcome.plan.record.actions_rows_ignored, 2);
    assert.equal(outcome.plan.record.actions_rows_moved, 0);
  });

  it('a client-managed profile is left byte for byte unchanged', async () => {
    const { home, userHome } = copyFixtureHome('file-client-managed');
    const before = snapshot(home);
    const outcome = await runMigration(BUILT_IN_DEPS, home, { now: NOW, userHome });
    assert.equal(outcome.status, 'client-managed');
    assert.deepEqual(snapshot(home), before);
  });

  it('a config.yaml edited while the migration ran is refused, and nothing is written', async () => {
    const { home, userHome } = copyFixtureHome('stock');
    const before = snapshot(home);
    const edit = '# edited by the operator meanwhile\n';
    const racing: MigrationDeps = {
      readHome: BUILT_IN_DEPS.readHome,
      migrate: (input) => {
        const plan = BUILT_IN_DEPS.migrate(input);
        writeFileSync(join(home, 'config.yaml'), `${input.configText}${edit}`);
        return plan;
      },
    };
    await assert.rejects(runMigration(racing, home, { now: NOW, userHome }), { code: 'WARDEN_ERR_MIGRATION_SOURCE_CHANGED' });
    const after = snapshot(home);
    assert.equal(Buffer.from(after['config.yaml']!, 'base64').toString('utf8'), `${Buffer.from(before['config.yaml']!, 'base64').toString('utf8')}${edit}`);
    assert.deepEqual({ ...after, 'config.yaml': '' }, { ...before, 'config.yaml': '' });
  });
});

/** Each operation of the plan is visible in the home: renamed files moved, written files in place, .env set. */
function checkOperations(home: string, operations: FileOperation[], env: Record<string, string | undefined>): void {
  const written = new Set(operations.filter((op) => op.op === 'write').map((op) => op.path));
  for (const op of operations) {
    if (op.op === 'env') assert.equal(env[op.name], op.value, `.env sets ${op.name}`);
    else if (op.op === 'write') assert.ok(readFileSync(join(home, op.path)).equals(op.bytes), `${op.path} written`);
    else {
      assert.ok(existsSync(join(home, op.to)), `${op.to} exists`);
      // A path renamed away and then written anew (rule 10's shipped module) holds the new bytes.
      if (!written.has(op.from)) assert.equal(existsSync(join(home, op.from)), false, `${op.from} moved away`);
    }
  }
}

describe('rule 10 through the journal: the pre-9 module renamed, then the shipped one written at its path', () => {
  it('keeps the operator module as .migrated-v9 and installs the shipped admission.rego', async () => {
    const { home } = await migrated('file-rego-pre9');
    assert.ok(readFileSync(join(home, 'policies/rego/admission.rego')).equals(readFileSync(join(SHIPPED_REGO, 'admission.rego'))));
    assert.ok(readFileSync(join(home, 'policies/rego/admission.rego.migrated-v9')).equals(readFileSync(join(FIXTURES, 'file-rego-pre9/home/policies/rego/admission.rego'))));
  });
});

// The real migration of a real fixture home, killed with SIGKILL by its child process at each step around the
// commit and between the deferred renames and the write (two children at a time: each mostly starts Node and tsx).
describe('the real migration of a fixture home killed between steps', { concurrency: 2 }, () => {
  const fixture = 'file-rego-pre9';
  const points = [['new-files', 1], ['commit', 1], ['operation', 1], ['operation', 3]] as const;
  for (const [step, occurrence] of points) {
    it(`killed after ${step} #${occurrence}: the old or the new configuration is in force, and the next run ends as an uninterrupted one`, async () => {
      const { home, userHome } = copyFixtureHome(fixture);
      const source = readFileSync(join(home, 'config.yaml'), 'utf8');
      const oldModule = readFileSync(join(home, 'policies/rego/admission.rego'));
      const signal = await new Promise<NodeJS.Signals | null>((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', CHILD, home, step, String(occurrence), userHome], { stdio: ['ignore', 'ignore', 'inherit'] });
        child.on('error', reject);
        child.on('close', (_code, sig) => resolve(sig));
      });
      assert.equal(signal, 'SIGKILL');
      const config = readFileSync(join(home, 'config.yaml'), 'utf8');
      if (step === 'new-files') {
        assert.equal(config, source, 'the old configuration is untouched');
        assert.ok(readFileSync(join(home, 'policies/rego/admission.rego')).equals(oldModule), 'and so is the module it reads');
      } else {
        assert.equal(parseConfig(config, 'config.yaml').config_version, 9, 'the new configuration is in force');
      }
      const rerun = await runMigration(BUILT_IN_DEPS, home, { now: NOW, userHome });
      assert.equal(rerun.status, step === 'new-files' ? 'migrated' : 'nothing-to-do');
      assert.equal(readFileSync(join(home, 'config.yaml'), 'utf8'), expected(fixture, 'config.yaml'));
      assert.ok(readFileSync(join(home, 'policies/rego/admission.rego')).equals(readFileSync(join(SHIPPED_REGO, 'admission.rego'))));
      assert.ok(readFileSync(join(home, 'policies/rego/admission.rego.migrated-v9')).equals(oldModule));
      assert.equal(existsSync(join(home, 'policies/rego/data.json')), false);
      assert.equal(existsSync(join(home, 'migration-v9.pending.json')), false);
    });
  }
});
