// The gateway as users run it: the real CLI in a subprocess.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseEnv } from 'node:util';
import { authHeaders, runCli, spawnGateway } from '../helpers/gateway.js';
import { EPHEMERAL_CONFIG, tempHome } from '../helpers/home.js';

const tokenIn = (dir: string): string => (parseEnv(readFileSync(join(dir, '.env'), 'utf8')) as Record<string, string>).WARDEN_GATEWAY_TOKEN!;

describe('warden start', () => {
  it('first boot on embedded defaults: creates config.yaml and a 0600 .env token, serves 18970 and 4000', async () => {
    const home = tempHome(null);
    try {
      const gw = await spawnGateway(home.env);
      assert.equal(gw.sidecar, 'http://127.0.0.1:18970');
      assert.equal(gw.proxy, 'http://127.0.0.1:4000');
      assert.match(readFileSync(join(home.dir, 'config.yaml'), 'utf8'), /^config_version: 9$/m);
      assert.equal(statSync(join(home.dir, '.env')).mode & 0o777, 0o600);
      assert.equal(statSync(home.dir).mode & 0o777, 0o700);
      const token = tokenIn(home.dir);
      assert.match(token, /^[0-9a-f]{64}$/);
      assert.equal((await fetch(`${gw.sidecar}/status`, { headers: { authorization: `Bearer ${token}` } })).status, 200);
      assert.equal((await fetch(`${gw.proxy}/health`)).status, 200);
      assert.equal((await fetch(`${gw.proxy}/v1/chat/completions`, { method: 'POST' })).status, 401, 'the proxy wants credentials');
      assert.equal(statSync(join(home.dir, 'device.key')).mode & 0o777, 0o600, 'the master key source is owner-only');
      assert.equal(await gw.terminate(), 0);
      assert.ok(!gw.stderr().includes(token), 'the token never appears in logs');
    } finally {
      home.remove();
    }
  });

  it('stops gracefully on a SIGTERM sent the moment the ready line appears', async () => {
    const home = tempHome();
    try {
      const gw = await spawnGateway(home.env); // resolves on the ready line; the signal follows at once
      assert.equal(await gw.terminate('SIGTERM'), 0);
    } finally {
      home.remove();
    }
  });

  it('keeps an existing .env token and the other variables in .env', async () => {
    const home = tempHome();
    try {
      writeFileSync(join(home.dir, '.env'), 'OTHER=1\nWARDEN_GATEWAY_TOKEN=kept-token\n', { mode: 0o600 });
      const gw = await spawnGateway(home.env);
      assert.equal((await fetch(`${gw.sidecar}/status`, { headers: { 'x-warden-token': 'kept-token' } })).status, 200);
      await gw.terminate();
      assert.equal(readFileSync(join(home.dir, '.env'), 'utf8'), 'OTHER=1\nWARDEN_GATEWAY_TOKEN=kept-token\n');
    } finally {
      home.remove();
    }
  });

  it('loses no audit row on SIGTERM and finds them all after a restart', async () => {
    const home = tempHome(EPHEMERAL_CONFIG, { WARDEN_GATEWAY_TOKEN: 'restart-token' });
    try {
      let gw = await spawnGateway(home.env);
      const posts = Array.from({ length: 300 }, (_, i) =>
        fetch(`${gw.sidecar}/audit/event`, {
          method: 'POST', headers: authHeaders('restart-token'), body: JSON.stringify({ action: `row-${i}`, severity: 'MEDIUM' }),
        }).then((r) => r.status),
      );
      assert.ok((await Promise.all(posts)).every((s) => s === 200));
      assert.equal(await gw.terminate('SIGTERM'), 0);
      assert.ok(!existsSync(join(home.dir, 'gateway.json')), 'the process record is removed on exit');

      gw = await spawnGateway(home.env);
      const alerts = (await (await fetch(`${gw.sidecar}/alerts?limit=500`, { headers: authHeaders('restart-token') })).json()) as {
        alerts: { action: string }[];
      };
      assert.equal(alerts.alerts.length, 300);
      const expected = Array.from({ length: 300 }, (_, i) => `row-${i}`).sort();
      assert.deepEqual(alerts.alerts.map((a) => a.action).sort(), expected);
      assert.equal(await gw.terminate('SIGINT'), 0);
      const exported = await runCli(['audit', 'export'], home.env);
      assert.equal(exported.stdout.trim().split('\n').length, 300);
    } finally {
      home.remove();
    }
  });

  it('binds as the bind rule says: inherited standalone guardrail host, explicit api_bind', async () => {
    const standalone = tempHome(`${EPHEMERAL_CONFIG}  host: 127.0.0.2\nopenshell:\n  mode: standalone\n`, { WARDEN_GATEWAY_TOKEN: 't' });
    const explicit = tempHome(`${EPHEMERAL_CONFIG}  host: 127.0.0.2\nopenshell:\n  mode: standalone\n`.replace('  api_port: 0\n', '  api_port: 0\n  api_bind: 127.0.0.3\n'), { WARDEN_GATEWAY_TOKEN: 't' });
    try {
      const a = await spawnGateway(standalone.env);
      assert.match(a.sidecar, /^http:\/\/127\.0\.0\.2:\d+$/);
      assert.doesNotMatch(a.stderr(), /non-loopback/);
      await a.terminate();
      const b = await spawnGateway(explicit.env);
      assert.match(b.sidecar, /^http:\/\/127\.0\.0\.3:\d+$/);
      await b.terminate();
      const open = tempHome(EPHEMERAL_CONFIG.replace('  api_port: 0\n', '  api_port: 0\n  api_bind: 0.0.0.0\n'), { WARDEN_GATEWAY_TOKEN: 't' });
      const c = await spawnGateway(open.env);
      open.remove();
      assert.match(c.stderr(), /non-loopback address/);
      await c.terminate();
    } finally {
      standalone.remove();
      explicit.remove();
    }
  });

  it('refuses a bad config with one line naming file, line and key, and no stack trace', async () => {
    const home = tempHome('config_version: 9\ngateway:\n  api_port: 18970\n  bogus: true\n');
    try {
      const result = await runCli(['start'], home.env);
      assert.equal(result.code, 1);
      assert.match(result.stderr, /config\.yaml:4: unknown key "gateway\.bogus"/);
      assert.doesNotMatch(result.stderr, /\n\s+at /);
      assert.match(result.stderr, /\(WARDEN_ERR_CONFIG_INVALID\)\n$/, 'an operator error ends with its code');
    } finally {
      home.remove();
    }
  });

  it('exits with a clear message when its port is taken', async () => {
    const home = tempHome(EPHEMERAL_CONFIG, { WARDEN_GATEWAY_TOKEN: 't' });
    const gw = await spawnGateway(home.env);
    const port = new URL(gw.sidecar).port;
    const other = tempHome(`config_version: 9\ngateway:\n  api_port: ${port}\nguardrail:\n  port: 0\n`, { WARDEN_GATEWAY_TOKEN: 't' });
    try {
      const result = await runCli(['start'], other.env);
      assert.equal(result.code, 1);
      assert.match(result.stderr, /EADDRINUSE/);
      assert.match(result.stderr, /^warden: the sidecar API \(gateway\.api_port\) cannot listen on .*\(WARDEN_ERR_CONFIG_PORT_IN_USE\)\n$/, 'one line with its code, no stack');
    } finally {
      await gw.terminate();
      home.remove();
      other.remove();
    }
  });
});

