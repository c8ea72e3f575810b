// How the provider credential reaches an operator's own provider (llm_providers.custom) through the
// passthrough: without an auth_header rule the header form the client used is kept, so Anthropic-style
// (x-api-key), Azure-style (api-key), Google-style (x-goog-api-key) and OpenAI-style (Authorization: Bearer)
// clients work unchanged; an explicit rule still decides; Warden's own secrets are never forwarded.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI, { AzureOpenAI } from 'openai';
import { deriveMasterKey } from '../../src/proxy/master-key.js';
import { startInProcess, type InProcessGateway } from '../helpers/gateway.js';
import { anthropicMessage, chatCompletion, startMockLlm, type MockLlm, type ReceivedRequest } from '../helpers/mock-llm.js';

const CREDENTIAL_HEADERS = ['authorization', 'x-api-key', 'api-key', 'x-goog-api-key', 'x-ai-auth'];

/** The credential headers an upstream received (and nothing else), to compare whole. */
const credentialsOf = (received: ReceivedRequest): Record<string, unknown> =>
  Object.fromEntries(CREDENTIAL_HEADERS.filter((h) => received.headers[h] !== undefined).map((h) => [h, received.headers[h]]));

describe('credentials towards a custom provider', () => {
  let corp: MockLlm; // custom provider without auth_header
  let strict: MockLlm; // custom provider whose rule says x-api-key
  let gw: InProcessGateway;
  let proxy: string;
  let auth: Record<string, string>;

  before(async () => {
    corp = await startMockLlm();
    strict = await startMockLlm();
    gw = await startInProcess(`config_version: 9
gateway:
  api_port: 0
guardrail:
  port: 0
llm_providers:
  custom:
    - name: corp-llm
      domains: ["127.0.0.1:${corp.port}"]
    - name: corp-strict
      domains: ["127.0.0.1:${strict.port}"]
      auth_header: x-api-key
`);
    proxy = gw.gateway.proxyUrl;
    auth = { 'x-warden-auth': `Bearer ${gw.token}` };
  });
  after(async () => {
    await gw.close();
    await corp.close();
    await strict.close();
  });

  test('Anthropic SDK sending x-api-key: it arrives as x-api-key, not as Authorization: Bearer', async () => {
    // This SDK version sends apiKey as Authorization: Bearer; x-api-key is how Claude Code and Anthropic's own
    // docs send it, so the client is set up that way (the SDK accepts an explicit x-api-key in place of apiKey).
    const client = new Anthropic({ apiKey: null, baseURL: proxy, maxRetries: 0, defaultHeaders: { ...auth, 'x-api-key': 'sk-ant-client-key', 'x-warden-target-url': corp.url } });
    corp.replies.push({ kind: 'json', body: anthropicMessage('Hello from corp.') });
    const message = await client.messages.create({ model: 'corp-claude', max_tokens: 50, messages: [{ role: 'user', content: 'hello' }] });
    assert.deepEqual(message.content, [{ type: 'text', text: 'Hello from corp.' }]);
    const received = corp.requests.at(-1)!;
    assert.equal(received.path, '/v1/messages');
    assert.deepEqual(credentialsOf(received), { 'x-api-key': 'sk-ant-client-key' });
  });

  test('Anthropic SDK with apiKey (sent as Authorization: Bearer): it arrives the same way', async () => {
    const client = new Anthropic({ apiKey: 'sk-ant-bearer-key', baseURL: proxy, maxRetries: 0, defaultHeaders: { ...auth, 'x-warden-target-url': corp.url } });
    corp.replies.push({ kind: 'json', body: anthropicMessage('ok') });
    await client.messages.create({ model: 'corp-claude', max_tokens: 5, messages: [{ role: 'user', content: 'hello' }] });
    assert.deepEqual(credentialsOf(corp.requests.at(-1)!), { authorization: 'Bearer sk-ant-bearer-key' });
  });

  test('Azure OpenAI SDK: api-key arrives as api-key', async () => {
    const client = new AzureOpenAI({
      apiKey: 'azure-client-key', endpoint: proxy, apiVersion: '2024-10-21', deployment: 'corp-gpt', maxRetries: 0,
      defaultHeaders: { ...auth, 'x-warden-target-url': corp.url },
    });
    corp.replies.push({ kind: 'json', body: chatCompletion('Hello from Azure-style corp.') });
    const answer = await client.chat.completions.create({ model: 'corp-gpt', messages: [{ role: 'user', content: 'hello' }] });
    assert.equal(answer.choices[0]!.message.content, 'Hello from Azure-style corp.');
    const received = corp.requests.at(-1)!;
    assert.equal(received.path, '/openai/deployments/corp-gpt/chat/completions?api-version=2024-10-21');
    assert.deepEqual(credentialsOf(received), { 'api-key': 'azure-client-key' });
  });

  test('Google style: x-goog-api-key arrives as x-goog-api-key', async () => {
    corp.replies.push({ kind: 'json', body: { candidates: [{ content: { role: 'model', parts: [{ text: 'Hello from Gemini-style corp.' }] }, finishReason: 'STOP', index: 0 }] } });
    const response = await fetch(`${proxy}/v1beta/models/corp-gemini:generateContent`, {
      method: 'POST',
      headers: { ...auth, 'x-warden-target-url': corp.url, 'content-type': 'application/json', 'x-goog-api-key': 'goog-client-key' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hello' }] }] }),
    });
    assert.equal(response.status, 200);
    assert.deepEqual(credentialsOf(corp.requests.at(-1)!), { 'x-goog-api-key': 'goog-client-key' });
  });

  test('OpenAI SDK: Authorization: Bearer arrives as Authorization: Bearer', async () => {
    const client = new OpenAI({ apiKey: 'sk-openai-client-key', baseURL: `${proxy}/v1`, maxRetries: 0, defaultHeaders: { ...auth, 'x-warden-target-url': corp.url } });
    corp.replies.push({ kind: 'json', body: chatCompletion('Hello from OpenAI-style corp.') });
    await client.chat.completions.create({ model: 'corp-gpt', messages: [{ role: 'user', content: 'hello' }] });
    assert.deepEqual(credentialsOf(corp.requests.at(-1)!), { authorization: 'Bearer sk-openai-client-key' });
  });

  test('an explicit auth_header rule still decides the form', async () => {
    const client = new OpenAI({ apiKey: 'sk-bearer-client-key', baseURL: `${proxy}/v1`, maxRetries: 0, defaultHeaders: { ...auth, 'x-warden-target-url': strict.url } });
    strict.replies.push({ kind: 'json', body: chatCompletion('ok') });
    await client.chat.completions.create({ model: 'corp-gpt', messages: [{ role: 'user', content: 'hello' }] });
    assert.deepEqual(credentialsOf(strict.requests.at(-1)!), { 'x-api-key': 'sk-bearer-client-key' });
  });

  test('Warden\'s own secrets are never forwarded, whichever header carries them', async () => {
    const masterKey = await deriveMasterKey(gw.gateway.settings.paths.deviceKey);
    for (const secret of [gw.token, masterKey]) {
      for (const header of ['x-api-key', 'api-key', 'x-goog-api-key']) {
        corp.replies.push({ kind: 'json', body: anthropicMessage('ok') });
        const response = await fetch(`${proxy}/v1/messages`, {
          method: 'POST',
          headers: { ...auth, 'x-warden-target-url': corp.url, 'content-type': 'application/json', [header]: secret },
          body: JSON.stringify({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }),
        });
        assert.equal(response.status, 200);
        const received = corp.requests.at(-1)!;
        assert.deepEqual(credentialsOf(received), {}, `${header} carrying a Warden secret`);
        assert.ok(!JSON.stringify(received.headers).includes(secret));
      }
    }
    // The master key authenticating as Authorization: Bearer, with the provider key in x-api-key beside it
    // (by hand: the Anthropic SDK sends no x-api-key once an Authorization header is set).
    corp.replies.push({ kind: 'json', body: anthropicMessage('ok') });
    const beside = await fetch(`${proxy}/v1/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${masterKey}`, 'x-api-key': 'sk-ant-beside-master', 'x-warden-target-url': corp.url, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }),
    });
    assert.equal(beside.status, 200);
    assert.deepEqual(credentialsOf(corp.requests.at(-1)!), { 'x-api-key': 'sk-ant-beside-master' });
  });

  test('the registry lists the custom provider as keeping the client\'s header form', async () => {
    const listed = (await (await fetch(`${proxy}/v1/config/providers`, { headers: auth })).json()) as { providers: { name: string; auth_header: string }[] };
    assert.equal(listed.providers.find((p) => p.name === 'corp-llm')?.auth_header, 'as-sent');
    assert.equal(listed.providers.find((p) => p.name === 'corp-strict')?.auth_header, 'x-api-key');
  });
});
