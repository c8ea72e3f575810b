// The files emitted from the schemas (docs/schemas/*.json, the generated sections of docs/configuration.md) are
// committed; this fails when one differs from what scripts/emit-schemas.ts produces now, so they cannot drift.
// The JSON Schemas are also checked by an independent validator (Ajv, what editors' YAML servers are built on)
// against every shipped file they describe, so an editor accepts what Warden ships and refuses what it refuses.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { parse } from 'yaml';
import { generatedFiles } from '../../scripts/emit-schemas.js';
import { ensureHome, wardenPaths } from '../../src/config/home.js';
import { DEFAULT_CONFIG_TEXT } from '../../src/config/write.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const yamlFiles = (dir: string) => readdirSync(join(ROOT, dir)).filter((f) => f.endsWith('.yaml')).map((f) => `${dir}/${f}`);

function validator(name: string): ValidateFunction {
  const ajv = new Ajv({ allErrors: true, strict: false });
  return ajv.compile(JSON.parse(read(`docs/schemas/${name}`)) as object);
}

function assertValid(check: ValidateFunction, path: string, data: unknown = parse(read(path))): void {
  assert.ok(check(data), `${path}: ${JSON.stringify(check.errors)}`);
}

describe('generated files', () => {
  for (const [path, content] of generatedFiles()) {
    test(`${path} is what scripts/emit-schemas.ts produces (run it after changing a schema)`, () => {
      assert.equal(read(path), content);
    });
  }
});

describe('emitted JSON Schemas accept what Warden ships', () => {
  test('config.schema.json: the default config.yaml passes; an unknown key and a wrong type do not', () => {
    const check = validator('config.schema.json');
    assertValid(check, 'DEFAULT_CONFIG_TEXT', parse(DEFAULT_CONFIG_TEXT));
    assert.equal(check({ config_version: 9, gateway: { bogus: 1 } }), false);
    assert.equal(check({ config_version: 9, guardrail: { mode: 'enforce' } }), false);
    assert.equal(check({ config_version: 8 }), false);
    assert.equal(check({ gateway: {} }), false, 'config_version is required');
  });

  test('a config.yaml Warden creates names that schema on its first line, for the YAML language server', () => {
    const home = mkdtempSync(join(tmpdir(), 'warden-schema-line-'));
    try {
      const paths = wardenPaths({ WARDEN_HOME: home });
      assert.equal(ensureHome(paths).createdConfig, true);
      const first = readFileSync(paths.config, 'utf8').split('\n')[0]!;
      const match = /^# yaml-language-server: \$schema=(file:\/\/\S+)$/.exec(first);
      assert.ok(match, first);
      assert.equal(readFileSync(new URL(match[1]!), 'utf8'), read('docs/schemas/config.schema.json'));
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  test('rule files and pack manifests of every shipped rule pack', () => {
    const rules = validator('rule-file.schema.json');
    const manifest = validator('rule-pack.schema.json');
    for (const pack of readdirSync(join(ROOT, 'policies/rules'))) {
      for (const path of yamlFiles(`policies/rules/${pack}`)) assertValid(path.endsWith('/pack.yaml') ? manifest : rules, path);
    }
    assert.equal(rules({ rules: [{ id: 'lowercase-id' }] }), false);
  });

  test('the injection cues, the providers, the scanner rules and presets', () => {
    assertValid(validator('injection-cues.schema.json'), 'policies/injection/cues.yaml');
    assertValid(validator('providers.schema.json'), 'policies/providers.yaml');
    const scannerRules = validator('scanner-rules.schema.json');
    for (const path of yamlFiles('policies/scanner/rules')) assertValid(scannerRules, path);
    const policy = validator('scanner-preset.schema.json');
    for (const path of yamlFiles('policies/scanner/presets')) assertValid(policy, path);
    assert.equal(policy({ min_severity: 'SEVERE' }), false);
  });
});
