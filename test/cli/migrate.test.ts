// The migration commands as an operator runs them: `warden migrate [--check]`, `warden config migrate
// [--dry-run] [--ack] [--json]` and its `warden-gateway` form, `warden upgrade` and `warden rollback`. The
// migration commands run in process with the stand-in migration of test/migration/helpers (the rules have their
// own fixture tests); the built CLI runs as a subprocess where no migration code is needed; upgrade runs real
// releases (small packages whose CLI is a script) in subprocesses, and restores the real files.
import assert from 'node:assert/strict';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, afterEach, describe, it } from 'node:test';
import { Command } from 'commander';
import { create } from 'tar';
import { registerMigrate } from '../../src/cli/commands/migrate.js';
import { describeFailure } from '../../src/cli/failure.js';
import type { MigrationDeps } from '../../src/migration/run.js';
import { fakeDeps, fakeMigrate, SECRET, V8_CONFIG, writeV8Home } from '../migration/helpers/fake-migration.js';
import { runCli } from '../helpers/gateway.js';
import { tempHome } from '../helpers/home.js';

const cleanup: string[] = [];
after(() => cleanup.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const home = (config?: string) => {
  const dir = writeV8Home(config);
  cleanup.push(dir);
  return dir;
};

/** A stand-in whose record also moved an audit.db row (for the gateway form's listing). */
const auditDeps: MigrationDeps = {
  readHome: fakeDeps.readHome,
  migrate(input) {
    const plan = fakeMigrate(input);
    plan.record.moved.push({ source: 'audit.db', from: 'actions#7 block skill evil-skill', to: 'asset_policy.skill.denied', value: { name: 'evil-skill' } });
    plan.record.actions_rows_moved = 1;
    return plan;
  },
};

const savedHome = process.env.WARDEN_HOME;
afterEach(() => {
  process.env.WARDEN_HOME = savedHome;
});

/** Runs `<name> <args>` in process against `dir`; returns what it printed and the error line, as the CLI would. */
async function cli(dir: string, args: string[], { name = 'warden', deps = fakeDeps }: { name?: string; deps?: MigrationDeps } = {}) {
  let stdout = '';
  const program = new Command(name).exitOverride();
  registerMigrate(program, { deps, write: (text) => (stdout += text) });
  process.env.WARDEN_HOME = dir;
  try {
    await program.parseAsync(['node', name, ...args]);
    return { stdout, error: undefined };
  } catch (err) {
    return { stdout, error: describeFailure(err) };
  }
}

function snapshot(dir: string, root = dir): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) Object.assign(files, snapshot(path, root));
    else files[relative(root, path)] = readFileSync(path, 'utf8');
  }
  return files;
}

const recordOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'migration-v9.json'), 'utf8')) as { acknowledged: boolean; source_sha256: string };

