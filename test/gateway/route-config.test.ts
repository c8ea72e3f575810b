// Route declarations (util/route-config.ts): the auth plugin reads each route's `config.auth`, so a route
// that declares nothing is guarded by the gateway token, and a hook token opens only `hook-token` routes of
// its own connector. Real HTTP against the sidecar's own plugins, on routes a future family might add.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { HookTokens } from '../../src/connectors/hook-tokens.js';
import { installAuth } from '../../src/gateway/plugins/auth.js';
import { installErrorHandling } from '../../src/gateway/plugins/errors.js';
import { declareFamily } from '../../src/util/route-config.js';

const TOKEN = 'route-config-test-token';

describe('auth declared on the route', () => {
  let app: FastifyInstance;
  let url: string;
  let dir: string;
  let cursorToken: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'warden-route-config-'));
    cursorToken = HookTokens.issue(dir, 'cursor');
    app = Fastify();
    installAuth(app, TOKEN, new HookTokens(dir));
    installErrorHandling(app);
    app.get('/undeclared', async () => ({ ok: true }));
    app.get('/undeclared/:connector', async () => ({ ok: true }));
    app.get('/open', { config: { auth: 'public' } }, async () => ({ ok: true }));
    app.get('/agent/:connector/hook', { config: { auth: 'hook-token' } }, async () => ({ ok: true }));
    await app.register(async (family) => {
      declareFamily(family, { auth: 'hook-token' });
      family.get('/family/inspect', async () => ({ ok: true }));
      family.get('/family/token-only', { config: { auth: 'token' } }, async () => ({ ok: true }));
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${url}${path}`, { headers });

  it('refuses a route that declares nothing without the gateway token, with a stable code', async () => {
    const refused = await get('/undeclared');
    assert.equal(refused.status, 401);
    assert.deepEqual(await refused.json(), { error: 'missing gateway token', code: 'WARDEN_ERR_AUTH_TOKEN_MISSING' });
    assert.equal((await get('/undeclared', { authorization: `Bearer ${TOKEN}` })).status, 200);
  });

  it('opens a route declared public to anyone', async () => {
    assert.equal((await get('/open')).status, 200);
  });

  it('lets a hook token open only hook-token routes of its own connector', async () => {
    const hook = { authorization: `Bearer ${cursorToken}` };
    assert.equal((await get('/agent/cursor/hook', hook)).status, 200);
    assert.equal((await get('/agent/codex/hook', hook)).status, 401, 'another connector\'s hook route');
    assert.equal((await get('/family/inspect', { ...hook, 'x-warden-connector': 'cursor' })).status, 200, 'declared by the family');
    assert.equal((await get('/family/inspect', { ...hook, 'x-warden-connector': 'codex' })).status, 401);
    assert.equal((await get('/family/inspect', hook)).status, 401, 'no connector named');
    const tokenOnly = await get('/family/token-only', { ...hook, 'x-warden-connector': 'cursor' });
    assert.equal(tokenOnly.status, 401, 'a route overrides its family\'s declaration');
    assert.equal(((await tokenOnly.json()) as { code: string }).code, 'WARDEN_ERR_AUTH_TOKEN_INVALID');
    assert.equal((await get('/undeclared/cursor', { ...hook, 'x-warden-connector': 'cursor' })).status, 401, 'a route that declares nothing');
    assert.equal((await get('/undeclared', { ...hook, 'x-warden-connector': 'cursor' })).status, 401);
    assert.equal((await get('/open', hook)).status, 200);
  });
});
