// Prometheus metrics of one gateway (prom-client), served at GET /metrics on the sidecar (gateway token) and on
// the guardrail proxy (proxy auth). Each gateway has its own Registry, never prom-client's global one, so two
// gateways in one process (tests) count separately; the registry outlives restarts (SIGHUP), so counters do too.
//
// Where the numbers come from: verdicts, proxy calls and stream cuts from the audit store's commit observer
// (every verdict is an audit row, whichever route made it); verdict latency from the sidecar's agent-facing
// routes; added proxy latency from the proxy; queue depths are read when scraped. The OTLP receiver counts what
// it accepts with `countOtlpRecords(signal, n)` (see docs/telemetry.md "Metrics").
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { CommittedRow } from '../audit/store.js';
import { isObject } from '../util/json.js';
import { findConnector } from '../connectors/registry.js';
import { VERDICT_ACTION } from './events/from-audit.js';
import type { Signal } from './otlp/proto.js';

/** Seconds: from a cached rule-pack verdict (tens of microseconds) to a slow disk commit. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/**
 * The connector label: a registered connector's name, else `other`. The inspect routes take the name from a
 * caller's X-Warden-Connector header, and every distinct label value is a series held forever.
 */
const connectorLabel = (name: string | undefined) => (name === undefined ? 'none' : findConnector(name) ? name : 'other');

export class GatewayMetrics {
  readonly registry = new Registry();
  private auditDepth: () => number = () => 0;
  private sinkDepths: () => readonly { name: string; depth: number }[] = () => [];

  private readonly verdicts = new Counter({
    name: 'warden_verdicts_total', help: 'Verdicts recorded, by action, lane (hook-<phase>, inspect-<route>, proxy-<route>) and connector.',
    labelNames: ['action', 'lane', 'connector'] as const, registers: [this.registry],
  });
  private readonly verdictSeconds = new Histogram({
    name: 'warden_verdict_duration_seconds', help: 'Time the sidecar took to answer a hook or inspect request, its audit commit included.',
    labelNames: ['route'] as const, buckets: LATENCY_BUCKETS, registers: [this.registry],
  });
  private readonly proxyCalls = new Counter({
    name: 'warden_proxy_calls_total', help: 'Model calls through the guardrail proxy, by route, provider and outcome (ok, blocked, error).',
    labelNames: ['route', 'provider', 'outcome'] as const, registers: [this.registry],
  });
  private readonly proxyAddedSeconds = new Histogram({
    name: 'warden_proxy_added_latency_seconds', help: 'Time a proxied call spent in Warden rather than waiting on the upstream.',
    labelNames: ['route'] as const, buckets: LATENCY_BUCKETS, registers: [this.registry],
  });
  private readonly streamCuts = new Counter({
    name: 'warden_proxy_stream_cuts_total', help: 'Streamed model answers cut mid-way because their output was blocked.',
    labelNames: ['provider'] as const, registers: [this.registry],
  });
  private readonly auditCommitSeconds = new Histogram({
    name: 'warden_audit_commit_duration_seconds', help: 'Time one audit transaction (a group of rows) took to commit.',
    buckets: LATENCY_BUCKETS, registers: [this.registry],
  });
  private readonly sinkDropped = new Counter({
    name: 'warden_sink_dropped_total', help: 'Records an event writer destination dropped: overflow (buffer full), refused, shutdown.',
    labelNames: ['destination', 'reason'] as const, registers: [this.registry],
  });
  private readonly sinkDelivered = new Counter({
    name: 'warden_sink_delivered_total', help: 'Records an event writer destination delivered.',
    labelNames: ['destination'] as const, registers: [this.registry],
  });
  private readonly sinkFailures = new Counter({
    name: 'warden_sink_delivery_failures_total', help: 'Failed delivery attempts of an event writer destination (each is retried unless refused).',
    labelNames: ['destination'] as const, registers: [this.registry],
  });
  private readonly otlpRecords = new Counter({
    name: 'warden_otlp_records_received_total', help: 'OTLP records (log records, data points, spans) accepted by the receiver, by signal.',
    labelNames: ['signal'] as const, registers: [this.registry],
  });

  constructor() {
    // Read when scraped (prom-client calls `collect` with the gauge as `this`), so they cost nothing between scrapes.
    const auditDepth = () => this.auditDepth();
    const sinkDepths = () => this.sinkDepths();
    new Gauge({
      name: 'warden_audit_queue_depth', help: 'Audit rows appended and not yet committed.', registers: [this.registry],
      collect() {
        this.set(auditDepth());
      },
    });
    new Gauge({
      name: 'warden_sink_queue_depth', help: 'Records an event writer destination holds (waiting or being sent).',
      labelNames: ['destination'] as const, registers: [this.registry],
      collect() {
        this.reset();
        for (const { name, depth } of sinkDepths()) this.set({ destination: name }, depth);
      },
    });
  }

  /** Where the queue depths are read (set again by every start and restart). */
  readDepthsFrom(audit: () => number, sinks: () => readonly { name: string; depth: number }[]): void {
    this.auditDepth = audit;
    this.sinkDepths = sinks;
  }

  /** The audit store's commit observer. */
  observeCommit(rows: readonly CommittedRow[], commitMs: number): void {
    this.auditCommitSeconds.observe(commitMs / 1000);
    for (const { table, row } of rows) {
      if (table !== 'events') continue;
      const match = VERDICT_ACTION.exec(row.action);
      if (!match) continue;
      const [, lane, action] = match as unknown as [string, string, string];
      this.verdicts.inc({ action, lane, connector: connectorLabel(row.connector) });
      if (lane.startsWith('proxy-')) this.countProxyCall(lane.slice('proxy-'.length), row.target ?? 'unknown', row.structured);
    }
  }

  private countProxyCall(route: string, provider: string, structured: unknown): void {
    const s = isObject(structured) ? structured : {};
    const outcome = s.blocked === true ? 'blocked' : typeof s.status === 'number' && s.status >= 400 ? 'error' : 'ok';
    this.proxyCalls.inc({ route, provider, outcome });
    // A stream blocked on its answer (not on its request) was cut after some of it had been relayed.
    if (s.stream === true && s.blocked === true && s.response !== undefined) this.streamCuts.inc({ provider });
  }

  observeVerdictLatency(route: string, seconds: number): void {
    this.verdictSeconds.observe({ route }, seconds);
  }

  observeProxyAddedLatency(route: string, seconds: number): void {
    this.proxyAddedSeconds.observe({ route }, Math.max(0, seconds));
  }

  sinkEvents(destination: string) {
    return {
      dropped: (count: number, reason: 'overflow' | 'refused' | 'shutdown') => this.sinkDropped.inc({ destination, reason }, count),
      delivered: (count: number) => this.sinkDelivered.inc({ destination }, count),
      failed: () => this.sinkFailures.inc({ destination }),
    };
  }

  /** For the OTLP receiver: `n` records of `signal` accepted (log records, metric data points or spans). */
  countOtlpRecords(signal: Signal, n: number): void {
    if (n > 0) this.otlpRecords.inc({ signal }, n);
  }

  /** The exposition text and its content type. */
  async scrape(): Promise<{ text: string; contentType: string }> {
    return { text: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}
