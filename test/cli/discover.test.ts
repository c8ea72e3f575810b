// `warden discover` as the real CLI subprocess (dist/) on the fixture home folder: the table and the JSON report,
// `--root` replacing the configured roots, no key value printed, and the scan recorded in discovery.db when the
// data directory exists (and nothing created when it does not).
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DiscoveryStore } from '../../src/discovery/store.js';
import type { ScanReport } from '../../src/discovery/types.js';
import { aiHome, SECRET_KEY_VALUE, type AiHome } from '../helpers/ai-home.js';
import { runCli } from '../helpers/gateway.js';
import { tempHome, type TempHome } from '../helpers/home.js';

describe('warden discover', () => {
  let fx: AiHome;
  let data: TempHome;

  before(async () => {
    fx = await aiHome();
    data = tempHome(`config_version: 9\nai_discovery:\n  roots: ["${join(fx.home, 'nowhere')}"]\n  probe_ports: [${fx.ollamaPort}]\n`, { HOME: fx.home, OPENAI_API_KEY: SECRET_KEY_VALUE });
  });
  after(async () => {
    data.remove();
    await fx.close();
  });

  test('a table of what was found, by confidence; --root replaces the configured roots', async () => {
    const { code, stdout, stderr } = await runCli(['discover', '--root', fx.projects], data.env);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^AI usage on \S+: \d+ signals, \d+ components/);
    assert.match(stdout, /\n {2}high +0\.84 +local_model +Ollama +listening_port, api_probe\n/);
    assert.match(stdout, /\n {2}medium +0\.60 +sdk +async-openai +dependency\n/);
    assert.match(stdout, /\n {2}low +0\.30 +provider_key +OPENAI_API_KEY +env_key\n/);
    assert.match(stdout, /model llama3\.2:1b \(ollama at http:\/\/127\.0\.0\.1:\d+\)/);
    assert.ok(!stdout.includes(SECRET_KEY_VALUE));
    const store = new DiscoveryStore(join(data.dir, 'discovery.db'));
    try {
      assert.ok(store.latest()?.components.some((c) => c.name === 'async-openai'));
    } finally {
      store.close();
    }
  });

  test('--json prints the report; without --root the configured roots hold no projects', async () => {
    const { code, stdout } = await runCli(['discover', '--json'], data.env);
    assert.equal(code, 0);
    const report = JSON.parse(stdout) as ScanReport;
    assert.equal(report.source, 'scan');
    assert.ok(report.signals.some((s) => s.id === 'agent:claude-code'));
    assert.ok(!report.signals.some((s) => s.category === 'sdk'));
  });

  test('without a data directory nothing is created', async () => {
    const missing = join(mkdtempSync(join(tmpdir(), 'warden-nohome-')), 'absent');
    const { code } = await runCli(['discover', '--json', '--root', fx.projects], { ...data.env, WARDEN_HOME: missing });
    assert.equal(code, 0);
    assert.equal(existsSync(missing), false);
    rmSync(join(missing, '..'), { recursive: true, force: true });
  });
});
