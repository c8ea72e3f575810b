// The upstream agent gateway bridge against the real OpenClaw gateway (started offline from the npm package):
// the handshake and hello in /status, the skill inventory and tools catalog, skill and plugin enablement
// visible upstream, a config patch applied upstream (and read back by GET /mcps), enforcement calling the
// bridge, a disconnect in the middle of a call (502), calls while it is down (502 at once) and the reconnect
// once the gateway is back. One OpenClaw gateway for the file; it is restarted once, on purpose.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { authHeaders, startInProcess, type InProcessGateway } from '../helpers/gateway.js';
import { freePort, openclawInstalled, startOpenClaw, type OpenClawGateway } from '../helpers/openclaw.js';

const TOKEN = 'bridge-test-token';
const UPSTREAM_TOKEN = 'openclaw-shared-token';
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers are probed field by field
type Json = Record<string, any>;

describe('upstream bridge against the real OpenClaw gateway', () => {
  let home: string;
  let port: number;
  let openclaw: OpenClawGateway;
  let gw: InProcessGateway;

  const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; json: Json; ms: number }> => {
    const started = Date.now();
    const response = await fetch(`${gw.url}${path}`, {
      method, headers: authHeaders(TOKEN), ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, json: text ? (JSON.parse(text) as Json) : {}, ms: Date.now() - started };
  };
  const waitForHello = async (timeoutMs = 60_000): Promise<Json> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { json } = await call('GET', '/status');
      if (json.gateway_hello) return json.gateway_hello as Json;
      if (Date.now() > deadline) throw new Error('the bridge did not connect');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const openclawConfig = () => JSON.parse(readFileSync(join(openclaw.stateDir, 'openclaw.json'), 'utf8')) as Json;
  const skill = async (key: string) => ((await call('GET', '/skills')).json.skills as Json[]).find((s) => s.skillKey === key)!;
  // OpenClaw acknowledges skills.update once the config is written and reloads it just after: poll its status.
  const skillDisabledBecomes = async (key: string, disabled: boolean) => {
    const deadline = Date.now() + 15_000;
    while ((await skill(key)).disabled !== disabled) {
      if (Date.now() > deadline) assert.fail(`skill ${key} never became disabled=${disabled}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  before(async () => {
    // Never skipped: a machine without the fixture fails here, saying how to install it.
    assert.ok(openclawInstalled, 'test/fixtures/openclaw is not installed: run scripts/bootstrap.sh (npm ci --prefix test/fixtures/openclaw)');
    home = mkdtempSync(join(tmpdir(), 'warden-openclaw-'));
    port = await freePort();
    openclaw = await startOpenClaw(home, port, UPSTREAM_TOKEN);
    gw = await startInProcess(`config_version: 9
gateway:
  api_port: 0
  port: ${port}
guardrail:
  port: 0
  connector: openclaw
`, { WARDEN_GATEWAY_TOKEN: TOKEN, OPENCLAW_GATEWAY_TOKEN: UPSTREAM_TOKEN, HOME: home });
    await waitForHello();
  });
  after(async () => {
    await gw?.close();
    await openclaw?.stop();
    rmSync(home, { recursive: true, force: true });
  });

  it('connects with a signed device identity: /status shows the hello, never a device token', async () => {
    const { json } = await call('GET', '/status');
    const hello = json.gateway_hello as Json;
    assert.equal(hello.protocol, 4);
    assert.equal(hello.server.version, '2026.9.6');
    assert.equal(hello.role, 'operator');
    assert.ok(hello.scopes.includes('operator.admin'), JSON.stringify(hello));
    assert.ok(hello.methods > 10);
    assert.doesNotMatch(JSON.stringify(json), /deviceToken|device_token/);
    const key = statSync(join(gw.home.dir, 'upstream-device.pem'));
    assert.equal(key.mode & 0o777, 0o600);
  });

  it('GET /skills and GET /tools/catalog answer the upstream payloads', async () => {
    const skills = await call('GET', '/skills');
    assert.equal(skills.status, 200);
    assert.ok(Array.isArray(skills.json.skills) && skills.json.skills.length > 0);
    assert.ok(skills.json.skills.some((s: Json) => s.skillKey === 'weather'));
    const catalog = await call('GET', '/tools/catalog');
    assert.equal(catalog.status, 200);
    const tools = (catalog.json.groups as Json[]).flatMap((g) => g.tools as Json[]).map((t) => t.id);
    assert.ok(tools.includes('read') && tools.includes('exec'), tools.join(','));
  });

  it('POST /skill/disable and /skill/enable change what the next skills status says', async () => {
    assert.equal((await skill('weather')).disabled, false);
    const disabled = await call('POST', '/skill/disable', { skillKey: 'weather' });
    assert.deepEqual([disabled.status, disabled.json], [200, { status: 'disabled', skillKey: 'weather' }]);
    await skillDisabledBecomes('weather', true);
    const enabled = await call('POST', '/skill/enable', { skillKey: 'weather' });
    assert.deepEqual([enabled.status, enabled.json], [200, { status: 'enabled', skillKey: 'weather' }]);
    await skillDisabledBecomes('weather', false);
  });

  it('POST /plugin/disable and /plugin/enable write plugins.entries.<id>.enabled upstream', async () => {
    const disabled = await call('POST', '/plugin/disable', { pluginId: 'xai' });
    assert.deepEqual([disabled.status, disabled.json], [200, { status: 'disabled', pluginId: 'xai' }]);
    assert.equal(openclawConfig().plugins.entries.xai.enabled, false);
    const enabled = await call('POST', '/plugin/enable', { pluginId: 'xai' });
    assert.deepEqual([enabled.status, enabled.json], [200, { status: 'enabled', pluginId: 'xai' }]);
    assert.equal(openclawConfig().plugins.entries.xai.enabled, true);
  });

  it('POST /config/patch applies upstream (not to config.yaml), and GET /mcps reads the connector\'s servers', async () => {
    const before = readFileSync(join(gw.home.dir, 'config.yaml'), 'utf8');
    const server = { command: 'node', args: ['demo-server.js'] };
    const patched = await call('POST', '/config/patch', { path: 'mcp.servers.warden-demo', value: server });
    assert.equal(patched.status, 200, JSON.stringify(patched.json));
    assert.equal(patched.json.status, 'patched');
    assert.deepEqual(openclawConfig().mcp.servers['warden-demo'], server);
    assert.equal(readFileSync(join(gw.home.dir, 'config.yaml'), 'utf8'), before);
    const mcps = await call('GET', '/mcps');
    assert.equal(mcps.status, 200);
    assert.deepEqual(mcps.json.map((m: Json) => [m.name, m.command, m.args]), [['warden-demo', 'node', ['demo-server.js']]]);
  });

  it('a config patch the upstream refuses is 502 with its reason; a prototype path is 400', async () => {
    const refused = await call('POST', '/config/patch', { path: 'tools.profile', value: 'no-such-profile' });
    assert.equal(refused.status, 502);
    assert.equal(refused.json.code, 'WARDEN_ERR_UPSTREAM_CALL_FAILED');
    const bad = await call('POST', '/config/patch', { path: 'a.__proto__.b', value: 1 });
    assert.deepEqual([bad.status, bad.json.code], [400, 'WARDEN_ERR_UPSTREAM_CONFIG_PATH']);
  });

  it('an enforcement block and allow of a skill disable and enable it upstream', async () => {
    const blocked = await call('POST', '/enforce/block', { target_type: 'skill', name: 'weather', reason: 'test' });
    assert.deepEqual([blocked.status, blocked.json.upstream], [200, 'disabled']);
    await skillDisabledBecomes('weather', true);
    const allowed = await call('POST', '/enforce/allow', { target_type: 'skill', name: 'weather' });
    assert.deepEqual([allowed.status, allowed.json.upstream], [200, 'enabled']);
    await skillDisabledBecomes('weather', false);
  });

  it('a handshake the gateway refuses (wrong token) leaves calls failing with 502 and the reason', async () => {
    const wrong = await startInProcess(`config_version: 9
gateway:
  api_port: 0
  port: ${port}
  upstream_enabled: true
guardrail:
  port: 0
`, { WARDEN_GATEWAY_TOKEN: TOKEN, OPENCLAW_GATEWAY_TOKEN: 'not-the-token', HOME: home });
    try {
      const deadline = Date.now() + 20_000;
      let answer: Json = {};
      let status = 0;
      while (!/handshake refused/.test(String(answer.error))) {
        if (Date.now() > deadline) assert.fail(`no refusal reported: ${JSON.stringify(answer)}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
        const response = await fetch(`${wrong.url}/skills`, { headers: authHeaders(TOKEN) });
        status = response.status;
        answer = (await response.json()) as Json;
      }
      assert.deepEqual([status, answer.code], [502, 'WARDEN_ERR_UPSTREAM_DISCONNECTED']);
      assert.doesNotMatch(JSON.stringify(answer), /not-the-token|openclaw-shared-token/);
    } finally {
      await wrong.close();
    }
  });

  it('a call in flight when the gateway dies is 502; calls while it is down fail at once; it reconnects when it is back', async () => {
    // Freeze the gateway so the call is surely in flight, then kill it: the socket drops under the call.
    openclaw.proc.kill('SIGSTOP');
    const inFlight = call('GET', '/skills');
    await new Promise((resolve) => setTimeout(resolve, 300));
    await openclaw.stop();
    const dropped = await inFlight;
    assert.equal(dropped.status, 502);
    assert.equal(dropped.json.code, 'WARDEN_ERR_UPSTREAM_DISCONNECTED');
    assert.equal((await call('GET', '/status')).json.gateway_hello, undefined);

    const down = await call('POST', '/skill/disable', { skillKey: 'weather' });
    assert.deepEqual([down.status, down.json.code], [502, 'WARDEN_ERR_UPSTREAM_DISCONNECTED']);
    assert.ok(down.ms < 1_000, `failed fast (${down.ms} ms)`);

    openclaw = await startOpenClaw(home, port, UPSTREAM_TOKEN);
    await waitForHello();
    const again = await call('GET', '/skills');
    assert.equal(again.status, 200);
    assert.ok(again.json.skills.length > 0);
  });
});
