// Proxy authentication (every path), the master key, the provider registry routes, egress ingestion and the
// model list, against the real gateway.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { AuditReader } from '../../src/audit/reader.js';
import { deriveMasterKey } from '../../src/proxy/master-key.js';
import { runCli } from '../helpers/gateway.js';
import { chatCompletion } from '../helpers/mock-llm.js';
import { startProxyFixture, type ProxyFixture } from '../helpers/proxy.js';

function readAudit(fixture: ProxyFixture) {
  const reader = new AuditReader(fixture.gateway.gateway.settings.paths.auditDb);
  try {
    return { events: [...reader.events()], egress: reader.egress() };
  } finally {
    reader.close();
  }
}

describe('guardrail proxy control surface', () => {
  let fixture: ProxyFixture;
  let masterKey: string;
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${fixture.proxy}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });

  before(async () => {
    fixture = await startProxyFixture();
    masterKey = await deriveMasterKey(fixture.gateway.gateway.settings.paths.deviceKey);
  });
  after(() => fixture.close());

  test('without credentials the proxy answers 401 in the route provider\'s error shape, even from loopback', async () => {
    const openai = await post('/v1/chat/completions', { model: 'm', messages: [] });
    assert.equal(openai.status, 401);
    assert.equal(((await openai.json()) as { error: { type: string } }).error.type, 'authentication_error');
    const anthropic = await post('/v1/messages', { model: 'm', messages: [] }, { 'x-warden-target-url': fixture.anthropic.url });
    assert.equal(anthropic.status, 401);
    assert.deepEqual(Object.keys((await anthropic.json()) as object).sort(), ['error', 'type']);
  });

  // How refusals reach the audit trail (one row per network and minute): test/proxy/auth-failures.test.ts.
  test('a wrong gateway token is refused', async () => {
    const response = await post('/v1/chat/completions', { model: 'm', messages: [] }, { 'x-warden-auth': 'Bearer wrong', 'user-agent': 'OpenAI/JS 6.1.0 extra' });
    assert.equal(response.status, 401);
  });

  test('the sidecar token in another header does not authenticate the proxy', async () => {
    const response = await post('/v1/chat/completions', { model: 'm', messages: [] }, { 'x-warden-token': fixture.token });
    assert.equal(response.status, 401);
  });

  test('the master key authenticates as an OpenAI API key; the provider key travels in X-AI-Auth', async () => {
    const client = new OpenAI({ apiKey: masterKey, baseURL: `${fixture.proxy}/v1`, defaultHeaders: { 'x-ai-auth': 'Bearer sk-real-provider' }, maxRetries: 0 });
    fixture.openai.replies.push({ kind: 'json', body: chatCompletion('via master key') });
    const answer = await client.chat.completions.create({ model: 'gpt-mock', messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(answer.choices[0]!.message.content, 'via master key');
    const received = fixture.openai.requests.at(-1)!;
    assert.equal(received.headers.authorization, 'Bearer sk-real-provider');
    assert.ok(!JSON.stringify(received.headers).includes(masterKey), 'the master key is never forwarded');
  });

  test('Warden\'s own secrets are never forwarded as provider credentials', async () => {
    fixture.openai.replies.push({ kind: 'json', body: chatCompletion('ok') });
    const response = await post('/v1/chat/completions', { model: 'm', messages: [{ role: 'user', content: 'hi' }] }, {
      ...fixture.auth, authorization: `Bearer ${fixture.token}`,
    });
    assert.equal(response.status, 200);
    assert.equal(fixture.openai.requests.at(-1)!.headers.authorization, undefined);
  });

  test('`warden proxy key` prints the same master key', async () => {
    const result = await runCli(['proxy', 'key'], fixture.gateway.home.env);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout.trim(), masterKey);
    assert.match(masterKey, /^sk-warden-[0-9a-f]{64}$/);
  });

  test('GET and HEAD /v1/config/providers need no credentials and list built-ins and custom providers', async () => {
    const response = await fetch(`${fixture.proxy}/v1/config/providers`);
    assert.equal(response.status, 200);
    const body = (await response.json()) as { providers: { name: string; source: string; domains: string[] }[]; overlay: { providers: number } };
    const names = body.providers.map((p) => p.name);
    for (const name of ['openai', 'anthropic', 'azure-openai', 'gemini', 'vertex', 'bedrock', 'mistral', 'groq', 'cohere', 'deepseek', 'xai', 'openrouter', 'together', 'perplexity', 'ollama']) {
      assert.ok(names.includes(name), `${name} is listed`);
    }
    assert.deepEqual(body.providers.find((p) => p.name === 'ollama')!.domains.includes('localhost:11434'), true);
    assert.equal(body.providers.find((p) => p.name === 'mock-anthropic')!.source, 'custom');
    assert.equal(body.overlay.providers, 2);
    const head = await fetch(`${fixture.proxy}/v1/config/providers`, { method: 'HEAD' });
    assert.equal(head.status, 200);
  });

  test('POST /v1/config/providers/reload needs proxy auth, applies the new overlay, and keeps the old one on a bad file', async () => {
    assert.equal((await post('/v1/config/providers/reload', {})).status, 401);
    const configPath = fixture.gateway.gateway.settings.path;
    const original = readFileSync(configPath, 'utf8');
    writeFileSync(configPath, original.replace('    - name: mock-openai', '    - name: extra\n      domains: [llm.internal.example]\n    - name: mock-openai'));
    const reloaded = await post('/v1/config/providers/reload', {}, fixture.auth);
    assert.equal(reloaded.status, 200);
    const listed = (await (await fetch(`${fixture.proxy}/v1/config/providers`)).json()) as { providers: { name: string }[] };
    assert.ok(listed.providers.some((p) => p.name === 'extra'));

    writeFileSync(configPath, original.replace('llm_providers:', 'llm_providers:\n  bogus: 1'));
    const refused = await post('/v1/config/providers/reload', {}, fixture.auth);
    assert.equal(refused.status, 422);
    const after = (await (await fetch(`${fixture.proxy}/v1/config/providers`)).json()) as { providers: { name: string }[]; last_reload_error?: string };
    assert.ok(after.providers.some((p) => p.name === 'extra'), 'the registry in force is kept');
    assert.match(after.last_reload_error ?? '', /bogus/);
    writeFileSync(configPath, original);
  });

  test('POST /v1/events/egress records a network egress row with source forced to ts', async () => {
    const response = await post('/v1/events/egress', {
      target_host: 'api.openai.com', target_path: '/v1/responses', body_shape: 'openai.responses', looks_like_llm: true,
      branch: 'provider', decision: 'allow', reason: 'known provider', source: 'spoofed',
    }, fixture.auth);
    assert.equal(response.status, 204);
    await fixture.gateway.gateway.flushAudit();
    const row = readAudit(fixture).egress.find((e) => e.path === '/v1/responses')!;
    assert.equal(row.hostname, 'api.openai.com');
    assert.equal(row.source, 'ts');
    assert.equal(row.looks_like_llm, true);
    assert.equal(row.blocked, false);
  });

  test('egress events are validated: enums, JSON only, 8 KiB cap, auth', async () => {
    const valid = { target_host: 'h', branch: 'provider', decision: 'allow' };
    assert.equal((await post('/v1/events/egress', { ...valid, branch: 'sideways' }, fixture.auth)).status, 400);
    assert.equal((await post('/v1/events/egress', { ...valid, decision: 'maybe' }, fixture.auth)).status, 400);
    assert.equal((await post('/v1/events/egress', { ...valid, extra: 1 }, fixture.auth)).status, 400);
    assert.equal((await post('/v1/events/egress', { ...valid, reason: 'x'.repeat(9000) }, fixture.auth)).status, 413);
    const text = await fetch(`${fixture.proxy}/v1/events/egress`, { method: 'POST', headers: { ...fixture.auth, 'content-type': 'text/plain' }, body: 'hi' });
    assert.equal(text.status, 415);
    assert.equal((await post('/v1/events/egress', valid)).status, 401);
  });

  test('GET /v1/models lists the configured models; GET /health answers', async () => {
    const models = (await (await fetch(`${fixture.proxy}/v1/models`, { headers: fixture.auth })).json()) as { data: { id: string }[] };
    assert.deepEqual(models.data.map((m) => m.id), ['gpt-mock', 'gpt-mock-mini']);
    const health = (await (await fetch(`${fixture.proxy}/health`)).json()) as { status: string; mode: string };
    assert.equal(health.status, 'ok');
    assert.equal(health.mode, 'action');
    const sidecarHealth = (await (await fetch(`${fixture.gateway.url}/health`)).json()) as { subsystems?: Record<string, { state: string }> };
    assert.equal(JSON.stringify(sidecarHealth).includes('"guardrail_proxy"'), true);
  });
});