describe('warden migrate', () => {
  it('migrates a version 8 home, printing the summary, the conflicts and how to acknowledge', async () => {
    const dir = home();
    const { stdout, error } = await cli(dir, ['migrate']);
    assert.equal(error, undefined);
    assert.match(stdout, /^migrated .*config\.yaml from config_version 8 to 9 \(old file kept as config\.yaml\.v8\.bak\)$/m);
    assert.match(stdout, /2 values moved, 2 keys removed, 0 audit rows moved/);
    assert.match(stdout, /conflict: guardrail\.block_at: kept "CRITICAL", lost "HIGH" \(looser than data\.json\)/);
    assert.match(stdout, /run `warden config migrate --ack`/);
    assert.doesNotMatch(stdout, /removed: skill_actions/, 'only the gateway form lists removed keys');
    assert.doesNotMatch(stdout, new RegExp(SECRET));
    assert.match(readFileSync(join(dir, 'config.yaml'), 'utf8'), /^config_version: 9$/m);
    assert.equal(recordOf(dir).acknowledged, false);

    const again = await cli(dir, ['migrate']);
    assert.match(again.stdout, /^nothing to migrate: .*config\.yaml is already config_version 9$/m);
  });

  it('--check lists the pending steps, never a secret, and changes nothing', async () => {
    const dir = home();
    const before = snapshot(dir);
    const { stdout, error } = await cli(dir, ['migrate', '--check']);
    assert.equal(error, undefined);
    assert.match(stdout, /^pending steps \(nothing changed\):$/m);
    assert.match(stdout, /^migrate config_version 8 to 9 \(2 values moved, 2 keys removed, 1 conflicts\)$/m);
    assert.match(stdout, /^ {2}rename policies\/rego\/data\.json -> policies\/rego\/data\.json\.migrated-v9$/m);
    assert.match(stdout, /^ {2}\.env: set SKILL_SCANNER_LLM_API_KEY \(value not shown\)$/m);
    assert.doesNotMatch(stdout, new RegExp(SECRET));
    assert.deepEqual(snapshot(dir), before);
  });

  it('refuses a file newer than this release, changing nothing', async () => {
    const dir = home('config_version: 10\n');
    const { error } = await cli(dir, ['migrate']);
    assert.match(error ?? '', /config_version 10 is newer than this Warden supports \(9\); upgrade Warden \(WARDEN_ERR_CONFIG_INVALID\)$/);
    assert.equal(readFileSync(join(dir, 'config.yaml'), 'utf8'), 'config_version: 10\n');
  });

  it('a client-managed profile is left unchanged', async () => {
    const dir = home();
    writeFileSync(join(dir, 'client-managed'), 'managed by corp-agent\n');
    const before = snapshot(dir);
    const { stdout, error } = await cli(dir, ['migrate']);
    assert.equal(error, undefined);
    assert.match(stdout, /client-managed profile: .* is left unchanged/);
    assert.deepEqual(snapshot(dir), before);
  });

  it('a managed standalone host is migrated in place by the lifecycle, keeping the .v8.bak', async () => {
    const config = V8_CONFIG.replace('gateway:\n', 'openshell:\n  mode: standalone\ngateway:\n');
    const dir = home(config);
    const { error } = await cli(dir, ['migrate']);
    assert.equal(error, undefined);
    assert.equal(readFileSync(join(dir, 'config.yaml.v8.bak'), 'utf8'), config);
    assert.equal((JSON.parse(readFileSync(join(dir, 'migration-v9.json'), 'utf8')) as { actor: string }).actor, 'lifecycle');
  });
});

