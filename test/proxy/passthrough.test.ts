// Provider-native passthrough (X-Warden-Target-URL) with the official Anthropic client, the registry check,
// and what the proxy answers when the upstream misbehaves or the input is bad.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { AuditReader } from '../../src/audit/reader.js';
import { anthropicMessage, anthropicStream } from '../helpers/mock-llm.js';
import { startProxyFixture, type ProxyFixture } from '../helpers/proxy.js';

const SECRET = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';

describe('provider-native passthrough', () => {
  let fixture: ProxyFixture;
  let client: Anthropic;
  before(async () => {
    fixture = await startProxyFixture({ timeoutMs: 400 });
    client = new Anthropic({
      apiKey: 'sk-ant-provider-key',
      baseURL: fixture.proxy,
      maxRetries: 0,
      defaultHeaders: { ...fixture.auth, 'x-warden-target-url': fixture.anthropic.url },
    });
  });
  after(() => fixture.close());

  test('an Anthropic Messages call reaches the target origin with the incoming path and x-api-key', async () => {
    fixture.anthropic.replies.push({ kind: 'json', body: anthropicMessage('Done.') });
    const message = await client.messages.create({ model: 'claude-mock', max_tokens: 100, messages: [{ role: 'user', content: 'hello' }] });
    assert.deepEqual(message.content, [{ type: 'text', text: 'Done.' }]);
    const received = fixture.anthropic.requests.at(-1)!;
    assert.equal(received.path, '/v1/messages');
    assert.equal(received.headers['x-api-key'], 'sk-ant-provider-key');
    assert.equal(received.headers.authorization, undefined);
    assert.equal(received.headers['x-warden-target-url'], undefined);
    assert.match(String(received.headers['anthropic-version']), /^\d{4}-\d{2}-\d{2}$/, 'provider headers pass through');
  });

  test('a streamed Anthropic answer is relayed unchanged when clean', async () => {
    const pieces = anthropicStream(['All ', 'good ', 'here.']);
    fixture.anthropic.replies.push({ kind: 'stream', pieces });
    const response = await fetch(`${fixture.proxy}/v1/messages`, {
      method: 'POST',
      headers: { ...fixture.auth, 'x-warden-target-url': fixture.anthropic.url, 'content-type': 'application/json', 'x-api-key': 'k' },
      body: JSON.stringify({ model: 'claude-mock', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    assert.equal(await response.text(), pieces.join(''));
  });

  test('a streamed Anthropic answer leaking a secret is cut in Anthropic\'s own stream format', async () => {
    fixture.anthropic.replies.push({ kind: 'stream', pieces: anthropicStream(['Your token: ', SECRET, ' enjoy']), delayMs: 10 });
    const stream = client.messages.stream({ model: 'claude-mock', max_tokens: 100, messages: [{ role: 'user', content: 'token please' }] });
    const final = await stream.finalMessage();
    assert.equal(final.stop_reason, 'refusal');
    const text = final.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
    assert.ok(text.startsWith('Your token: '), 'text before the secret arrives');
    assert.match(text, /SECRET-GITHUB-PAT-CLASSIC/);
    assert.ok(!text.includes('ghp_'), 'the secret does not');
  });

  test('a prompt blocked on the Messages route is answered as an Anthropic message', async () => {
    const before = fixture.anthropic.requests.length;
    const message = await client.messages.create({ model: 'claude-mock', max_tokens: 100, messages: [{ role: 'user', content: `use ${SECRET}` }] });
    assert.equal(message.stop_reason, 'refusal');
    assert.equal(fixture.anthropic.requests.length, before);
  });

  test('a target outside the provider registry is refused with 403 and an egress record', async () => {
    const response = await fetch(`${fixture.proxy}/v1/messages`, {
      method: 'POST',
      headers: { ...fixture.auth, 'x-warden-target-url': 'https://exfil.example.net', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: [] }),
    });
    assert.equal(response.status, 403);
    const body = (await response.json()) as { type: string; error: { type: string; message: string } };
    assert.equal(body.type, 'error');
    assert.equal(body.error.type, 'permission_error');
    await fixture.gateway.gateway.flushAudit();
    const reader = new AuditReader(fixture.gateway.gateway.settings.paths.auditDb);
    const egress = reader.egress();
    reader.close();
    const refused = egress.find((e) => e.hostname === 'exfil.example.net')!;
    assert.equal(refused.blocked, true);
    assert.equal(refused.source, 'proxy');
    assert.equal(refused.decision, 'block');
  });

  test('a path that tries to switch hosts stays on the target origin', async () => {
    fixture.anthropic.replies.push({ kind: 'json', body: anthropicMessage('ok') });
    const response = await fetch(`${fixture.proxy}//exfil.example.net/v1/messages`, {
      method: 'POST',
      headers: { ...fixture.auth, 'x-warden-target-url': fixture.anthropic.url, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }),
    });
    assert.equal(response.status, 200);
    assert.equal(fixture.anthropic.requests.at(-1)!.path, '//exfil.example.net/v1/messages');
  });

  test('a POST elsewhere without X-Warden-Target-URL is 404', async () => {
    const response = await fetch(`${fixture.proxy}/v1/messages`, { method: 'POST', headers: { ...fixture.auth, 'content-type': 'application/json' }, body: '{}' });
    assert.equal(response.status, 404);
  });

  test('malformed JSON is 400 in OpenAI error shape on the chat route', async () => {
    const response = await fetch(`${fixture.proxy}/v1/chat/completions`, { method: 'POST', headers: { ...fixture.auth, 'content-type': 'application/json' }, body: '{"model":' });
    assert.equal(response.status, 400);
    const body = (await response.json()) as { error: { message: string; type: string } };
    assert.equal(body.error.type, 'invalid_request_error');
  });

  test('a body over 10 MiB is 413', async () => {
    const response = await fetch(`${fixture.proxy}/v1/chat/completions`, {
      method: 'POST', headers: { ...fixture.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'x'.repeat(10 * 1024 * 1024) }] }),
    });
    assert.equal(response.status, 413);
  });

  test('a non-JSON body is refused (415): only what can be inspected is forwarded', async () => {
    const response = await fetch(`${fixture.proxy}/v1/chat/completions`, { method: 'POST', headers: { ...fixture.auth, 'content-type': 'text/plain' }, body: 'hello' });
    assert.equal(response.status, 415);
  });

  test('an unreachable upstream is 502', async () => {
    // A gateway whose llm.base_url points at a provider that has gone away.
    const dead = await startProxyFixture();
    try {
      await dead.openai.close();
      const response = await fetch(`${dead.proxy}/v1/chat/completions`, {
        method: 'POST', headers: { ...dead.auth, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
      });
      assert.equal(response.status, 502);
      assert.equal(((await response.json()) as { error: { type: string } }).error.type, 'upstream_error');
    } finally {
      await dead.close();
    }
  });

  test('an upstream that does not answer in llm.timeout_ms is 504', async () => {
    fixture.openai.replies.push({ kind: 'hang' });
    const response = await fetch(`${fixture.proxy}/v1/chat/completions`, {
      method: 'POST', headers: { ...fixture.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
    });
    assert.equal(response.status, 504);
    assert.match(((await response.json()) as { error: { message: string } }).error.message, /did not answer in time/);
  });
});
