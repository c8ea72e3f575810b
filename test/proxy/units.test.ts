// The proxy's building blocks on their own: registry matching, credential normalisation, target resolution,
// event framing, client redaction and the stream guard's hold-back rules.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { validateConfigObject } from '../../src/config/load.js';
import { InspectionEngine, type Finding } from '../../src/guardrail/engine.js';
import { Inspector } from '../../src/guardrail/inspector.js';
import { loadRulePack } from '../../src/guardrail/rules/load.js';
import { ProxyAuthenticator } from '../../src/proxy/auth.js';
import { redactIp, redactUserAgent } from '../../src/proxy/client-redaction.js';
import { providerCredential, upstreamHeaders } from '../../src/proxy/credentials.js';
import { anthropic } from '../../src/proxy/formats/anthropic.js';
import { openAIChat } from '../../src/proxy/formats/openai-chat.js';
import { ndjsonFramer, sseFramer } from '../../src/proxy/framing.js';
import { ProxyInspection } from '../../src/proxy/inspection.js';
import { ProviderRegistry } from '../../src/proxy/providers.js';
import { StreamGuard } from '../../src/proxy/stream-guard.js';
import { resolveTarget } from '../../src/proxy/target.js';
import { openAIStream } from '../helpers/mock-llm.js';

const config = (custom: unknown[] = []) => validateConfigObject({ config_version: 9, llm_providers: { custom } }, 'test.yaml');

describe('provider registry', () => {
  const registry = new ProviderRegistry(config([{ name: 'corp', domains: ['llm.corp.example:8443'], auth_header: 'X-Corp-Key' }]));
  const lookup = (url: string) => registry.lookup(new URL(url))?.name;

  test('exact hosts match on any port, host:port entries on that port only', () => {
    assert.equal(lookup('https://api.openai.com/v1/chat/completions'), 'openai');
    assert.equal(lookup('https://api.openai.com:8443/'), 'openai');
    assert.equal(lookup('https://llm.corp.example:8443/'), 'corp');
    assert.equal(lookup('https://llm.corp.example/'), undefined);
    assert.equal(lookup('http://localhost:11434/api/chat'), 'ollama');
    assert.equal(lookup('http://localhost:11435/api/chat'), undefined);
    assert.equal(lookup('http://[::1]:11434/api/chat'), 'ollama');
  });

  test('a wildcard stands for exactly one label', () => {
    assert.equal(lookup('https://myres.openai.azure.com/openai/deployments/x'), 'azure-openai');
    assert.equal(lookup('https://a.b.openai.azure.com/'), undefined);
    assert.equal(lookup('https://openai.azure.com/'), undefined);
    assert.equal(lookup('https://bedrock-runtime.us-east-1.amazonaws.com/model/x/invoke'), 'bedrock');
    assert.equal(lookup('https://us-central1-aiplatform.googleapis.com/v1/projects'), 'vertex');
    assert.equal(lookup('https://api.openai.com.evil.example/'), undefined);
  });

  test('custom entries keep their header name, lower-cased', () => {
    assert.equal(registry.lookup(new URL('https://llm.corp.example:8443'))?.auth_header, 'x-corp-key');
  });
});

describe('provider credentials', () => {
  const auth = new ProxyAuthenticator('gateway-token', 'sk-warden-master');
  const own = (v: string) => auth.isOwnSecret(v);

  test('taken from X-AI-Auth first, then Authorization, x-api-key, api-key, x-goog-api-key', () => {
    assert.equal(providerCredential({ 'x-ai-auth': 'Bearer a', authorization: 'Bearer b' }, own)?.value, 'a');
    assert.equal(providerCredential({ authorization: 'Bearer b', 'x-api-key': 'c' }, own)?.value, 'b');
    assert.equal(providerCredential({ 'api-key': 'd' }, own)?.value, 'd');
    assert.equal(providerCredential({ 'x-goog-api-key': 'e' }, own)?.value, 'e');
  });

  test('the master key and the gateway token are never taken as provider credentials', () => {
    assert.equal(providerCredential({ authorization: 'Bearer sk-warden-master', 'x-api-key': 'real' }, own)?.value, 'real');
    assert.equal(providerCredential({ authorization: 'Bearer gateway-token' }, own), undefined);
  });

  test('sent the way each provider expects, with the client\'s credential headers removed', () => {
    const sent = { header: 'authorization' as const, raw: 'Bearer sk-x', value: 'sk-x' };
    const incoming = { authorization: 'Bearer sk-x', 'content-type': 'application/json', 'x-warden-auth': 'Bearer t', 'anthropic-version': 'v', cookie: 'c=1' };
    assert.deepEqual(upstreamHeaders(incoming, { auth_header: 'x-api-key' }, sent, own), {
      'content-type': 'application/json', 'anthropic-version': 'v', 'accept-encoding': 'identity', 'x-api-key': 'sk-x',
    });
    assert.equal(upstreamHeaders(incoming, { auth_header: 'authorization' }, sent, own).authorization, 'Bearer sk-x');
    assert.equal(upstreamHeaders(incoming, { auth_header: 'x-goog-api-key' }, sent, own)['x-goog-api-key'], 'sk-x');
    assert.equal(upstreamHeaders(incoming, { auth_header: 'api-key' }, sent, own)['api-key'], 'sk-x');
    const signed = { authorization: 'AWS4-HMAC-SHA256 Credential=AKID/20261121/us-east-1/bedrock/aws4_request, Signature=abc' };
    assert.equal(upstreamHeaders(signed, { auth_header: 'passthrough' }, undefined, own).authorization, signed.authorization);
  });
});