describe('warden config migrate', () => {
  it('--dry-run --json prints the whole record and writes nothing', async () => {
    const dir = home();
    const before = snapshot(dir);
    const { stdout, error } = await cli(dir, ['config', 'migrate', '--dry-run', '--json']);
    assert.equal(error, undefined);
    const record = JSON.parse(stdout) as Record<string, unknown>;
    for (const field of ['schema_version', 'from_version', 'to_version', 'migrated_at', 'actor', 'source_sha256', 'result_sha256', 'moved',
      'conflicts', 'removed', 'actions_rows_moved', 'actions_rows_ignored', 'notes', 'renamed_rules', 'expressed_rules', 'detection_only_rules',
      'rule_file_merges', 'rule_pack_rebase_failures', 'unenforced_rego_data', 'unscannable_mcp', 'acknowledged']) {
      assert.ok(field in record, field);
    }
    assert.equal(record.from_version, 8);
    assert.deepEqual(snapshot(dir), before);
  });

  it('--ack marks the record read, when migrating and afterwards', async () => {
    const dir = home();
    await cli(dir, ['config', 'migrate', '--ack']);
    assert.equal(recordOf(dir).acknowledged, true);

    const later = home();
    await cli(later, ['config', 'migrate']);
    assert.equal(recordOf(later).acknowledged, false);
    const { stdout } = await cli(later, ['config', 'migrate', '--ack']);
    assert.match(stdout, /nothing to migrate/);
    assert.match(stdout, /marked as read/);
    assert.equal(recordOf(later).acknowledged, true);
  });

  it('is the version 9 step only: a version 7 file is sent to `warden migrate`', async () => {
    const dir = home(V8_CONFIG.replace('config_version: 8', 'config_version: 7'));
    const { error } = await cli(dir, ['config', 'migrate']);
    assert.match(error ?? '', /config_version 7 needs the earlier steps too: run `warden migrate` \(WARDEN_ERR_CONFIG_INVALID\)$/);
    const all = await cli(dir, ['migrate', '--check'], { deps: { readHome: fakeDeps.readHome, migrate: (input) => fakeMigrate({ ...input, configText: input.configText.replace('config_version: 7', 'config_version: 8') }) } });
    assert.match(all.stdout, /^convert config_version 7 to 8$/m);
  });

  it('the warden-gateway form also lists removed keys and audit entries moved', async () => {
    const dir = home();
    const { stdout } = await cli(dir, ['config', 'migrate'], { name: 'warden-gateway', deps: auditDeps });
    assert.match(stdout, /^ {2}removed: skill_actions$/m);
    assert.match(stdout, /^ {2}removed: scanners\.skill_scanner\.binary$/m);
    assert.match(stdout, /^ {2}audit entry moved: actions#7 block skill evil-skill -> asset_policy\.skill\.denied$/m);
    const plain = await cli(home(), ['config', 'migrate'], { deps: auditDeps });
    assert.doesNotMatch(plain.stdout, /audit entry moved/);
  });

  it('refuses with one coded line when config.yaml changed while migrating, writing nothing', async () => {
    const dir = home();
    const racing: MigrationDeps = {
      readHome: fakeDeps.readHome,
      migrate(input) {
        writeFileSync(join(dir, 'config.yaml'), `${V8_CONFIG}# edited by hand meanwhile\n`);
        return fakeMigrate(input);
      },
    };
    const { error } = await cli(dir, ['migrate'], { deps: racing });
    assert.match(error ?? '', /changed while the migration ran; nothing was written .*\(WARDEN_ERR_MIGRATION_SOURCE_CHANGED\)$/);
    assert.equal(existsSync(join(dir, 'migration-v9.json')), false);
    assert.equal(existsSync(join(dir, 'config.yaml.v8.bak')), false);
  });

  it('the built CLI says there is nothing to migrate for a version 9 file (exit 0)', async () => {
    const fresh = tempHome();
    try {
      const result = await runCli(['config', 'migrate'], fresh.env);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /^nothing to migrate: .*config\.yaml is already config_version 9$/m);
    } finally {
      fresh.remove();
    }
  });
});

