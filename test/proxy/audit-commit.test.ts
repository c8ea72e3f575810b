// The proxy's audit rows are committed before the agent gets the answer: a buffered answer after its
// verdict row, a stream's first byte after its `…-stream-open` row and its end after its verdict row. Rows
// are read from audit.db through a separate connection, without asking the gateway to flush.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AuditReader } from '../../src/audit/reader.js';
import { chatCompletion, openAIStream } from '../helpers/mock-llm.js';
import { startProxyFixture, type ProxyFixture } from '../helpers/proxy.js';

describe('proxy audit rows and the answer', () => {
  let fixture: ProxyFixture;
  before(async () => (fixture = await startProxyFixture()));
  after(() => fixture.close());

  const rowsFor = (model: string) => {
    const reader = new AuditReader(fixture.gateway.gateway.settings.paths.auditDb);
    try {
      return [...reader.events()].filter((e) => (e.structured as { model?: string } | undefined)?.model === model).map((e) => e.action);
    } finally {
      reader.close();
    }
  };
  const chat = (model: string, stream: boolean, content = 'hello') =>
    fetch(`${fixture.proxy}/v1/chat/completions`, {
      method: 'POST',
      headers: { ...fixture.auth, 'content-type': 'application/json', authorization: 'Bearer sk-provider' },
      body: JSON.stringify({ model, stream, messages: [{ role: 'user', content }] }),
    });

  test('a buffered answer arrives after its row is committed', async () => {
    for (let i = 0; i < 5; i++) {
      fixture.openai.replies.push({ kind: 'json', body: chatCompletion('fine') });
      const response = await chat(`buffered-${i}`, false);
      assert.equal(response.status, 200);
      assert.deepEqual(rowsFor(`buffered-${i}`), ['proxy-chat-allow'], `row of call ${i} committed before its answer`);
      await response.arrayBuffer();
    }
  });

  test('a blocked prompt is answered after its block row is committed', async () => {
    const response = await chat('blocked-prompt', false, `my token ghp_${'a1B2'.repeat(9)}`);
    assert.equal(response.headers.get('x-warden-blocked'), 'true');
    assert.deepEqual(rowsFor('blocked-prompt'), ['proxy-chat-block']);
    await response.arrayBuffer();
  });

  test('a stream sends its first byte after its open row, and its end after its verdict row', async () => {
    fixture.openai.replies.push({ kind: 'stream', pieces: openAIStream(['one ', 'two ', 'three']), delayMs: 50 });
    const response = await chat('streamed', true);
    const reader = response.body!.getReader();
    const first = await reader.read();
    assert.ok(first.value && first.value.length > 0, 'the stream has begun');
    assert.deepEqual(rowsFor('streamed'), ['proxy-chat-stream-open'], 'the open row is committed before the first byte');
    while (!(await reader.read()).done);
    assert.deepEqual(rowsFor('streamed'), ['proxy-chat-stream-open', 'proxy-chat-allow'], 'the verdict row is committed before the end');
  });
});
