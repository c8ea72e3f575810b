// The OTLP receiver end to end: the official OpenTelemetry JS exporters (OTLP/HTTP JSON and protobuf; logs,
// traces, metrics) as real clients of a real sidecar on an ephemeral port; what is stored in telemetry.db; the
// scoped-credential rules; the path-token route; gzip; the 64 MiB limit and its rejection record.
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { SeverityNumber } from '@opentelemetry/api-logs';
import { LoggerProvider, SimpleLogRecordProcessor, type LogRecordExporter } from '@opentelemetry/sdk-logs';
import { TracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { OTLPLogExporter as JsonLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPLogExporter as ProtoLogExporter } from '@opentelemetry/exporter-logs-otlp-proto';
import { OTLPTraceExporter as ProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { OTLPMetricExporter as JsonMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { ScopedCredentials } from '../../src/telemetry/otlp/credentials.js';
import { OTLP_MESSAGES } from '../../src/telemetry/otlp/proto.js';
import { startInProcess, type InProcessGateway } from '../helpers/gateway.js';
import { AuditReader } from '../../src/audit/reader.js';

const TOKEN = 'test-token-otlp-0123456789abcdef';

let gw: InProcessGateway;
let claudeToken: string;
let telemetryDb: Database.Database;

before(async () => {
  gw = await startInProcess(undefined, { WARDEN_GATEWAY_TOKEN: TOKEN });
  claudeToken = ScopedCredentials.issue(gw.home.dir, 'claudecode');
  await gw.gateway.restart(); // what `warden setup --telemetry`'s SIGHUP does
  telemetryDb = new Database(`${gw.home.dir}/telemetry.db`, { readonly: true });
});
after(async () => {
  telemetryDb.close();
  await gw.close();
});

const claudeHeaders = () => ({ authorization: `Bearer ${claudeToken}`, 'x-warden-source': 'claudecode', 'x-warden-client': 'claude-code' });

/** Exports through `exporter` with the SDK and resolves with the export's result code (0 success). */
async function exportLogs(exporter: LogRecordExporter, emit: (logger: ReturnType<LoggerProvider['getLogger']>) => void): Promise<number> {
  const codes: number[] = [];
  const watching: LogRecordExporter = {
    export: (records, done) => exporter.export(records, (result) => {
      codes.push(result.code);
      done(result);
    }),
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush(),
  };
  const provider = new LoggerProvider({ resource: resourceFromAttributes({ 'service.name': 'claude-code' }), processors: [new SimpleLogRecordProcessor({ exporter: watching })] });
  emit(provider.getLogger('com.anthropic.claude_code'));
  await provider.forceFlush();
  await provider.shutdown();
  return codes.every((c) => c === 0) && codes.length > 0 ? 0 : 1;
}

const claudeToolResult = (session: string, toolUseId: string) => ({
  severityNumber: SeverityNumber.INFO,
  body: 'claude_code.tool_result',
  attributes: {
    'event.name': 'tool_result', 'session.id': session, tool_name: 'Bash', success: 'true', duration_ms: 42,
    decision: 'accept', tool_use_id: toolUseId, tool_parameters: '{"bash_command":"cat ~/.ssh/id_rsa"}',
  },
});

const eventsOf = (session: string) => telemetryDb.prepare('SELECT * FROM agent_events WHERE session_id = ? ORDER BY seq').all(session) as Record<string, unknown>[];

describe('OTLP receiver with the official exporters', () => {
  it('stores Claude Code log events sent as protobuf with the scoped token', async () => {
    const exporter = new ProtoLogExporter({ url: `${gw.gateway.sidecarUrl}/v1/logs`, headers: claudeHeaders() });
    const code = await exportLogs(exporter, (logger) => {
      logger.emit({ body: 'claude_code.user_prompt', attributes: { 'event.name': 'user_prompt', 'session.id': 's-proto', prompt_length: 11, prompt: 'hello there' } });
      logger.emit(claudeToolResult('s-proto', 'toolu_proto1'));
      logger.emit({ body: 'claude_code.api_request', attributes: { 'event.name': 'api_request', 'session.id': 's-proto', model: 'claude-sonnet-4', input_tokens: 1200, output_tokens: 300, cost_usd: 0.0123, duration_ms: 2100 } });
    });
    assert.equal(code, 0);
    const rows = eventsOf('s-proto');
    assert.deepEqual(rows.map((r) => [r.event_name, r.category, r.source]), [
      ['claude_code.user_prompt', 'prompt', 'claudecode'],
      ['claude_code.tool_result', 'tool_result', 'claudecode'],
      ['claude_code.api_request', 'api_request', 'claudecode'],
    ]);
    const [prompt, tool, api] = rows;
    assert.equal(prompt!.prompt_length, 11);
    assert.match(String(prompt!.prompt_sha256), /^[0-9a-f]{64}$/);
    assert.equal(prompt!.prompt_text, null, 'prompt text is not kept by default');
    assert.ok(!String(prompt!.attributes).includes('hello there'));
    assert.equal(tool!.tool_invocation_id, 'toolu_proto1');
    assert.equal(tool!.tool_name, 'Bash');
    assert.equal(tool!.success, 1);
    assert.ok(!String(tool!.attributes).includes('id_rsa'), 'tool parameters are content, not stored');
    assert.equal(api!.model, 'claude-sonnet-4');
    assert.equal(api!.input_tokens, 1200);
    assert.equal(api!.cost_usd, 0.0123);
  });

  it('stores log events sent as OTLP/JSON', async () => {
    const exporter = new JsonLogExporter({ url: `${gw.gateway.sidecarUrl}/v1/logs`, headers: claudeHeaders() });
    assert.equal(await exportLogs(exporter, (logger) => logger.emit(claudeToolResult('s-json', 'toolu_json1'))), 0);
    assert.equal(eventsOf('s-json')[0]?.tool_invocation_id, 'toolu_json1');
  });

  it('stores span summaries (protobuf traces) with their trace and span ids', async () => {
    const exporter = new ProtoTraceExporter({ url: `${gw.gateway.sidecarUrl}/v1/traces`, headers: claudeHeaders() });
    const provider = new TracerProvider({ resource: resourceFromAttributes({ 'service.name': 'claude-code' }), spanProcessors: [new SimpleSpanProcessor({ exporter })] });
    const span = provider.getTracer('t').startSpan('claude_code.tool', { attributes: { 'session.id': 's-trace', tool_use_id: 'toolu_span' } });
    const { traceId, spanId } = span.spanContext();
    span.end();
    await provider.forceFlush();
    await provider.shutdown();
    const row = telemetryDb.prepare('SELECT * FROM spans WHERE trace_id = ?').get(traceId) as Record<string, unknown> | undefined;
    assert.ok(row, 'span stored');
    assert.equal(row.span_id, spanId);
    assert.equal(row.session_id, 's-trace');
    assert.equal(row.tool_invocation_id, 'toolu_span');
    assert.equal(row.source, 'claudecode');
  });

  it('stores metric summaries (OTLP/JSON metrics)', async () => {
    const exporter = new JsonMetricExporter({ url: `${gw.gateway.sidecarUrl}/v1/metrics`, headers: claudeHeaders() });
    const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 60_000 });
    const provider = new MeterProvider({ resource: resourceFromAttributes({ 'service.name': 'claude-code' }), readers: [reader] });
    provider.getMeter('m').createCounter('claude_code.token.usage', { unit: 'tokens' }).add(150, { 'session.id': 's-metric', type: 'input' });
    await provider.forceFlush();
    await provider.shutdown();
    const row = telemetryDb.prepare("SELECT * FROM metrics WHERE name = 'claude_code.token.usage'").get() as Record<string, unknown> | undefined;
    assert.ok(row);
    assert.equal(row.value_sum, 150);
    assert.equal(row.data_type, 'sum');
    assert.equal(row.session_id, 's-metric');
  });
});

const logsBody = (session: string, extra: object[] = []) => JSON.stringify({
  resourceLogs: [{
    resource: { attributes: [{ key: 'service.name', value: { stringValue: 'claude-code' } }] },
    scopeLogs: [{ logRecords: [
      { body: { stringValue: 'claude_code.tool_result' }, attributes: [{ key: 'session.id', value: { stringValue: session } }, { key: 'tool_name', value: { stringValue: 'Read' } }] },
      ...extra,
    ] }],
  }],
});

async function post(path: string, body: string | Buffer, headers: Record<string, string>) {
  const response = await fetch(`${gw.gateway.sidecarUrl}${path}`, { method: 'POST', body: typeof body === 'string' ? body : new Uint8Array(body), headers: { 'content-type': 'application/json', ...headers } });
  const type = response.headers.get('content-type') ?? '';
  const payload = type.includes('json') ? await response.json() : Buffer.from(await response.arrayBuffer());
  return { status: response.status, type, payload: payload as Record<string, unknown> & Buffer };
}

describe('OTLP answers', () => {
  it('answers {} for a JSON success and an empty protobuf answer for a protobuf success', async () => {
    const json = await post('/v1/logs', logsBody('s-ans'), claudeHeaders());
    assert.equal(json.status, 200);
    assert.deepEqual(json.payload, {});
    const request = OTLP_MESSAGES.logs.request;
    const proto = Buffer.from(request.encode(request.fromObject({ resourceLogs: [] })).finish());
    const answer = await post('/v1/logs', proto, { ...claudeHeaders(), 'content-type': 'application/x-protobuf' });
    assert.equal(answer.status, 200);
    assert.match(answer.type, /application\/x-protobuf/);
    assert.equal(answer.payload.length, 0);
  });

  it('answers partialSuccess naming the rejected records, keeping the rest', async () => {
    const bad = { body: { stringValue: 'claude_code.tool_result' }, traceId: 'not-hex', attributes: [] };
    const json = await post('/v1/logs', logsBody('s-partial', [bad]), claudeHeaders());
    assert.equal(json.status, 200);
    const partial = json.payload.partialSuccess as { rejectedLogRecords: string; errorMessage: string };
    assert.equal(partial.rejectedLogRecords, '1');
    assert.match(partial.errorMessage, /trace or span id/);
    assert.equal(eventsOf('s-partial').length, 1);
  });

  it('accepts a gzip body', async () => {
    const r = await post('/v1/logs', gzipSync(logsBody('s-gzip')), { ...claudeHeaders(), 'content-encoding': 'gzip' });
    assert.equal(r.status, 200);
    assert.equal(eventsOf('s-gzip').length, 1);
  });

  it('refuses a body that is not OTLP with 400, and a content type that is not OTLP with 415', async () => {
    assert.equal((await post('/v1/logs', '{nope', claudeHeaders())).status, 400);
    assert.equal((await post('/v1/logs', Buffer.from([0xff, 0xff, 0xff]), { ...claudeHeaders(), 'content-type': 'application/x-protobuf' })).status, 400);
    assert.equal((await post('/v1/logs', 'x', { ...claudeHeaders(), 'content-type': 'text/plain' })).status, 415);
  });

  it('answers 413 past 64 MiB and records a content-free body_too_large rejection', async () => {
    const big = Buffer.alloc(64 * 1024 * 1024 + 1, 0x20);
    const r = await post('/v1/logs', big, claudeHeaders());
    assert.equal(r.status, 413);
    // A small gzip body that expands past the limit is refused the same way.
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024 + 1, 0x20));
    assert.equal((await post('/v1/traces', bomb, { ...claudeHeaders(), 'content-encoding': 'gzip' })).status, 413);
    await gw.gateway.flushAudit();
    const reader = new AuditReader(gw.home.env.WARDEN_HOME + '/audit.db');
    try {
      const rows = [...reader.events()].filter((e) => e.action === 'otlp-rejected');
      assert.deepEqual(rows.map((e) => [e.target, e.details, e.connector]), [['logs', 'body_too_large', 'claudecode'], ['traces', 'body_too_large', 'claudecode']]);
      assert.ok(!JSON.stringify(rows).includes(claudeToken));
    } finally {
      reader.close();
    }
  });
});

