import assert from 'node:assert/strict';
import { chmodSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ConfigError, loadConfigFile, parseConfig } from '../../src/config/load.js';
import { updateConfigFile, DEFAULT_CONFIG_TEXT } from '../../src/config/write.js';
import { tempHome } from '../helpers/home.js';

const FILE = '/etc/warden/config.yaml';
const errorOf = (text: string): string => {
  try {
    parseConfig(text, FILE);
  } catch (err) {
    assert.ok(err instanceof ConfigError, `expected ConfigError, got ${String(err)}`);
    return err.message;
  }
  assert.fail('config was accepted');
};

describe('config.yaml loading', () => {
  it('fills every default from a minimal file', () => {
    const config = parseConfig('config_version: 9\n', FILE);
    assert.equal(config.gateway.api_port, 18970);
    assert.equal(config.gateway.api_bind, '');
    assert.equal(config.guardrail.port, 4000);
    assert.equal(config.guardrail.mode, 'action');
    assert.equal(config.guardrail.rule_pack, 'default');
    assert.equal(config.openshell.enabled, false);
    assert.equal(config.fleet.enabled, false);
    assert.equal(config.llm.base_url, 'https://api.openai.com');
    assert.deepEqual(config.llm_providers.custom, []);
  });

  it('accepts the default file written on first start', () => {
    assert.equal(parseConfig(DEFAULT_CONFIG_TEXT, FILE).config_version, 9);
  });

  it('names the file, line and key of a wrongly typed value', () => {
    const message = errorOf('config_version: 9\ngateway:\n  api_port: "eighty"\n');
    assert.match(message, /\/etc\/warden\/config\.yaml:3: gateway\.api_port: must be integer/);
  });

  it('rejects an out-of-range port', () => {
    assert.match(errorOf('config_version: 9\nguardrail:\n  port: 70000\n'), /guardrail\.port: must be <= 65535/);
  });

  it('lists the allowed values of an enum', () => {
    const message = errorOf('config_version: 9\nguardrail:\n  mode: enforce\n');
    assert.match(message, /config\.yaml:3: guardrail\.mode: must be one of "observe", "action"/);
  });

  it('rejects unknown keys at any depth with their dotted name', () => {
    assert.match(errorOf('config_version: 9\ngateway:\n  api_prot: 1\n'), /config\.yaml:3: unknown key "gateway\.api_prot"/);
    assert.match(errorOf('config_version: 9\nguardrails: {}\n'), /unknown key "guardrails"/);
    assert.match(
      errorOf('config_version: 9\nllm_providers:\n  custom:\n    - name: x\n      domains: [x.example]\n      extra: 1\n'),
      /unknown key "llm_providers\.custom\.0\.extra"/,
    );
  });

  it('refuses a newer config_version, naming it', () => {
    assert.match(errorOf('config_version: 10\n'), /config_version 10 is newer than this Warden supports \(9\)/);
  });

  it('refuses version 8 (and 7) without a migration, naming the command that migrates it', () => {
    for (const version of [7, 8]) {
      const message = errorOf(`config_version: ${version}\n`);
      assert.match(message, new RegExp(`config_version ${version} must be migrated to 9 first: run \`warden migrate\``));
      assert.match(message, /`warden migrate --check` lists what would change/);
    }
  });

  it('refuses a version too old to migrate, saying what the operator can do now', () => {
    const message = errorOf('config_version: 6\n');
    assert.match(message, /config_version 6 is not supported: this release reads config_version 9 only/);
    assert.match(message, /rename it to \/etc\/warden\/config\.yaml\.v6 so the next `warden start` writes a fresh version 9 file/);
  });

  it('loads version 8 through an injected migration, reporting where it came from', () => {
    const home = tempHome('config_version: 8\nguardrail:\n  mode: observe\n');
    try {
      const seen: Array<[string, number]> = [];
      const legacy = (text: string, _path: string, version: number) => {
        seen.push([text, version]);
        return 'config_version: 9\nguardrail:\n  mode: observe\n';
      };
      const loaded = loadConfigFile(join(home.dir, 'config.yaml'), { legacy });
      assert.equal(loaded.config.config_version, 9);
      assert.equal(loaded.config.guardrail.mode, 'observe');
      assert.equal(loaded.migratedFrom, 8);
      assert.deepEqual(seen, [['config_version: 8\nguardrail:\n  mode: observe\n', 8]]);
      assert.equal(parseConfig('config_version: 9\n', FILE, { legacy }).config_version, 9);
      assert.equal(seen.length, 1, 'a version 9 file is not handed to the migration');
      // What the migration returns is validated like any file.
      assert.throws(() => parseConfig('config_version: 8\n', FILE, { legacy: () => 'config_version: 9\nbogus: 1\n' }), /unknown key "bogus"/);
    } finally {
      home.remove();
    }
  });

  it('requires config_version', () => {
    assert.match(errorOf('gateway: {}\n'), /config_version: missing/);
  });

  it('reports invalid YAML with its line', () => {
    assert.match(errorOf('config_version: 9\ngateway:\n  api_port: [1,\n'), /config\.yaml:\d+: invalid YAML/);
  });

  it('names the file it cannot read', () => {
    assert.throws(() => loadConfigFile('/nonexistent/warden/config.yaml'), /cannot read config file \/nonexistent\/warden\/config\.yaml/);
  });
});

describe('config.yaml writing', () => {
  it('keeps comments and other keys, validates, and replaces the file atomically', () => {
    const home = tempHome('# operator note\nconfig_version: 9\ngateway:\n  api_port: 18970 # keep this port\n');
    try {
      const path = join(home.dir, 'config.yaml');
      const config = updateConfigFile(path, (doc) => doc.setIn(['guardrail', 'mode'], 'observe'));
      assert.equal(config.guardrail.mode, 'observe');
      const text = readFileSync(path, 'utf8');
      assert.match(text, /# operator note/);
      assert.match(text, /api_port: 18970 # keep this port/);
      assert.equal(loadConfigFile(path).config.guardrail.mode, 'observe');
      assert.deepEqual(readdirSync(home.dir).filter((f) => f.endsWith('.tmp')), [], 'no temp file left behind');
    } finally {
      home.remove();
    }
  });

  it('writes nothing when the edit would make the file invalid', () => {
    const home = tempHome('config_version: 9\n');
    try {
      const path = join(home.dir, 'config.yaml');
      const before = readFileSync(path, 'utf8');
      assert.throws(() => updateConfigFile(path, (doc) => doc.setIn(['gateway', 'api_port'], -1)), /gateway\.api_port/);
      assert.equal(readFileSync(path, 'utf8'), before);
    } finally {
      home.remove();
    }
  });

  it('keeps the file mode of the config it replaces', () => {
    const home = tempHome('config_version: 9\n');
    try {
      const path = join(home.dir, 'config.yaml');
      chmodSync(path, 0o640);
      updateConfigFile(path, (doc) => doc.setIn(['fleet', 'enabled'], true));
      assert.equal(statSync(path).mode & 0o777, 0o640);
    } finally {
      home.remove();
    }
  });
});
