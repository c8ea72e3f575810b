// A version 8 config.yaml at the gateway (spec document 1, "Versioning"): migrated in memory, read-only, at
// start and on reload; a failure at start exits telling the operator to run `warden migrate`, a failure on
// reload keeps the running configuration. The migration is the stand-in of test/migration/helpers (the rules
// have their own tests); the gateway is the real one, answering HTTP on ephemeral ports.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startGateway } from '../../src/gateway/runtime.js';
import type { MigrationDeps } from '../../src/migration/run.js';
import { DATA_JSON, fakeDeps, fakeMigrate, V8_CONFIG, writeV8Home } from '../migration/helpers/fake-migration.js';

const homes: string[] = [];
after(() => homes.forEach((home) => rmSync(home, { recursive: true, force: true })));
const envOf = (home: string) => ({ PATH: process.env.PATH, HOME: home, WARDEN_HOME: home, WARDEN_GATEWAY_TOKEN: 'legacy-test-token', WARDEN_LOG_LEVEL: 'silent' });

/** Refuses a file holding `# refuse`, as a rule refuses what it cannot migrate. */
const pickyDeps: MigrationDeps = {
  readHome: fakeDeps.readHome,
  migrate(input) {
    if (input.configText.includes('# refuse')) throw new Error('rule 5: rule pack /nowhere cannot be loaded');
    return fakeMigrate(input);
  },
};

describe('a version 8 config.yaml at the gateway', () => {
  it('is migrated in memory at start, and nothing is written', async () => {
    const home = writeV8Home();
    homes.push(home);
    const gateway = await startGateway(envOf(home), { migration: pickyDeps });
    try {
      assert.equal(gateway.settings.config.config_version, 9);
      assert.equal(gateway.settings.migratedFrom, 8);
      assert.equal(gateway.settings.config.guardrail.mode, 'observe', 'the operator\'s value is in force');
      const health = await fetch(`${gateway.sidecarUrl}/health`);
      assert.equal(health.status, 200);
    } finally {
      await gateway.stop();
    }
    assert.equal(readFileSync(join(home, 'config.yaml'), 'utf8'), V8_CONFIG);
    assert.equal(readFileSync(join(home, 'policies/rego/data.json'), 'utf8'), DATA_JSON);
    assert.equal(readFileSync(join(home, '.env'), 'utf8'), 'WARDEN_GATEWAY_TOKEN=t\n');
    for (const file of ['config.yaml.v8.bak', 'migration-v9.json', 'config.generation.json', 'migration-v9.pending.json', 'rules']) {
      assert.equal(existsSync(join(home, file)), false, `${file} is not written by the gateway`);
    }
  });

  it('is migrated again on reload; a reload that cannot migrate keeps the running configuration', async () => {
    const home = writeV8Home();
    homes.push(home);
    const gateway = await startGateway(envOf(home), { migration: pickyDeps });
    try {
      writeFileSync(join(home, 'config.yaml'), `${V8_CONFIG.replace('mode: observe', 'mode: action')}# refuse\n`);
      await gateway.restart();
      assert.equal(gateway.settings.config.guardrail.mode, 'observe', 'the previous configuration is kept');
      assert.equal((await fetch(`${gateway.sidecarUrl}/health`)).status, 200, 'and still served');

      writeFileSync(join(home, 'config.yaml'), V8_CONFIG.replace('mode: observe', 'mode: action'));
      await gateway.restart();
      assert.equal(gateway.settings.config.guardrail.mode, 'action', 'the edited version 8 file is in force');
      assert.equal(gateway.settings.config.config_version, 9);
    } finally {
      await gateway.stop();
    }
    assert.equal(existsSync(join(home, 'migration-v9.json')), false);
  });

  it('that cannot be migrated stops the start, telling the operator to run `warden migrate`', async () => {
    const home = writeV8Home(`${V8_CONFIG}# refuse\n`);
    homes.push(home);
    await assert.rejects(startGateway(envOf(home), { migration: pickyDeps }), (err: Error & { code?: string }) => {
      assert.equal(err.code, 'WARDEN_ERR_CONFIG_INVALID');
      assert.match(err.message, /config_version 8 could not be migrated in memory \(rule 5: rule pack \/nowhere cannot be loaded\); run `warden migrate`/);
      return true;
    });
    assert.equal(readFileSync(join(home, 'config.yaml'), 'utf8'), `${V8_CONFIG}# refuse\n`);
  });
});