describe('warden upgrade and warden rollback', () => {
  /** A built package whose CLI is `script` (Node ESM reading process.argv and WARDEN_HOME). */
  function release(version: string, script: string): string {
    const dir = mkdtempSync(join(tmpdir(), 'warden-release-'));
    cleanup.push(dir);
    mkdirSync(join(dir, 'dist/cli'), { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'warden', version, type: 'module' }));
    writeFileSync(join(dir, 'dist/cli/warden.js'), script);
    chmodSync(join(dir, 'dist/cli/warden.js'), 0o755);
    return dir;
  }
  const OLD = `process.stdout.write('old release\\n');\n`;
  /** A new release whose migrate writes a version 9 file and a record, or fails after breaking config.yaml. */
  const NEW = (fail: 'check' | 'migrate' | 'no') => `import { writeFileSync } from 'node:fs';
const home = process.env.WARDEN_HOME;
const check = process.argv.includes('--check');
if (check) { if (${JSON.stringify(fail)} === 'check') { process.stderr.write('warden: cannot migrate (WARDEN_ERR_TEST)\\n'); process.exit(1); } process.exit(0); }
writeFileSync(home + '/config.yaml', 'config_version: 9\\n');
writeFileSync(home + '/migration-v9.json', '{}');
if (${JSON.stringify(fail)} === 'migrate') { process.stderr.write('warden: boom (WARDEN_ERR_TEST)\\n'); process.exit(1); }
process.stdout.write('migrated\\n');
`;
  function installed(): string {
    const dir = mkdtempSync(join(tmpdir(), 'warden-install-'));
    cleanup.push(dir);
    cpSync(release('0.8.4', OLD), dir, { recursive: true });
    return dir;
  }
  const cliOf = (dir: string) => readFileSync(join(dir, 'dist/cli/warden.js'), 'utf8');

  it('swaps the install, migrates with the new release, and rollback restores install and data together', async () => {
    const dir = home();
    const install = installed();
    const before = snapshot(dir);
    const up = await cli(dir, ['upgrade', release('0.9.0', NEW('no')), '--install-dir', install]);
    assert.equal(up.error, undefined);
    assert.match(up.stdout, /^migrated$/m);
    assert.match(up.stdout, /upgraded 0\.8\.4 -> 0\.9\.0; `warden rollback` restores 0\.8\.4/);
    assert.equal(cliOf(install), NEW('no'));
    assert.equal((JSON.parse(readFileSync(join(install, 'package.json'), 'utf8')) as { version: string }).version, '0.9.0');
    assert.equal(readFileSync(join(dir, 'config.yaml'), 'utf8'), 'config_version: 9\n');
    assert.equal(readFileSync(join(dir, 'rollback/point/data/config.yaml'), 'utf8'), V8_CONFIG);

    const back = await cli(dir, ['rollback', '--install-dir', install]);
    assert.equal(back.error, undefined);
    assert.match(back.stdout, /^restored 0\.8\.4 and its data as of /m);
    assert.equal(cliOf(install), OLD);
    const restored = snapshot(dir);
    for (const [file, content] of Object.entries(before)) assert.equal(restored[file], content, file);
    assert.equal(existsSync(join(dir, 'migration-v9.json')), false, 'what the migration created is gone');
  });

  it('restores the previous install and data when the new release fails to migrate', async () => {
    const dir = home();
    const install = installed();
    const before = snapshot(dir);
    const { error } = await cli(dir, ['upgrade', release('0.9.0', NEW('migrate')), '--install-dir', install]);
    assert.match(error ?? '', /migration failed, the previous install and data were restored: warden: boom \(WARDEN_ERR_TEST\) \(WARDEN_ERR_MIGRATION_UPGRADE_FAILED\)$/);
    assert.equal(cliOf(install), OLD);
    const after = snapshot(dir);
    for (const [file, content] of Object.entries(before)) assert.equal(after[file], content, file);
    assert.equal(existsSync(join(dir, 'migration-v9.json')), false);
  });

  it('changes nothing when the new release says the home cannot be migrated; takes an npm pack tarball', async () => {
    const dir = home();
    const install = installed();
    const before = snapshot(dir);
    const staged = mkdtempSync(join(tmpdir(), 'warden-pack-'));
    cleanup.push(staged);
    cpSync(release('0.9.0', NEW('check')), join(staged, 'package'), { recursive: true });
    const tarball = join(staged, 'warden-0.9.0.tgz');
    await create({ gzip: true, file: tarball, cwd: staged }, ['package']);
    const { error } = await cli(dir, ['upgrade', tarball, '--install-dir', install]);
    assert.match(error ?? '', /cannot migrate this home, nothing was changed: warden: cannot migrate \(WARDEN_ERR_TEST\)/);
    assert.equal(cliOf(install), OLD);
    assert.deepEqual(snapshot(dir), before);
  });

  it('refuses while a gateway runs from the home, changing nothing', async () => {
    const dir = home();
    const install = installed();
    writeFileSync(join(dir, 'gateway.json'), JSON.stringify({ pid: process.pid, sidecar: 'http://127.0.0.1:1', proxy: 'http://127.0.0.1:2', started_at: '' }));
    const before = snapshot(dir);
    for (const args of [['upgrade', release('0.9.0', NEW('no'))], ['rollback']]) {
      const { error } = await cli(dir, [...args, '--install-dir', install]);
      assert.match(error ?? '', /the gateway is running from this data home: stop it before .* \(WARDEN_ERR_MIGRATION_GATEWAY_RUNNING\)$/);
    }
    assert.equal(cliOf(install), OLD);
    assert.deepEqual(snapshot(dir), before);
  });

  it('rollback without a restore point says so in one coded line', async () => {
    const { error } = await cli(home(), ['rollback', '--install-dir', installed()]);
    assert.match(error ?? '', /no restore point in .*rollback.*\(WARDEN_ERR_MIGRATION_NO_RESTORE_POINT\)$/);
  });
});
