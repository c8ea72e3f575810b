// observability.destinations[] of config.yaml turned into running destinations, and the checks the schema
// cannot make: the fields each kind needs, fields of another kind, unique names, and the environment variables
// that must hold the secrets. A problem refuses the start (on reload, the running configuration is kept).
import { hostname } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { Static } from 'typebox';
import type { Destination as DestinationConfig } from '../../config/sections/observability.js';
import type { Config } from '../../config/schema.js';
import type { EventRecord, RecordKind } from '../events/record.js';
import { httpJsonl, splunkHec } from './http.js';
import { jsonlFile } from './jsonl-file.js';
import { otlpLogs } from './otlp.js';
import { SinkQueue, type Deliver, type QueueEvents } from './queue.js';

type DestinationSettings = Static<typeof DestinationConfig>;
type Env = Record<string, string | undefined>;

/** The optional fields each kind reads; set on another kind they are refused (a likely mix-up). */
const KIND_FIELDS: Record<DestinationSettings['kind'], readonly (keyof DestinationSettings)[]> = {
  jsonl: ['path'],
  otlp: ['url'],
  http_jsonl: ['url', 'token_env'],
  splunk_hec: ['url', 'token_env', 'index'],
};
const KIND_ONLY_FIELDS = ['path', 'url', 'token_env', 'index'] as const;

export function destinationProblems(config: Config, env: Env): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const d of config.observability.destinations) {
    const where = `observability.destinations "${d.name}"`;
    if (seen.has(d.name)) problems.push(`${where}: the name is used twice`);
    seen.add(d.name);
    const allowed = KIND_FIELDS[d.kind];
    for (const field of KIND_ONLY_FIELDS) {
      if (d[field] !== undefined && !allowed.includes(field)) problems.push(`${where}: \`${field}\` does not apply to kind ${d.kind}`);
    }
    if ((d.kind === 'jsonl' || d.kind === 'splunk_hec') && Object.keys(d.headers_env).length > 0) {
      problems.push(`${where}: \`headers_env\` does not apply to kind ${d.kind}`);
    }
    if (d.kind === 'jsonl' && d.path === undefined) problems.push(`${where}: kind jsonl needs \`path\``);
    if (d.kind !== 'jsonl' && d.url === undefined) problems.push(`${where}: kind ${d.kind} needs \`url\``);
    if (d.kind === 'splunk_hec' && d.token_env === undefined) problems.push(`${where}: kind splunk_hec needs \`token_env\``);
    if (!d.enabled) continue;
    for (const name of [d.token_env, ...Object.values(d.headers_env)]) {
      if (name !== undefined && !env[name]) problems.push(`${where}: environment variable ${name} is not set`);
    }
  }
  return problems;
}

/** One running destination: which records it takes, and its queue. */
export interface Sink {
  readonly name: string;
  readonly kind: DestinationSettings['kind'];
  accepts(kind: RecordKind): boolean;
  readonly queue: SinkQueue<EventRecord>;
  /** Releases what the destination holds (the OTLP exporter's connections) once its queue is closed. */
  release(): Promise<void>;
}

export interface BuildOptions {
  home: string;
  env: Env;
  version: string;
  /** The queue events of destination `name` (metrics and logs). */
  events(name: string): QueueEvents;
}

export function buildSinks(config: Config, options: BuildOptions): Sink[] {
  return config.observability.destinations.filter((d) => d.enabled).map((d) => buildSink(d, options));
}

function buildSink(d: DestinationSettings, { home, env, version, events }: BuildOptions): Sink {
  const secret = (name: string | undefined) => (name === undefined ? undefined : env[name]);
  const headers = Object.fromEntries(Object.entries(d.headers_env).map(([header, name]) => [header.toLowerCase(), secret(name) ?? '']));
  let deliver: Deliver<EventRecord>;
  let release = async () => {};
  switch (d.kind) {
    case 'jsonl':
      deliver = jsonlFile({ path: isAbsolute(d.path!) ? d.path! : join(home, d.path!), maxBytes: d.max_bytes, maxFiles: d.max_files });
      break;
    case 'http_jsonl': {
      const token = secret(d.token_env);
      deliver = httpJsonl(d.url!, token ? { ...headers, authorization: `Bearer ${token}` } : headers);
      break;
    }
    case 'splunk_hec':
      deliver = splunkHec(d.url!, { token: secret(d.token_env) ?? '', index: d.index, sourcetype: d.sourcetype, host: hostname() });
      break;
    case 'otlp': {
      const otlp = otlpLogs({ url: d.url!, protocol: d.protocol, headers, timeoutMs: d.timeout_ms, version });
      deliver = otlp.deliver;
      release = () => otlp.shutdown();
      break;
    }
  }
  const kinds = new Set<RecordKind>(d.records);
  const queue = new SinkQueue<EventRecord>(
    { batchSize: d.batch_size, flushIntervalMs: d.flush_interval_ms, bufferSize: d.buffer_size, timeoutMs: d.timeout_ms, maxBackoffMs: d.max_backoff_ms },
    deliver,
    events(d.name),
  );
  return { name: d.name, kind: d.kind, accepts: (kind) => kinds.size === 0 || kinds.has(kind), queue, release };
}