describe('warden setup rotate-token', () => {
  it('replaces the .env token and restarts the running gateway onto it', async () => {
    const home = tempHome();
    try {
      const gw = await spawnGateway(home.env);
      const oldToken = tokenIn(home.dir);
      const refused = await runCli(['setup', 'rotate-token'], home.env);
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /--yes/);
      assert.equal(tokenIn(home.dir), oldToken);

      const rotated = await runCli(['setup', 'rotate-token', '--yes'], home.env);
      assert.equal(rotated.code, 0, rotated.stderr);
      assert.match(rotated.stdout, /restarted with the new token/);
      const newToken = tokenIn(home.dir);
      assert.notEqual(newToken, oldToken);
      const { sidecar } = JSON.parse(readFileSync(join(home.dir, 'gateway.json'), 'utf8')) as { sidecar: string };
      assert.equal((await fetch(`${sidecar}/status`, { headers: { authorization: `Bearer ${oldToken}` } })).status, 401);
      assert.equal((await fetch(`${sidecar}/status`, { headers: { authorization: `Bearer ${newToken}` } })).status, 200);
      assert.equal(await gw.terminate(), 0);
    } finally {
      home.remove();
    }
  });

  it('refuses to rotate a token that comes from the environment', async () => {
    const home = tempHome(EPHEMERAL_CONFIG, { WARDEN_GATEWAY_TOKEN: 'from-env' });
    try {
      const result = await runCli(['setup', 'rotate-token', '--yes'], home.env);
      assert.equal(result.code, 1);
      assert.match(result.stderr, /comes from environment WARDEN_GATEWAY_TOKEN/);
    } finally {
      home.remove();
    }
  });
});

