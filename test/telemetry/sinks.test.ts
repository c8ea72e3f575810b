// Event writer destinations against real receivers: an HTTP server on an ephemeral port that fails then recovers
// (nothing lost within the buffer, drops counted beyond it), the bodies http_jsonl and splunk_hec send, the
// OTLP destination read by a small OTLP/HTTP receiver (JSON), jsonl rotation in a temp folder, and redaction
// of a secret before a record leaves.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Value } from 'typebox/value';
import { validateConfigObject } from '../../src/config/load.js';
import type { Config } from '../../src/config/schema.js';
import { InspectionEngine } from '../../src/guardrail/engine.js';
import { redactEvidence } from '../../src/guardrail/redact.js';
import { loadRulePack } from '../../src/guardrail/rules/load.js';
import { EventWriter } from '../../src/telemetry/events/writer.js';
import { EVENT_SCHEMA, EventRecordSchema, type EventRecord } from '../../src/telemetry/events/record.js';
import { buildSinks, destinationProblems } from '../../src/telemetry/sinks/build.js';
import { SinkQueue } from '../../src/telemetry/sinks/queue.js';
import { GatewayMetrics } from '../../src/telemetry/metrics.js';

/** Retries `check` (an assertion) every 20 ms until it passes or `timeoutMs` is over. */
async function eventually(check: () => unknown, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

interface Receiver {
  url: string;
  requests: { headers: IncomingMessage['headers']; body: string }[];
  /** Answer this status (instead of 200) while set. */
  failWith: number | undefined;
  close(): Promise<void>;
}

async function receiver(): Promise<Receiver> {
  const state: Receiver = { url: '', requests: [], failWith: undefined, close: async () => {} };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (state.failWith !== undefined) return void res.writeHead(state.failWith).end('down');
      state.requests.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}

let seq = 0;
const record = (body: Record<string, unknown> = {}): EventRecord => ({
  schema: EVENT_SCHEMA, kind: 'verdict', time: new Date().toISOString(), id: `r-${++seq}`, name: 'hook-pre-block', severity: 'HIGH',
  anchors: { session_id: 'sess-1', connector: 'claudecode' }, body: { n: seq, ...body },
});

const configWith = (destinations: unknown[]): Config => validateConfigObject({ config_version: 9, observability: { destinations } }, 'config.yaml');

const home = mkdtempSync(join(tmpdir(), 'warden-sinks-'));
after(() => rmSync(home, { recursive: true, force: true }));

function writerFor(destinations: unknown[], env: Record<string, string> = {}, redact = (t: string) => t) {
  const metrics = new GatewayMetrics();
  const config = configWith(destinations);
  assert.deepEqual(destinationProblems(config, env), []);
  const sinks = buildSinks(config, { home, env, version: 'test', events: (name) => ({ ...metrics.sinkEvents(name), failed: () => metrics.sinkEvents(name).failed() }) });
  return { writer: new EventWriter(sinks, redact), metrics, sinks };
}

const metricValue = async (metrics: GatewayMetrics, name: string, labels: Record<string, string>) => {
  const metric = await metrics.registry.getSingleMetric(name)!.get();
  const value = metric.values.find((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l));
  return value?.value ?? 0;
};

describe('sink queue against a receiver that fails, then recovers', () => {
  it('delivers every record held within the buffer once the receiver is back, in order', async () => {
    const r = await receiver();
    r.failWith = 503;
    const { writer, metrics } = writerFor([{ name: 'collector', kind: 'http_jsonl', url: `${r.url}/ingest`, batch_size: 5, flush_interval_ms: 20, buffer_size: 50, max_backoff_ms: 200 }]);
    const sent = Array.from({ length: 30 }, () => record());
    for (const rec of sent) writer.write(rec);
    await eventually(async () => assert.ok(await metricValue(metrics, 'warden_sink_delivery_failures_total', { destination: 'collector' }) >= 2));
    r.failWith = undefined;
    await eventually(() => assert.equal(r.requests.flatMap((q) => q.body.trim().split('\n')).length, 30), 10_000);
    const ids = r.requests.flatMap((q) => q.body.trim().split('\n').map((line) => (JSON.parse(line) as EventRecord).id));
    assert.deepEqual(ids, sent.map((s) => s.id));
    assert.equal(await metricValue(metrics, 'warden_sink_dropped_total', { destination: 'collector' }), 0);
    assert.equal(await metricValue(metrics, 'warden_sink_delivered_total', { destination: 'collector' }), 30);
    assert.equal(await writer.close(1000), 0);
    await r.close();
  });

  it('drops the oldest beyond the buffer and counts them, without blocking the writer', async () => {
    const r = await receiver();
    r.failWith = 500;
    const { writer, metrics, sinks } = writerFor([{ name: 'small', kind: 'http_jsonl', url: r.url, batch_size: 4, flush_interval_ms: 10, buffer_size: 10, max_backoff_ms: 100 }]);
    // The first batch leaves (and fails) before the rest arrive, so it is the one held in flight.
    const first = Array.from({ length: 4 }, () => record());
    for (const rec of first) writer.write(rec);
    await eventually(() => assert.equal(sinks[0]!.queue.depth, 4));
    await eventually(async () => assert.ok(await metricValue(metrics, 'warden_sink_delivery_failures_total', { destination: 'small' }) >= 1));
    const rest = Array.from({ length: 25 }, () => record());
    const started = performance.now();
    for (const rec of rest) writer.write(rec);
    assert.ok(performance.now() - started < 50, 'writing never waits on the destination');
    await eventually(() => assert.equal(sinks[0]!.queue.depth, 14)); // 4 in flight + a full buffer of 10
    assert.equal(await metricValue(metrics, 'warden_sink_dropped_total', { destination: 'small', reason: 'overflow' }), 15);
    r.failWith = undefined;
    await eventually(() => assert.equal(r.requests.flatMap((q) => q.body.trim().split('\n')).length, 14), 10_000);
    const ids = r.requests.flatMap((q) => q.body.trim().split('\n').map((line) => (JSON.parse(line) as EventRecord).id));
    assert.deepEqual(ids, [...first, ...rest.slice(15)].map((s) => s.id), 'the newest records and the batch in flight survive');
    await writer.close(1000);
    await r.close();
  });

  it('drops a batch the receiver refuses for good (4xx) and goes on with the next', async () => {
    let calls = 0;
    const queue = new SinkQueue<number>(
      { batchSize: 2, flushIntervalMs: 5, bufferSize: 10, timeoutMs: 1000, maxBackoffMs: 100 },
      async (batch) => {
        calls++;
        if (batch.includes(1)) {
          const { PermanentDeliveryFailure } = await import('../../src/telemetry/sinks/queue.js');
          throw new PermanentDeliveryFailure('400');
        }
      },
      { dropped: (n, reason) => assert.equal(reason, 'refused'), failed: () => {}, delivered: () => {} },
    );
    for (const n of [1, 2, 3, 4]) queue.push(n);
    await eventually(() => assert.equal(queue.depth, 0));
    assert.equal(calls, 2);
    await queue.close(100);
  });

  it('counts what cannot be sent before the shutdown deadline', async () => {
    const r = await receiver();
    r.failWith = 503;
    const { writer, metrics } = writerFor([{ name: 'dead', kind: 'http_jsonl', url: r.url, batch_size: 10, flush_interval_ms: 10, max_backoff_ms: 100 }]);
    for (let i = 0; i < 7; i++) writer.write(record());
    assert.equal(await writer.close(300), 7);
    assert.equal(await metricValue(metrics, 'warden_sink_dropped_total', { destination: 'dead', reason: 'shutdown' }), 7);
    await r.close();
  });
});

describe('destination bodies as a receiver sees them', () => {
  it('http_jsonl: newline-delimited envelopes, the bearer token and the configured headers from the environment', async () => {
    const r = await receiver();
    const env = { SINK_TOKEN: 'tok-123456', TENANT_HEADER: 'tenant-a' };
    const { writer } = writerFor([{ name: 'lines', kind: 'http_jsonl', url: `${r.url}/x`, token_env: 'SINK_TOKEN', headers_env: { 'X-Tenant': 'TENANT_HEADER' }, batch_size: 3, flush_interval_ms: 20 }], env);
    for (let i = 0; i < 3; i++) writer.write(record());
    await eventually(() => assert.equal(r.requests.length, 1));
    const [request] = r.requests;
    assert.equal(request!.headers['content-type'], 'application/x-ndjson');
    assert.equal(request!.headers.authorization, 'Bearer tok-123456');
    assert.equal(request!.headers['x-tenant'], 'tenant-a');
    const lines = request!.body.trimEnd().split('\n').map((l) => JSON.parse(l) as unknown);
    assert.equal(lines.length, 3);
    for (const line of lines) assert.ok(Value.Check(EventRecordSchema, line), 'every line is a valid envelope');
    await writer.close(1000);
    await r.close();
  });

  it('splunk_hec: one HEC event object per record, with time, sourcetype, index and the Splunk token', async () => {
    const r = await receiver();
    const { writer } = writerFor([{ name: 'hec', kind: 'splunk_hec', url: `${r.url}/services/collector/event`, token_env: 'HEC_TOKEN', index: 'warden', batch_size: 2, flush_interval_ms: 20 }], { HEC_TOKEN: 'hec-secret-1' });
    const sent = [record(), record()];
    for (const rec of sent) writer.write(rec);
    await eventually(() => assert.equal(r.requests.length, 1));
    const [request] = r.requests;
    assert.equal(request!.headers.authorization, 'Splunk hec-secret-1');
    const events = request!.body.split('\n').map((l) => JSON.parse(l) as { time: number; sourcetype: string; index: string; source: string; event: EventRecord });
    assert.equal(events.length, 2);
    assert.equal(events[0]!.event.id, sent[0]!.id);
    assert.equal(events[0]!.sourcetype, 'warden:event');
    assert.equal(events[0]!.index, 'warden');
    assert.equal(events[0]!.source, 'warden');
    assert.ok(Math.abs(events[0]!.time - Date.parse(sent[0]!.time) / 1000) < 0.001);
    await writer.close(1000);
    await r.close();
  });

  it('otlp (http/json): OTLP log records with the envelope as body and its anchors as attributes', async () => {
    const r = await receiver();
    const { writer } = writerFor([{ name: 'otel', kind: 'otlp', protocol: 'http/json', url: `${r.url}/v1/logs`, headers_env: { 'X-Key': 'OTEL_KEY' }, batch_size: 2, flush_interval_ms: 20 }], { OTEL_KEY: 'k-1' });
    const sent = [record(), record()];
    for (const rec of sent) writer.write(rec);
    await eventually(() => assert.equal(r.requests.length, 1), 10_000);
    const [request] = r.requests;
    assert.equal(request!.headers['x-key'], 'k-1');
    assert.match(String(request!.headers['content-type']), /application\/json/);
    type KeyValue = { key: string; value: { stringValue?: string; kvlistValue?: { values: KeyValue[] } } };
    const body = JSON.parse(request!.body) as { resourceLogs: { scopeLogs: { scope: { name: string }; logRecords: { eventName: string; severityText: string; attributes: KeyValue[]; body: { kvlistValue: { values: KeyValue[] } } }[] }[] }[] };
    const scopeLogs = body.resourceLogs[0]!.scopeLogs[0]!;
    assert.equal(scopeLogs.scope.name, 'warden');
    assert.equal(scopeLogs.logRecords.length, 2);
    const first = scopeLogs.logRecords[0]!;
    assert.equal(first.eventName, 'warden.verdict');
    assert.equal(first.severityText, 'HIGH');
    const attr = (key: string) => first.attributes.find((a) => a.key === key)?.value.stringValue;
    assert.equal(attr('warden.record.id'), sent[0]!.id);
    assert.equal(attr('warden.session_id'), 'sess-1');
    assert.equal(first.body.kvlistValue.values.find((v) => v.key === 'name')?.value.stringValue, 'hook-pre-block');
    await writer.close(1000);
    await r.close();
  });

  it('otlp (http/protobuf): the protobuf exporter posts an OTLP ExportLogsServiceRequest', async () => {
    const r = await receiver();
    const { writer } = writerFor([{ name: 'otel-proto', kind: 'otlp', url: `${r.url}/v1/logs`, batch_size: 1, flush_interval_ms: 10 }]);
    const sent = record();
    writer.write(sent);
    await eventually(() => assert.equal(r.requests.length, 1), 10_000);
    assert.equal(r.requests[0]!.headers['content-type'], 'application/x-protobuf');
    // Protobuf strings are stored as they are: the record id and the event name appear in the encoded body.
    assert.ok(r.requests[0]!.body.includes(sent.id));
    assert.ok(r.requests[0]!.body.includes('warden.verdict'));
    await writer.close(1000);
    await r.close();
  });

  it('redacts a secret in a record before it leaves, as evidence is redacted', async () => {
    const r = await receiver();
    const secret = `ghp_${'a1B2c3D4e5'.repeat(3)}a1B2c3`;
    const engine = new InspectionEngine(loadRulePack('default', []));
    const { writer } = writerFor([{ name: 'redacted', kind: 'http_jsonl', url: r.url, batch_size: 1, flush_interval_ms: 10 }], {},
      (text) => engine.redactSecrets(text));
    writer.write(record({ details: `git clone https://${secret}@github.com/acme/app`, nested: { [secret]: [secret] } }));
    await eventually(() => assert.equal(r.requests.length, 1));
    assert.ok(!r.requests[0]!.body.includes(secret));
    assert.ok(r.requests[0]!.body.includes(redactEvidence(secret)), 'the evidence form: <redacted len=N sha=…>');
    await writer.close(1000);
    await r.close();
  });
});

describe('jsonl destination', () => {
  it('appends envelopes to a 0600 file and rotates by size, keeping max_files', async () => {
    const dir = mkdtempSync(join(home, 'jsonl-'));
    const { writer } = writerFor([{ name: 'file', kind: 'jsonl', path: join(dir, 'events.jsonl'), max_bytes: 4096, max_files: 2, batch_size: 5, flush_interval_ms: 10 }]);
    const pad = 'x'.repeat(300);
    for (let i = 0; i < 60; i++) writer.write(record({ pad }));
    await writer.close(2000);
    const files = readdirSync(dir).sort();
    assert.deepEqual(files, ['events.jsonl', 'events.jsonl.1', 'events.jsonl.2']);
    for (const f of files) {
      assert.ok(statSync(join(dir, f)).size <= 4096, `${f} stays under max_bytes`);
      assert.equal(statSync(join(dir, f)).mode & 0o777, 0o600);
    }
    const newest = readFileSync(join(dir, 'events.jsonl'), 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as EventRecord);
    assert.equal(newest.at(-1)!.body.n, seq, 'the last record is in the current file');
  });
});

describe('destination configuration', () => {
  it('refuses missing and foreign fields, duplicate names and unset secret variables', () => {
    const problems = destinationProblems(configWith([
      { name: 'a', kind: 'jsonl' },
      { name: 'a', kind: 'splunk_hec', url: 'https://hec.example/services/collector/event', path: 'x.jsonl' },
      { name: 'b', kind: 'http_jsonl', url: 'http://127.0.0.1:1/', headers_env: { 'X-Key': 'UNSET_VAR' } },
      { name: 'c', kind: 'jsonl', path: 'c.jsonl', headers_env: { 'X-Key': 'SET_VAR' } },
    ]), { SET_VAR: 'v' });
    assert.deepEqual(problems, [
      'observability.destinations "a": kind jsonl needs `path`',
      'observability.destinations "a": the name is used twice',
      'observability.destinations "a": `path` does not apply to kind splunk_hec',
      'observability.destinations "a": kind splunk_hec needs `token_env`',
      'observability.destinations "b": environment variable UNSET_VAR is not set',
      'observability.destinations "c": `headers_env` does not apply to kind jsonl',
    ]);
  });
});
