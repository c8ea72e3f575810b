import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startInProcess, type InProcessGateway } from '../helpers/gateway.js';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { AuditStore } from '../../src/audit/store.js';
import { HookInspector } from '../../src/connectors/hook-inspection.js';
import { HookTokens } from '../../src/connectors/hook-tokens.js';
import { HealthRegistry } from '../../src/gateway/health.js';
import { createLogger, prepare } from '../../src/gateway/runtime.js';
import { buildSidecar } from '../../src/gateway/server.js';
import { tempHome } from '../helpers/home.js';

const TOKEN = 'test-token-0123456789abcdef';

describe('sidecar authentication', () => {
  let gw: InProcessGateway;
  before(async () => {
    gw = await startInProcess(undefined, { WARDEN_GATEWAY_TOKEN: TOKEN });
  });
  after(() => gw.close());

  const status = async (headers: Record<string, string>, path = '/status') => (await fetch(`${gw.url}${path}`, { headers })).status;

  it('accepts Authorization: Bearer, X-Warden-Token and X-Warden-Auth: Bearer', async () => {
    assert.equal(await status({ authorization: `Bearer ${TOKEN}` }), 200);
    assert.equal(await status({ authorization: `bearer ${TOKEN}` }), 200);
    assert.equal(await status({ 'x-warden-token': TOKEN }), 200);
    assert.equal(await status({ 'x-warden-auth': `Bearer ${TOKEN}` }), 200);
  });

  it('refuses a missing or wrong token with 401 and {error, code}', async () => {
    const missing = await fetch(`${gw.url}/status`);
    assert.equal(missing.status, 401);
    assert.equal(missing.headers.get('www-authenticate'), 'Bearer');
    assert.deepEqual(await missing.json(), { error: 'missing gateway token', code: 'WARDEN_ERR_AUTH_TOKEN_MISSING' });
    const wrong = await fetch(`${gw.url}/status`, { headers: { authorization: `Bearer ${TOKEN}x` } });
    assert.equal(wrong.status, 401);
    assert.deepEqual(await wrong.json(), { error: 'invalid gateway token', code: 'WARDEN_ERR_AUTH_TOKEN_INVALID' });
    assert.equal(await status({ authorization: TOKEN }), 401, 'Authorization without the Bearer scheme');
    assert.equal(await status({ 'x-warden-auth': TOKEN }), 401, 'X-Warden-Auth without the Bearer scheme');
    assert.equal(await status({ authorization: `Basic ${Buffer.from(`a:${TOKEN}`).toString('base64')}` }), 401);
  });

  it('refuses a wardensb_ sandbox credential in every header form, even next to the right token', async () => {
    for (const headers of <Record<string, string>[]>[
      { authorization: 'Bearer wardensb_abc' },
      { 'x-warden-token': 'wardensb_abc' },
      { 'x-warden-auth': 'Bearer wardensb_abc' },
      { authorization: `Bearer ${TOKEN}`, 'x-warden-token': 'wardensb_abc' },
    ]) {
      const response = await fetch(`${gw.url}/status`, { headers });
      assert.equal(response.status, 401, JSON.stringify(headers));
      assert.match(((await response.json()) as { error: string }).error, /sandbox binding/);
    }
  });

  it('checks the sandbox credential before CSRF and body checks', async () => {
    const response = await fetch(`${gw.url}/audit/event`, { method: 'POST', headers: { authorization: 'Bearer wardensb_x' }, body: 'not json' });
    assert.equal(response.status, 401);
  });

  it('leaves GET /health open and guards every other route, unknown ones included', async () => {
    assert.equal(await status({}, '/health'), 200);
    assert.equal(await status({}, '/health?verbose=1'), 200);
    assert.equal((await fetch(`${gw.url}/health`, { method: 'HEAD' })).status, 200, 'HEAD keeps the declaration of its GET route');
    assert.equal(await status({}, '/v1/connectors'), 401);
    assert.equal(await status({}, '/alerts'), 401);
    assert.equal(await status({}, '/no/such/route'), 401);
    const post = await fetch(`${gw.url}/health`, { method: 'POST', headers: { 'x-warden-client': 't', 'content-type': 'application/json' }, body: '{}' });
    assert.equal(post.status, 401, 'only GET/HEAD /health is exempt');
  });
});

describe('sidecar without a token', () => {
  it('installs no authentication when no token is configured', async () => {
    // The gateway always creates a token on first boot, so build the sidecar directly from settings
    // without one: the auth rule itself must not invent a requirement.
    const home = tempHome();
    const audit = new AuditStore(join(home.dir, 'audit.db'));
    const prepared = prepare(home.env);
    const settings = { ...prepared.settings, token: undefined };
    const app = await buildSidecar(
      {
        settings, audit, health: new HealthRegistry(), inspector: prepared.inspector, hookInspector: new HookInspector(prepared.inspector),
        hookTokens: new HookTokens(settings.paths.hooksDir), policy: prepared.policy, version: 'test', startedAt: new Date(),
        lifecycle: { requestRestart: () => {}, requestShutdown: () => {} },
      },
      createLogger('silent'),
    );
    try {
      await app.listen({ host: '127.0.0.1', port: 0 });
      const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      assert.equal((await fetch(`${url}/status`)).status, 200);
      const post = await fetch(`${url}/audit/event`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"action":"x"}' });
      assert.equal(post.status, 403, 'CSRF still applies without a token');
    } finally {
      await app.close();
      await audit.close();
      home.remove();
    }
  });
});