describe('scoped OTLP credentials', () => {
  it('refuses a scoped token without X-Warden-Source, or naming another source', async () => {
    const noSource: Record<string, string> = claudeHeaders();
    delete noSource['x-warden-source'];
    assert.equal((await post('/v1/logs', logsBody('s-x'), noSource)).status, 403);
    assert.equal((await post('/v1/logs', logsBody('s-x'), { ...claudeHeaders(), 'x-warden-source': 'codex' })).status, 403);
  });

  it('refuses the master token for a source that has a scoped token', async () => {
    const r = await post('/v1/logs', logsBody('s-m'), { authorization: `Bearer ${TOKEN}`, 'x-warden-source': 'claudecode', 'x-warden-client': 'x' });
    assert.equal(r.status, 401);
    assert.equal(r.payload.code, 'WARDEN_ERR_AUTH_SCOPED_TOKEN_REQUIRED');
  });

  it('rejects records of a scoped source sent with the master token and no source header', async () => {
    const r = await post('/v1/logs', logsBody('s-sneak'), { authorization: `Bearer ${TOKEN}`, 'x-warden-client': 'x' });
    assert.equal(r.status, 200);
    assert.equal((r.payload.partialSuccess as { rejectedLogRecords: string }).rejectedLogRecords, '1');
    assert.equal(eventsOf('s-sneak').length, 0);
  });

  it('accepts geminicli with the master token over loopback', async () => {
    const body = JSON.stringify({ resourceLogs: [{ scopeLogs: [{ logRecords: [{ body: { stringValue: 'gemini_cli.tool_call' }, attributes: [
      { key: 'session.id', value: { stringValue: 's-gem' } }, { key: 'function_name', value: { stringValue: 'run_shell_command' } },
    ] }] }] }] });
    const r = await post('/v1/logs', body, { authorization: `Bearer ${TOKEN}`, 'x-warden-source': 'geminicli', 'x-warden-client': 'gemini' });
    assert.equal(r.status, 200);
    assert.deepEqual(eventsOf('s-gem').map((e) => [e.source, e.category, e.tool_name]), [['geminicli', 'tool_result', 'run_shell_command']]);
  });

  it('refuses a sandbox-binding credential with 401, in a header or the path', async () => {
    assert.equal((await post('/v1/logs', logsBody('s-sb'), { authorization: 'Bearer wardensb_abc', 'x-warden-client': 'x' })).status, 401);
    assert.equal((await post('/otlp/claudecode/wardensb_abc/v1/logs', logsBody('s-sb'), {})).status, 401);
  });
});

