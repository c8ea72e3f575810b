// The OpenAI-compatible chat route through the real gateway, with the official openai client as the agent and
// a local mock as the provider: pass-through, prompt and answer blocks, streaming cut-offs, observe mode.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { AuditReader } from '../../src/audit/reader.js';
import { chatCompletion, openAIStream } from '../helpers/mock-llm.js';
import { startProxyFixture, type ProxyFixture } from '../helpers/proxy.js';

const SECRET = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
const PROVIDER_KEY = 'sk-provider-key-123';

async function auditRows(fixture: ProxyFixture) {
  await fixture.gateway.gateway.flushAudit();
  const reader = new AuditReader(fixture.gateway.gateway.settings.paths.auditDb);
  try {
    return [...reader.events()];
  } finally {
    reader.close();
  }
}

/** POSTs a streamed chat request and returns the raw body text as the client received it. */
async function rawStream(fixture: ProxyFixture, content = 'hi') {
  const response = await fetch(`${fixture.proxy}/v1/chat/completions`, {
    method: 'POST',
    headers: { ...fixture.auth, 'content-type': 'application/json', authorization: `Bearer ${PROVIDER_KEY}` },
    body: JSON.stringify({ model: 'gpt-mock', stream: true, messages: [{ role: 'user', content }] }),
  });
  return { response, text: await response.text() };
}