describe('proxy authentication rules', () => {
  test('no gateway token configured: loopback is let in, other addresses are not', () => {
    const auth = new ProxyAuthenticator(undefined, 'sk-warden-master');
    assert.deepEqual(auth.check({}, '127.0.0.1'), { ok: true, via: 'loopback' });
    assert.equal(auth.check({}, '192.0.2.7').ok, false);
    assert.deepEqual(auth.check({ authorization: 'Bearer sk-warden-master' }, '192.0.2.7'), { ok: true, via: 'master-key' });
  });

  test('with a token, loopback must present it', () => {
    const auth = new ProxyAuthenticator('tok', 'sk-warden-master');
    assert.equal(auth.check({}, '127.0.0.1').ok, false);
    assert.deepEqual(auth.check({ 'x-warden-auth': 'Bearer tok' }, '127.0.0.1'), { ok: true, via: 'gateway-token' });
  });
});

describe('target resolution', () => {
  const registry = new ProviderRegistry(config());

  test('the target origin is joined with the incoming path and query', () => {
    const target = resolveTarget(registry, 'https://api.anthropic.com/ignored/path', '/v1/messages?beta=true', undefined);
    assert.ok(target.ok);
    assert.equal(target.url.href, 'https://api.anthropic.com/v1/messages?beta=true');
  });

  test('bad or dangerous targets are refused', () => {
    const refused = (header: string) => {
      const result = resolveTarget(registry, header, '/v1/x', undefined);
      return result.ok ? 0 : result.status;
    };
    assert.equal(refused('not a url'), 400);
    assert.equal(refused('ftp://api.openai.com'), 400);
    assert.equal(refused('https://user:pw@api.openai.com'), 400);
    assert.equal(refused('https://evil.example'), 403);
  });

  test('llm.base_url: a bare origin gets /v1/chat/completions, a base with a path gets /chat/completions', () => {
    const a = resolveTarget(registry, undefined, '/chat/completions', 'https://api.openai.com');
    const b = resolveTarget(registry, undefined, '/v1/chat/completions', 'https://openrouter.ai/api/v1/');
    assert.ok(a.ok && b.ok);
    assert.equal(a.url.href, 'https://api.openai.com/v1/chat/completions');
    assert.equal(b.url.href, 'https://openrouter.ai/api/v1/chat/completions');
  });
});

describe('event framing', () => {
  test('SSE events are cut at blank lines whatever the chunking, keeping their exact text', () => {
    const stream = 'event: a\ndata: {"x":1}\n\n: comment\r\ndata: two\r\ndata: lines\r\n\r\ndata: [DONE]\n\n';
    for (const size of [1, 3, 7, stream.length]) {
      const framer = sseFramer();
      const events = [];
      for (let i = 0; i < stream.length; i += size) events.push(...framer.push(stream.slice(i, i + size)));
      events.push(...framer.flush());
      assert.equal(events.map((e) => e.raw).join(''), stream);
      assert.deepEqual(events.map((e) => e.event), [{ event: 'a', data: '{"x":1}' }, { data: 'two\nlines' }, { data: '[DONE]' }]);
    }
  });

  test('NDJSON lines are events; an unterminated last line comes out on flush', () => {
    const framer = ndjsonFramer();
    const events = [...framer.push('{"a":1}\n{"b"'), ...framer.push(':2}\n{"c":3}'), ...framer.flush()];
    assert.deepEqual(events.map((e) => e.event.data), ['{"a":1}', '{"b":2}', '{"c":3}']);
  });
});

describe('client redaction', () => {
  test('addresses keep their network, user agents their product token', () => {
    assert.equal(redactIp('203.0.113.77'), '203.0.113.0/24');
    assert.equal(redactIp('::ffff:127.0.0.1'), '127.0.0.0/24');
    assert.equal(redactIp('2001:db8:85a3:8d3:1319:8a2e:370:7348'), '2001:db8:85a3::/48');
    assert.equal(redactUserAgent('curl/8.5.0 (x86_64-pc-linux-gnu) secret-ish'), 'curl/8.5.0');
  });
});

