// The bridge routes without an upstream client (503), GET /mcps reading the active connector's own
// configuration from a fixture home folder (and an empty list for missing or malformed files), the provider
// registry on the sidecar, and the upstream device key file. Over real HTTP; the bridge against the real
// OpenClaw gateway is test/upstream/openclaw-bridge.test.ts.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { verify, createPublicKey } from 'node:crypto';
import { authHeaders, startInProcess, type InProcessGateway } from '../helpers/gateway.js';
import { connectSignaturePayload, loadDeviceIdentity, signConnect } from '../../src/upstream/device-identity.js';

const TOKEN = 'upstream-routes-token';
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers are probed field by field
type Json = Record<string, any>;

async function call(gw: InProcessGateway, method: string, path: string, body?: unknown, headers = authHeaders(TOKEN)) {
  const response = await fetch(`${gw.url}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await response.text();
  return { status: response.status, json: (text ? JSON.parse(text) : {}) as Json };
}

describe('bridge routes with no upstream client', () => {
  let gw: InProcessGateway;
  let home: string;

  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'warden-mcps-'));
    writeFileSync(join(home, '.claude.json'), JSON.stringify({
      mcpServers: { github: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_TOKEN: 'ghp_secret' } } },
      projects: { '/work/app': { mcpServers: { remote: { url: 'https://mcp.example.com/sse', headers: { Authorization: 'Bearer sk-secret' } } } } },
    }));
    gw = await startInProcess(undefined, { WARDEN_GATEWAY_TOKEN: TOKEN, HOME: home });
  });
  after(async () => {
    await gw.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('every bridged route answers 503 WARDEN_ERR_UPSTREAM_NOT_CONFIGURED', async () => {
    const routes: [string, string, unknown?][] = [
      ['POST', '/skill/disable', { skillKey: 'weather' }], ['POST', '/skill/enable', { skillKey: 'weather' }],
      ['POST', '/plugin/disable', { pluginId: 'xai' }], ['POST', '/plugin/enable', { pluginId: 'xai' }],
      ['GET', '/skills'], ['GET', '/tools/catalog'], ['POST', '/config/patch', { path: 'tools.profile', value: 'coding' }],
    ];
    for (const [method, path, body] of routes) {
      const { status, json } = await call(gw, method, path, body);
      assert.deepEqual([status, json.code], [503, 'WARDEN_ERR_UPSTREAM_NOT_CONFIGURED'], `${method} ${path}`);
    }
    assert.equal((await call(gw, 'GET', '/status')).json.gateway_hello, undefined);
  });

  it('bodies are checked before the bridge: an unknown field or a missing key is 400', async () => {
    assert.equal((await call(gw, 'POST', '/skill/disable', {})).status, 400);
    assert.equal((await call(gw, 'POST', '/skill/disable', { skillKey: 'a', extra: 1 })).status, 400);
    assert.equal((await call(gw, 'POST', '/config/patch', { value: 1 })).status, 400);
  });

  it('the bridge routes need the gateway token', async () => {
    assert.equal((await call(gw, 'GET', '/skills', undefined, {})).status, 401);
    assert.equal((await call(gw, 'GET', '/mcps', undefined, {})).status, 401);
  });

  it('GET /mcps lists the active connector\'s servers without their env or headers', async () => {
    const { status, json } = await call(gw, 'GET', '/mcps');
    assert.equal(status, 200);
    assert.deepEqual(json.map((m: Json) => m.name).sort(), ['github', 'remote (/work/app)']);
    const github = json.find((m: Json) => m.name === 'github');
    assert.deepEqual(github.args, ['-y', '@modelcontextprotocol/server-github']);
    assert.equal(github.source, join(home, '.claude.json'));
    assert.doesNotMatch(JSON.stringify(json), /ghp_secret|sk-secret/);
  });

  it('GET /mcps is an empty list when the connector\'s file is malformed or missing', async () => {
    writeFileSync(join(home, '.claude.json'), '{ "mcpServers": ');
    assert.deepEqual(await call(gw, 'GET', '/mcps'), { status: 200, json: [] });
    rmSync(join(home, '.claude.json'));
    assert.deepEqual(await call(gw, 'GET', '/mcps'), { status: 200, json: [] });
  });

  it('GET/HEAD /v1/config/providers and POST /v1/config/providers/reload serve the proxy\'s registry', async () => {
    const list = await call(gw, 'GET', '/v1/config/providers');
    assert.equal(list.status, 200);
    assert.ok(list.json.providers.some((p: Json) => p.name === 'openai'));
    assert.equal(typeof list.json.loaded_at, 'string');
    const head = await fetch(`${gw.url}/v1/config/providers`, { method: 'HEAD', headers: authHeaders(TOKEN) });
    assert.equal(head.status, 200);
    assert.equal((await call(gw, 'GET', '/v1/config/providers', undefined, {})).status, 401);
    writeFileSync(join(gw.home.dir, 'config.yaml'), `config_version: 9
gateway:
  api_port: 0
guardrail:
  port: 0
llm_providers:
  custom:
    - name: in-house
      domains: [llm.internal.example:8443]
`);
    const reloaded = await call(gw, 'POST', '/v1/config/providers/reload', {});
    assert.equal(reloaded.status, 200, JSON.stringify(reloaded.json));
    assert.equal(reloaded.json.status, 'reloaded');
    const proxied = await fetch(`${gw.gateway.proxyUrl}/v1/config/providers`);
    const names = ((await proxied.json()) as Json).providers.map((p: Json) => p.name);
    assert.ok(names.includes('in-house'), 'the proxy serves the registry the sidecar reloaded');
    writeFileSync(join(gw.home.dir, 'config.yaml'), 'config_version: 9\nllm_providers: {custom: [{name: x}]}\n');
    const refused = await call(gw, 'POST', '/v1/config/providers/reload', {});
    assert.deepEqual([refused.status, refused.json.code], [422, 'WARDEN_ERR_PROVIDERS_RELOAD']);
  });
});

describe('upstream device identity', () => {
  const dir = mkdtempSync(join(tmpdir(), 'warden-device-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('is created once with mode 0600, kept across loads, and signs the v3 connect payload', () => {
    const path = join(dir, 'device.pem');
    const first = loadDeviceIdentity(path);
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.equal(loadDeviceIdentity(path).deviceId, first.deviceId);
    assert.match(first.deviceId, /^[0-9a-f]{64}$/);
    const input = { clientId: 'cli', clientMode: 'cli', role: 'operator', scopes: ['operator.read'], signedAtMs: 1, token: 't', nonce: 'n', platform: 'Linux' };
    assert.equal(connectSignaturePayload(first.deviceId, input), `v3|${first.deviceId}|cli|cli|operator|operator.read|1|t|n|linux|`);
    const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: first.publicKey }, format: 'jwk' });
    const signature = Buffer.from(signConnect(first, input), 'base64url');
    assert.ok(verify(null, Buffer.from(connectSignaturePayload(first.deviceId, input)), publicKey, signature));
  });

  it('refuses a key readable by others, and a symlink', () => {
    const loose = join(dir, 'loose.pem');
    loadDeviceIdentity(loose);
    chmodSync(loose, 0o644);
    assert.throws(() => loadDeviceIdentity(loose), { code: 'WARDEN_ERR_UPSTREAM_DEVICE_KEY' });
    mkdirSync(join(dir, 'sub'));
    const link = join(dir, 'sub', 'link.pem');
    symlinkSync(join(dir, 'device.pem'), link);
    assert.throws(() => loadDeviceIdentity(link), { code: 'WARDEN_ERR_UPSTREAM_DEVICE_KEY' });
  });
});