describe('chat completions (action mode)', () => {
  let fixture: ProxyFixture;
  let client: OpenAI;
  before(async () => {
    fixture = await startProxyFixture();
    client = new OpenAI({ apiKey: PROVIDER_KEY, baseURL: `${fixture.proxy}/v1`, defaultHeaders: fixture.auth, maxRetries: 0 });
  });
  after(() => fixture.close());

  test('a clean request reaches the provider with its credential and the answer comes back unchanged', async () => {
    fixture.openai.replies.push({ kind: 'json', body: chatCompletion('All tests pass.') });
    const answer = await client.chat.completions.create({ model: 'gpt-mock', messages: [{ role: 'user', content: 'run the tests' }] });
    assert.equal(answer.choices[0]!.message.content, 'All tests pass.');
    const received = fixture.openai.requests.at(-1)!;
    assert.equal(received.path, '/v1/chat/completions');
    assert.equal(received.headers.authorization, `Bearer ${PROVIDER_KEY}`);
    assert.equal(received.headers['x-warden-auth'], undefined, 'the gateway token must not travel upstream');
    assert.deepEqual(JSON.parse(received.body).messages, [{ role: 'user', content: 'run the tests' }]);
  });

  test('a prompt carrying a secret is answered with a block and never reaches the provider', async () => {
    const before = fixture.openai.requests.length;
    const raw = await client.chat.completions
      .create({ model: 'gpt-mock', messages: [{ role: 'user', content: `deploy with token ${SECRET}` }] })
      .withResponse();
    assert.equal(raw.response.headers.get('x-warden-blocked'), 'true');
    assert.equal(raw.data.object, 'chat.completion');
    assert.equal(raw.data.choices[0]!.finish_reason, 'content_filter');
    assert.match(raw.data.choices[0]!.message.content ?? '', /SECRET-GITHUB-PAT-CLASSIC/);
    assert.equal(fixture.openai.requests.length, before, 'nothing was forwarded');
  });

  test('only the newest user turn is inspected: a secret in old history does not block', async () => {
    fixture.openai.replies.push({ kind: 'json', body: chatCompletion('ok') });
    const answer = await client.chat.completions.create({
      model: 'gpt-mock',
      messages: [
        { role: 'user', content: `old: ${SECRET}` },
        { role: 'assistant', content: 'noted' },
        { role: 'user', content: 'now list the files' },
      ],
    });
    assert.equal(answer.choices[0]!.message.content, 'ok');
  });

  test('a secret in a tool result sent back to the model is blocked', async () => {
    const raw = await client.chat.completions
      .create({
        model: 'gpt-mock',
        messages: [
          { role: 'user', content: 'read the config' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read', arguments: '{}' } }] },
          { role: 'tool', tool_call_id: 'c1', content: `GITHUB_TOKEN=${SECRET}` },
        ],
      })
      .withResponse();
    assert.equal(raw.response.headers.get('x-warden-blocked'), 'true');
  });

  test('an answer leaking a secret is replaced by the block', async () => {
    fixture.openai.replies.push({ kind: 'json', body: chatCompletion(`Here it is: ${SECRET}`) });
    const raw = await client.chat.completions.create({ model: 'gpt-mock', messages: [{ role: 'user', content: 'token?' }] }).withResponse();
    assert.equal(raw.response.headers.get('x-warden-blocked'), 'true');
    assert.equal(raw.data.choices[0]!.finish_reason, 'content_filter');
    assert.doesNotMatch(JSON.stringify(raw.data), /ghp_/);
  });

  test('a dangerous tool call in an answer is blocked', async () => {
    fixture.openai.replies.push({
      kind: 'json',
      body: chatCompletion('', {
        choices: [{
          index: 0, finish_reason: 'tool_calls', logprobs: null,
          message: { role: 'assistant', content: null, tool_calls: [{ id: 'c9', type: 'function', function: { name: 'Bash', arguments: '{"command":"rm -rf /"}' } }] },
        }],
      }),
    });
    const raw = await client.chat.completions.create({ model: 'gpt-mock', messages: [{ role: 'user', content: 'clean up' }] }).withResponse();
    assert.equal(raw.response.headers.get('x-warden-blocked'), 'true');
    assert.equal(raw.data.choices[0]!.message.tool_calls, undefined);
    assert.match(raw.data.choices[0]!.message.content ?? '', /CMD-RM-RF-ROOT/);
  });

  test('a clean stream is relayed byte for byte, as an event stream without buffering', async () => {
    const pieces = openAIStream(['The ', 'build ', 'is ', 'green.']);
    fixture.openai.replies.push({ kind: 'stream', pieces });
    const { response, text } = await rawStream(fixture);
    assert.equal(response.headers.get('content-type'), 'text/event-stream');
    assert.equal(response.headers.get('x-accel-buffering'), 'no');
    assert.equal(text, pieces.join(''));
  });

  test('a model slow to start: the stream opens (headers) before its first token', async () => {
    fixture.openai.replies.push({ kind: 'stream', pieces: openAIStream(['late']), startDelayMs: 600 });
    const started = performance.now();
    const response = await fetch(`${fixture.proxy}/v1/chat/completions`, {
      method: 'POST', headers: { ...fixture.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-mock', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    const opened = performance.now() - started;
    assert.equal(response.headers.get('content-type'), 'text/event-stream');
    assert.ok(opened < 400, `headers after ${opened.toFixed(0)} ms`);
    assert.match(await response.text(), /late/);
  });

  test('the SDK reads a streamed answer through the proxy', async () => {
    fixture.openai.replies.push({ kind: 'stream', pieces: openAIStream(['Hello', ', ', 'world']) });
    const stream = await client.chat.completions.create({ model: 'gpt-mock', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    assert.equal(text, 'Hello, world');
  });

  test('a secret split across events cuts the stream: no part of it is sent, the upstream is cancelled', async () => {
    const half = SECRET.length / 2;
    const pieces = openAIStream(['Sure. ', 'The token is ', SECRET.slice(0, half), SECRET.slice(half), ' and more', ' text']);
    // The mock keeps the stream open after the secret, like a provider still generating.
    fixture.openai.replies.push({ kind: 'stream', pieces, delayMs: 20, holdOpen: true });
    const cancelled = fixture.openai.nextCancellation();
    const { text } = await rawStream(fixture);
    await cancelled;
    assert.ok(text.includes('The token is '), 'text before the secret is relayed');
    assert.ok(!text.includes(SECRET.slice(0, half)), 'not even the first half of the secret is relayed');
    assert.ok(!text.includes('and more'), 'nothing after the cut is relayed');
    const events = text.split('\n\n').filter(Boolean);
    assert.equal(events.at(-1), 'data: [DONE]');
    const last = JSON.parse(events.at(-2)!.slice('data: '.length));
    assert.equal(last.choices[0].finish_reason, 'content_filter');
    assert.match(last.choices[0].delta.content, /SECRET-GITHUB-PAT-CLASSIC/);
  });

  test('tool-call fragments are held until the assembled call passes; a dangerous one is never sent', async () => {
    const pieces = openAIStream(['Cleaning up. '], { name: 'Bash', argumentPieces: ['{"command":', '"rm -r', 'f /"}'] });
    fixture.openai.replies.push({ kind: 'stream', pieces, delayMs: 10 });
    const { text } = await rawStream(fixture);
    assert.ok(text.includes('Cleaning up. '), 'the text before the tool call is relayed');
    assert.ok(!text.includes('tool_calls'), 'no tool-call delta reached the agent');
    assert.match(text, /CMD-RM-RF-ROOT/);
    assert.ok(text.endsWith('data: [DONE]\n\n'), 'the stream ends properly');
  });

  test('a harmless streamed tool call passes whole', async () => {
    const pieces = openAIStream([], { name: 'Bash', argumentPieces: ['{"command":', '"git status"}'] });
    fixture.openai.replies.push({ kind: 'stream', pieces });
    const { text } = await rawStream(fixture);
    assert.equal(text, pieces.join(''));
  });

  test('the agent hanging up mid-stream cancels the upstream request', async () => {
    fixture.openai.replies.push({ kind: 'stream', pieces: openAIStream(Array.from({ length: 50 }, (_, i) => `word${i} `)), delayMs: 30 });
    const cancelled = fixture.openai.nextCancellation();
    const controller = new AbortController();
    const response = await fetch(`${fixture.proxy}/v1/chat/completions`, {
      method: 'POST', signal: controller.signal,
      headers: { ...fixture.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-mock', stream: true, messages: [{ role: 'user', content: 'count' }] }),
    });
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    await cancelled;
    assert.ok(fixture.openai.cancelledStreams >= 1, 'the mock saw the cancellation');
  });

  test('every proxied call leaves one audit row naming the verdicts and rules', async () => {
    const rows = await auditRows(fixture);
    const blocked = rows.filter((r) => r.action === 'proxy-chat-block');
    assert.ok(blocked.length >= 4, `${blocked.length} block rows`);
    const structured = blocked.map((r) => r.structured as { request: { rule_ids: string[] }; response?: { rule_ids: string[] } });
    assert.ok(structured.some((s) => s.request.rule_ids.includes('SECRET-GITHUB-PAT-CLASSIC')), 'a request block names its rule');
    assert.ok(structured.some((s) => s.response?.rule_ids.includes('CMD-RM-RF-ROOT')), 'an answer block names its rule');
    assert.ok(rows.some((r) => r.action === 'proxy-chat-allow'), 'clean calls are recorded too');
  });
});

describe('chat completions (observe mode)', () => {
  let fixture: ProxyFixture;
  before(async () => (fixture = await startProxyFixture({ mode: 'observe' })));
  after(() => fixture.close());

  test('observe mode forwards and relays everything, and records what it would have blocked', async () => {
    const pieces = openAIStream(['The token is ', SECRET, ' done.']);
    fixture.openai.replies.push({ kind: 'stream', pieces });
    const { response, text } = await rawStream(fixture, `use ${SECRET}`);
    assert.equal(response.headers.get('x-warden-blocked'), null);
    assert.equal(text, pieces.join(''));
    assert.equal(fixture.openai.requests.length, 1, 'the prompt was forwarded');
    const rows = await auditRows(fixture);
    const row = rows.find((r) => r.action === 'proxy-chat-allow')!;
    const structured = row.structured as { request: { raw_action: string }; response: { raw_action: string } };
    assert.equal(structured.request.raw_action, 'block');
    assert.equal(structured.response.raw_action, 'block');
  });
});
