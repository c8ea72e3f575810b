// `warden doctor`'s migration row: shown until the record is acknowledged, a warning while it has conflicts,
// and a warning for a version 8 file still on disk or a migration interrupted after its commit point.
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runChecks } from '../../src/cli/doctor-checks.js';
import { runMigration } from '../../src/migration/run.js';
import { migrationStatus } from '../../src/migration/status.js';
import type { MigrationDeps } from '../../src/migration/run.js';
import { runCli } from '../helpers/gateway.js';
import { fakeDeps, fakeMigrate, writeV8Home } from './helpers/fake-migration.js';

const homes: string[] = [];
after(() => homes.forEach((home) => rmSync(home, { recursive: true, force: true })));
const newHome = () => {
  const home = writeV8Home();
  homes.push(home);
  return home;
};
const envOf = (home: string) => ({ PATH: process.env.PATH, HOME: home, WARDEN_HOME: home, WARDEN_GATEWAY_TOKEN: 't' });
const rowOf = async (home: string, name: string) => (await runChecks(envOf(home), fakeDeps)).find((c) => c.name === name);
/** The migration row alone (what runChecks adds as is; the rest of doctor's checks take a second a run). */
const migrationRow = async (home: string) => {
  const status = migrationStatus(home);
  return status && { name: 'migration', ...status };
};

describe('warden doctor and the migration', () => {
  it('a version 8 home: the config is checked migrated in memory, and a row says to run `warden migrate`', async () => {
    const home = newHome();
    assert.deepEqual(await rowOf(home, 'config'), { name: 'config', outcome: 'ok', detail: `${join(home, 'config.yaml')} (config_version 8, migrated in memory)` });
    const row = await rowOf(home, 'migration');
    assert.equal(row?.outcome, 'warn');
    assert.match(row?.detail ?? '', /config_version 8: .*run `warden migrate` to write it/);
  });

  it('a migrated home: a warning while the record has conflicts, no row once acknowledged', async () => {
    const home = newHome();
    await runMigration(fakeDeps, home);
    const row = await migrationRow(home);
    assert.equal(row?.outcome, 'warn');
    assert.match(row?.detail ?? '', /^migrated from config_version 8 on 2026-01-02 with 1 conflict \(`warden config migrate --json` lists them\); run `warden config migrate --ack` once read$/);
    await runMigration(fakeDeps, home, { ack: true });
    assert.equal(await migrationRow(home), undefined);
  });

  it('a migration without conflicts: an ok row until acknowledged', async () => {
    const home = newHome();
    const clean: MigrationDeps = { readHome: fakeDeps.readHome, migrate: (input) => ({ ...fakeMigrate(input), record: { ...fakeMigrate(input).record, conflicts: [] } }) };
    await runMigration(clean, home);
    const row = await migrationRow(home);
    assert.equal(row?.outcome, 'ok');
    assert.match(row?.detail ?? '', /--ack` once read$/);
  });

  it('a migration stopped after its commit: a warning to finish it, gone once `warden migrate` ran', async () => {
    const home = newHome();
    await assert.rejects(runMigration(fakeDeps, home, { onStep: (step) => { if (step === 'commit') throw new Error('stopped'); } }), /stopped/);
    const row = await migrationRow(home);
    assert.equal(row?.outcome, 'warn');
    assert.match(row?.detail ?? '', /interrupted migration has file moves left: run `warden migrate`/);
    const finished = await runMigration(fakeDeps, home);
    assert.equal(finished.status === 'nothing-to-do' && finished.finishedInterrupted, true);
    assert.notEqual((await migrationRow(home))?.detail.includes('interrupted'), true);
  });

  it('a client-managed profile: an ok row saying its client migrates it', async () => {
    const home = newHome();
    writeFileSync(join(home, 'client-managed'), 'corp-agent\n');
    assert.equal((await migrationRow(home))?.outcome, 'ok');
  });

  it('the built `warden doctor` prints the row', async () => {
    const home = newHome();
    await runMigration(fakeDeps, home);
    const result = await runCli(['doctor'], envOf(home));
    assert.match(result.stdout, /^WARN {2}migration {6}migrated from config_version 8 on 2026-01-02 with 1 conflict/m);
  });
});