describe('stream guard', () => {
  const inspector = new Inspector(new InspectionEngine(loadRulePack('default')), { mode: 'action', blockAt: 'CRITICAL', alertAt: 'MEDIUM', hiltEnabled: false, hiltMinSeverity: 'HIGH' });
  const inspection = new ProxyInspection(inspector);
  const view = { model: 'm', stream: true, text: '' };
  const guardFor = (enforce: boolean) => new StreamGuard(inspection, openAIChat.streamDecoder(view), openAIChat.streamDecoder(view), enforce);
  const feed = (guard: StreamGuard, pieces: string[]) => {
    const framer = sseFramer();
    const sent: string[] = [];
    for (const piece of pieces) sent.push(guard.push(framer.push(piece)).send);
    sent.push(guard.finish().send);
    return sent;
  };

  test('a partial word is held until the word is complete', () => {
    const pieces = openAIStream(['Hel', 'lo ', 'world']);
    const sent = feed(guardFor(true), pieces);
    assert.equal(sent[1], '', '"Hel" waits');
    assert.equal(sent[2], pieces[1]! + pieces[2]!, '"Hel" and "lo " go together');
    assert.equal(sent.join(''), pieces.join(''));
  });

  test('a finding far from the boundary in a long answer is still caught (overlap), once', () => {
    const filler = Array.from({ length: 300 }, (_, i) => `word${i} `);
    const guard = guardFor(true);
    const sent = feed(guard, openAIStream([...filler, 'ghp_abcdefghijklmnop', 'qrstuvwxyz0123456789', ' tail', ...filler]));
    assert.ok(guard.blocked);
    assert.ok(!sent.join('').includes('ghp_'));
    assert.equal(guard.decision().findings.filter((f) => f.rule.id === 'SECRET-GITHUB-PAT-CLASSIC').length, 1);
  });

  test('the block tail continues what the agent saw, not the held events it never got', () => {
    const event = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
    const seen = [
      event('message_start', { message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'c', content: [], stop_reason: null, usage: { input_tokens: 1, output_tokens: 0 } } }),
      event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
      event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Running it. ' } }),
      event('content_block_stop', { index: 0 }),
    ];
    const held = [
      event('content_block_start', { index: 1, content_block: { type: 'tool_use', id: 't1', name: 'Bash', input: {} } }),
      event('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: '{"command":"rm -rf /"}' } }),
      event('content_block_stop', { index: 1 }),
    ];
    const guard = new StreamGuard(inspection, anthropic.streamDecoder(view), anthropic.streamDecoder(view), true);
    const framer = sseFramer();
    assert.equal(guard.push(framer.push(seen.join(''))).send, seen.join(''));
    const tail = guard.push(framer.push(held.join(''))).send;
    assert.ok(guard.blocked);
    const starts = tail.split('\n\n').filter((e) => e.startsWith('event: content_block_start')).map((e) => JSON.parse(e.split('data: ')[1]!) as { index: number });
    assert.deepEqual(starts.map((s) => s.index), [1], 'the block text takes the index of the tool call the agent never saw');
  });

  test('a finding whose severity rises later in the answer counts at its new severity', () => {
    // A scored rule (like the injection score) can be MEDIUM on the first words and CRITICAL once more arrive.
    const rule = { id: 'SCORED', title: 'scored', category: 'trust-exploit' as const, confidence: 0.9, tags: [], builtin: true };
    class Scored extends ProxyInspection {
      override text(text: string): Finding[] {
        if (text.includes('strong')) return [{ rule: { ...rule, severity: 'CRITICAL' as const }, evidence: 'strong' }];
        return text.includes('weak') ? [{ rule: { ...rule, severity: 'MEDIUM' as const }, evidence: 'weak' }] : [];
      }
    }
    const guard = new StreamGuard(new Scored(inspector), openAIChat.streamDecoder(view), openAIChat.streamDecoder(view), true);
    feed(guard, openAIStream(['a weak start ', 'x '.repeat(3000), 'then a strong end']));
    assert.ok(guard.blocked, 'the CRITICAL finding blocks although a MEDIUM one of the same rule came first');
    assert.equal(guard.decision().verdict.severity, 'CRITICAL');
  });

  test('observe mode relays every event at once and only records', () => {
    const pieces = openAIStream(['tok ', 'ghp_abcdefghijklmnopqrstuvwxyz0123456789', ' end']);
    const guard = guardFor(false);
    const sent = feed(guard, pieces);
    assert.deepEqual(sent.slice(0, pieces.length), pieces);
    assert.equal(guard.blocked, false);
    assert.equal(guard.decision().verdict.raw_action, 'block');
  });
});