describe('warden status and doctor', () => {
  it('status summarises a running gateway, and fails clearly when none runs', async () => {
    const home = tempHome();
    try {
      const down = await runCli(['status'], { ...home.env });
      assert.equal(down.code, 1);
      assert.match(down.stderr, /gateway not reachable at http:\/\/127\.0\.0\.1:0/);
      const gw = await spawnGateway(home.env);
      const up = await runCli(['status'], home.env);
      assert.equal(up.code, 0, up.stderr);
      assert.match(up.stdout, /^Warden 0\.1\.0: \w+ \(pid \d+, up \d+s\)/);
      assert.match(up.stdout, /sidecar\s+running/);
      assert.match(up.stdout, /claudecode\s+observability, action, hooks fail closed/);
      const json = await runCli(['status', '--json'], home.env);
      assert.equal((JSON.parse(json.stdout) as { runtime: { pid: number } }).runtime.pid, gw.proc.pid);
      await gw.terminate();
    } finally {
      home.remove();
    }
  });

  it('doctor prints one row per check and fails on a broken config', async () => {
    const home = tempHome();
    try {
      const gw = await spawnGateway(home.env);
      const ok = await runCli(['doctor'], home.env);
      assert.equal(ok.code, 0, ok.stdout + ok.stderr);
      const rows = ok.stdout.trim().split('\n');
      assert.deepEqual(rows.map((r) => r.split(/\s{2,}/)[1]), ['data dir', 'config', 'token', 'rule pack', 'sidecar port', 'proxy port', 'database']);
      assert.ok(rows.every((r) => r.startsWith('OK')), ok.stdout);
      await gw.terminate();

      writeFileSync(join(home.dir, 'config.yaml'), 'config_version: 9\nguardrail:\n  mode: loud\n');
      const broken = await runCli(['doctor'], home.env);
      assert.equal(broken.code, 1);
      assert.match(broken.stdout, /^FAIL\s+config\s+.*guardrail\.mode: must be one of "observe", "action"/m);
    } finally {
      home.remove();
    }
  });

  it('every command has --help', async () => {
    for (const args of [[], ['start'], ['status'], ['doctor'], ['setup'], ['setup', 'rotate-token'], ['audit'], ['audit', 'export']]) {
      const result = await runCli([...args, '--help'], process.env);
      assert.equal(result.code, 0, args.join(' '));
      assert.match(result.stdout, /^Usage: warden/m, args.join(' '));
    }
  });
});
