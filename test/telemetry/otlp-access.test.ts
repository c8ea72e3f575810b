// Who may send OTLP, from beyond loopback: the sidecar bound to every address and called through this machine's
// non-loopback interface (when it has one), plus the decision function itself with a remote address, so the rule
// is tested on machines with only a loopback interface too.
import assert from 'node:assert/strict';
import { networkInterfaces } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { decideOtlpAccess } from '../../src/telemetry/otlp/access.js';
import { credentialsPath, ScopedCredentials } from '../../src/telemetry/otlp/credentials.js';
import { TokenMatcher } from '../../src/util/token-matcher.js';
import { redactOtlpPathToken } from '../../src/telemetry/otlp/redact.js';
import { startInProcess, type InProcessGateway } from '../helpers/gateway.js';
import { tempHome } from '../helpers/home.js';
import { readFileSync, statSync } from 'node:fs';

const TOKEN = 'test-token-otlp-access-0123456789';
const external = Object.values(networkInterfaces()).flat().find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

const body = JSON.stringify({ resourceLogs: [] });

describe('OTLP from beyond loopback', { skip: external === undefined ? 'no non-loopback IPv4 interface on this machine' : false }, () => {
  let gw: InProcessGateway;
  let scoped: string;
  before(async () => {
    gw = await startInProcess('config_version: 9\ngateway:\n  api_port: 0\n  api_bind: 0.0.0.0\nguardrail:\n  port: 0\n', { WARDEN_GATEWAY_TOKEN: TOKEN });
    scoped = ScopedCredentials.issue(gw.home.dir, 'codex');
    await gw.gateway.restart();
  });
  after(() => gw.close());

  const port = () => new URL(gw.gateway.sidecarUrl).port;
  const post = (host: string, path: string, headers: Record<string, string> = {}) =>
    fetch(`http://${host}:${port()}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } }).then((r) => r.status);

  it('accepts the path-token route over loopback and refuses it through another interface', async () => {
    assert.equal(await post('127.0.0.1', `/otlp/codex/${scoped}/v1/logs`), 200);
    assert.equal(await post(external!, `/otlp/codex/${scoped}/v1/logs`), 403);
  });

  it('accepts geminicli with the master token over loopback only', async () => {
    const headers = { authorization: `Bearer ${TOKEN}`, 'x-warden-source': 'geminicli', 'x-warden-client': 'gemini' };
    assert.equal(await post('127.0.0.1', '/v1/logs', headers), 200);
    assert.equal(await post(external!, '/v1/logs', headers), 403);
  });

  it('accepts a scoped token with its source header from another interface (the header route is not loopback-bound)', async () => {
    assert.equal(await post(external!, '/v1/logs', { authorization: `Bearer ${scoped}`, 'x-warden-source': 'codex', 'x-warden-client': 'codex' }), 200);
  });
});

describe('the OTLP access decision', () => {
  const home = tempHome(null);
  after(() => home.remove());
  const codexToken = ScopedCredentials.issue(home.dir, 'codex');
  const scoped = new ScopedCredentials(credentialsPath(home.dir));
  const master = new TokenMatcher(TOKEN);

  it('refuses the path route from a remote address, whatever the token', () => {
    assert.throws(() => decideOtlpAccess({ mode: 'otlp-path', loopback: false, credentials: [], pathSource: 'codex', pathToken: codexToken }, master, scoped),
      { code: 'WARDEN_ERR_AUTH_LOOPBACK_ONLY', statusCode: 403 });
    assert.deepEqual(decideOtlpAccess({ mode: 'otlp-path', loopback: true, credentials: [], pathSource: 'codex', pathToken: codexToken }, master, scoped).source, 'codex');
  });

  it('refuses geminicli with the master token from a remote address', () => {
    assert.throws(() => decideOtlpAccess({ mode: 'otlp', loopback: false, credentials: [TOKEN], declaredSource: 'geminicli' }, master, scoped), { code: 'WARDEN_ERR_AUTH_LOOPBACK_ONLY' });
  });

  it('files master-token requests without a source under a detected source, refusing scoped ones', () => {
    const grant = decideOtlpAccess({ mode: 'otlp', loopback: true, credentials: [TOKEN] }, master, scoped);
    assert.equal(grant.source, undefined);
    assert.deepEqual([...grant.refusedSources], ['codex']);
  });

  it('keeps only a hash of each scoped token, in a 0600 file', () => {
    const text = readFileSync(credentialsPath(home.dir), 'utf8');
    assert.ok(!text.includes(codexToken));
    assert.equal(statSync(credentialsPath(home.dir)).mode & 0o777, 0o600);
    assert.ok(scoped.matches('codex', codexToken));
    assert.ok(!scoped.matches('claudecode', codexToken));
  });

  it('redacts the path token from a logged URL', () => {
    assert.equal(redactOtlpPathToken(`/otlp/codex/${codexToken}/v1/logs?x=1`), '/otlp/codex/[redacted]/v1/logs?x=1');
    assert.equal(redactOtlpPathToken('/v1/logs'), '/v1/logs');
  });
});