describe('OTLP path-token route', () => {
  it('accepts the scoped token in the path over loopback without a client header', async () => {
    const r = await post(`/otlp/claudecode/${claudeToken}/v1/logs`, logsBody('s-path'), {});
    assert.equal(r.status, 200);
    assert.equal(eventsOf('s-path')[0]?.source, 'claudecode');
  });

  it('refuses a wrong token, the master token, another source, and a non-local browser Origin', async () => {
    assert.equal((await post(`/otlp/claudecode/${claudeToken}x/v1/logs`, logsBody('s-p2'), {})).status, 401);
    assert.equal((await post(`/otlp/claudecode/${TOKEN}/v1/logs`, logsBody('s-p2'), {})).status, 401);
    assert.equal((await post(`/otlp/codex/${claudeToken}/v1/logs`, logsBody('s-p2'), {})).status, 401);
    assert.equal((await post(`/otlp/claudecode/${claudeToken}/v1/logs`, logsBody('s-p2'), { origin: 'https://evil.example' })).status, 403);
    assert.equal((await post(`/otlp/claudecode/${claudeToken}/v1/logs`, 'x', { 'content-type': 'text/plain' })).status, 415);
    assert.equal(eventsOf('s-p2').length, 0);
  });

  it('answers an unknown signal 400 without echoing the token', async () => {
    const r = await post(`/otlp/claudecode/${claudeToken}/v1/bogus`, logsBody('s-p3'), {});
    assert.equal(r.status, 400);
    assert.ok(!JSON.stringify(r.payload).includes(claudeToken));
  });
});
