// The migration commands end to end with the real migration: the built CLI (dist/cli/warden.js, also run as
// `warden-gateway`) in subprocesses on copies of real fixture homes, as an operator runs them: check, dry run as
// JSON, migrate, doctor's row before and after, acknowledge, migrate again; and the real gateway started on a
// version 8 home, migrating it in memory without writing. The stand-in tests (migrate.test.ts) cover the
// commands' other branches.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { startGateway } from '../../src/gateway/runtime.js';
import type { MigrationRecord } from '../../src/migration/types.js';
import { CLI } from '../helpers/gateway.js';
import { copyFixtureHome, FIXTURES } from '../migration/fixture-homes.js';

const links = mkdtempSync(join(tmpdir(), 'warden-gateway-bin-'));
after(() => rmSync(links, { recursive: true, force: true }));
const GATEWAY_CLI = join(links, 'warden-gateway');
symlinkSync(CLI, GATEWAY_CLI);

const envOf = (home: string, userHome: string) => ({ PATH: process.env.PATH, HOME: userHome, WARDEN_HOME: home, WARDEN_GATEWAY_TOKEN: 'fixture-test-token', WARDEN_LOG_LEVEL: 'silent' });

async function run(cli: string, args: string[], env: NodeJS.ProcessEnv) {
  const proc = spawn(process.execPath, [cli, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  proc.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  proc.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const [code] = (await once(proc, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

function snapshot(dir: string, root = dir): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) Object.assign(files, snapshot(path, root));
    else files[relative(root, path)] = readFileSync(path).toString('base64');
  }
  return files;
}

const expected = (fixture: string, file: string) => readFileSync(join(FIXTURES, fixture, file), 'utf8');
/** A record compared without the clock (the commands stamp the time they ran). */
const timeless = (record: MigrationRecord) => ({ ...record, migrated_at: '' });

describe('the migration commands on a real fixture home', { concurrency: 2 }, () => {
  it('stock: check and dry run write nothing and show the expected record; doctor says to migrate', async () => {
    const fixture = 'stock';
    const { home, userHome } = copyFixtureHome(fixture);
    const env = envOf(home, userHome);
    const untouched = snapshot(home);

    const check = await run(CLI, ['migrate', '--check'], env);
    assert.equal(check.code, 0, check.stderr);
    assert.match(check.stdout, /config_version 8/);
    const dry = await run(CLI, ['config', 'migrate', '--dry-run', '--json'], env);
    assert.equal(dry.code, 0, dry.stderr);
    const planned = JSON.parse(dry.stdout) as MigrationRecord;
    assert.deepEqual(timeless(planned), timeless(JSON.parse(expected(fixture, 'migration-v9.json')) as MigrationRecord));
    assert.deepEqual(snapshot(home), untouched, '--check and --dry-run write nothing');

    const before = await run(CLI, ['doctor'], env);
    assert.match(before.stdout, /migration.*run `warden migrate`/);
  });

  it('stock: migrate writes the expected files; doctor warns of the conflicts; ack; a second run changes nothing', async () => {
    const fixture = 'stock';
    const { home, userHome } = copyFixtureHome(fixture);
    const env = envOf(home, userHome);
    const planned = JSON.parse(expected(fixture, 'migration-v9.json')) as MigrationRecord;
    const migrate = await run(CLI, ['migrate'], env);
    assert.equal(migrate.code, 0, migrate.stderr);
    assert.equal(readFileSync(join(home, 'config.yaml'), 'utf8'), expected(fixture, 'config.yaml'));
    assert.equal(readFileSync(join(home, 'config.yaml.v8.bak'), 'utf8'), readFileSync(join(FIXTURES, fixture, 'home/config.yaml'), 'utf8'));
    const record = JSON.parse(readFileSync(join(home, 'migration-v9.json'), 'utf8')) as MigrationRecord;
    assert.deepEqual(timeless(record), timeless(planned));
    assert.ok(record.conflicts.length > 0);

    const after = await run(CLI, ['doctor'], env);
    assert.match(after.stdout, /migration.*conflict/i);

    const ack = await run(CLI, ['config', 'migrate', '--ack'], env);
    assert.equal(ack.code, 0, ack.stderr);
    assert.match(ack.stdout, /nothing to migrate/);
    assert.equal((JSON.parse(readFileSync(join(home, 'migration-v9.json'), 'utf8')) as MigrationRecord).acknowledged, true);
    const migrated = snapshot(home);
    const again = await run(CLI, ['migrate'], env);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /nothing to migrate/);
    assert.deepEqual(snapshot(home), migrated, 'a second run changes nothing');
  });

  it('warden-gateway config migrate lists the removed keys and the audit entries moved', async () => {
    const { home, userHome } = copyFixtureHome('file-audit-actions');
    const result = await run(GATEWAY_CLI, ['config', 'migrate'], envOf(home, userHome));
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^ {2}removed: data_dir$/m);
    assert.match(result.stdout, /^ {2}audit entry moved: actions#3 -> asset_policy\.tool\.denied$/m);
    assert.equal(readFileSync(join(home, 'config.yaml'), 'utf8'), expected('file-audit-actions', 'config.yaml'));
  });
});

describe('the gateway on a version 8 fixture home', () => {
  it('starts on the configuration migrated in memory, writing none of the migration; `warden migrate` afterwards still moves the audit rows', async () => {
    const fixture = 'file-audit-actions';
    const { home, userHome } = copyFixtureHome(fixture);
    const source = readFileSync(join(home, 'config.yaml'), 'utf8');
    const gateway = await startGateway(envOf(home, userHome));
    try {
      assert.equal(gateway.settings.config.config_version, 9);
      assert.equal(gateway.settings.migratedFrom, 8);
      assert.deepEqual(gateway.settings.config.asset_policy.tool.denied, [{ name: 'WebFetch', connector: 'claudecode', reason: 'no web fetches from this laptop' }]);
      assert.equal((await fetch(`${gateway.sidecarUrl}/health`)).status, 200);
    } finally {
      await gateway.stop();
    }
    assert.equal(readFileSync(join(home, 'config.yaml'), 'utf8'), source);
    for (const file of ['config.yaml.v8.bak', 'migration-v9.json', 'config.generation.json', 'migration-v9.pending.json']) {
      assert.equal(existsSync(join(home, file)), false, `${file} is not written by the gateway`);
    }
    // Warden 9's audit schema now shares the file; version 8's decisions are kept beside it as actions_v8.
    const db = new Database(join(home, 'audit.db'), { readonly: true });
    assert.equal((db.prepare('SELECT count(*) AS n FROM actions_v8').get() as { n: number }).n, 13);
    db.close();

    const migrate = await run(CLI, ['migrate'], envOf(home, userHome));
    assert.equal(migrate.code, 0, migrate.stderr);
    assert.equal(readFileSync(join(home, 'config.yaml'), 'utf8'), expected(fixture, 'config.yaml'));
    const record = JSON.parse(readFileSync(join(home, 'migration-v9.json'), 'utf8')) as MigrationRecord;
    assert.deepEqual(timeless(record), timeless(JSON.parse(expected(fixture, 'migration-v9.json')) as MigrationRecord));
  });

  it('a home whose pack only the migration writes: the start says to run `warden migrate`; after it, the pinned pack loads', async () => {
    const { home, userHome } = copyFixtureHome('everything');
    await assert.rejects(startGateway(envOf(home, userHome)), (err: Error) => {
      assert.match(err.message, /rule pack acme-1\.0 is the rebased copy.*run `warden migrate`/);
      return true;
    });
    assert.equal(existsSync(join(home, 'policies/guardrail/acme-1.0')), false);

    const migrate = await run(CLI, ['migrate'], envOf(home, userHome));
    assert.equal(migrate.code, 0, migrate.stderr);
    const gateway = await startGateway(envOf(home, userHome));
    try {
      assert.equal(gateway.settings.config.guardrail.rule_pack, 'acme-1.0');
      assert.equal(gateway.settings.migratedFrom, undefined);
    } finally {
      await gateway.stop();
    }
    // A pinned pack edited afterwards is refused, naming the pack.
    appendFileSync(join(home, 'policies/guardrail/acme-1.0/other.yml'), '# edited\n');
    await assert.rejects(startGateway(envOf(home, userHome)), /custom_packs\.acme-1\.0: the files of .* changed since they were pinned/);
    const doctor = await run(CLI, ['doctor'], envOf(home, userHome));
    assert.match(doctor.stdout, /rule pack.*changed since they were pinned/);
  });
});
