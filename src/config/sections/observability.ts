// `observability` in config.yaml: where the event writer sends its records (docs/telemetry.md "Event writer and
// sinks"). One object shape for every destination kind, so each key is documented in docs/configuration.md; the
// fields that belong to another kind are refused by destinationProblems() (telemetry/sinks/build.ts), the way
// connector names are checked after the schema. Secrets are never written here: only the names of the
// environment variables (or `.env` entries) that hold them.
import Type from 'typebox';

/**
 * schema.ts's `oneOf`, restated: importing it from there would make this file and schema.ts import each other,
 * and whichever loads first would read the other before it is initialised.
 */
const oneOf = <const T extends readonly string[]>(values: T, options: { default?: T[number]; description?: string } = {}) =>
  Type.Unsafe<T[number]>(Type.Union(values.map((v) => Type.Literal(v)), options));

export const DESTINATION_KINDS = ['jsonl', 'otlp', 'http_jsonl', 'splunk_hec'] as const;
export const RECORD_KINDS = ['lifecycle', 'verdict', 'judge', 'diagnostic', 'egress', 'audit', 'otlp'] as const;

const EnvName = (description: string) => Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$', description });

export const Destination = Type.Object(
  {
    name: Type.String({ pattern: '^[a-z0-9][a-z0-9_-]{0,63}$', description: 'Name of the destination: unique, used in logs and metrics labels.' }),
    kind: oneOf(DESTINATION_KINDS, {
      description: '`jsonl` (a local file, rotated), `otlp` (OTLP/HTTP logs export to a collector), `http_jsonl` ' +
        '(newline-delimited JSON POSTed in batches), `splunk_hec` (Splunk HTTP Event Collector).',
    }),
    enabled: Type.Boolean({ default: true, description: 'Send records to this destination.' }),
    records: Type.Array(oneOf(RECORD_KINDS), {
      default: [],
      description: 'Record kinds sent here (`lifecycle`, `verdict`, `judge`, `diagnostic`, `egress`, `audit`, `otlp`); empty: all of them.',
    }),
    path: Type.Optional(Type.String({
      minLength: 1,
      description: '(`jsonl`) The file written; a relative path is under `$WARDEN_HOME`. Created with mode 0600.',
    })),
    max_bytes: Type.Integer({ minimum: 4096, default: 50 * 1024 * 1024, description: '(`jsonl`) Size at which the file is rotated to `<path>.1`.' }),
    max_files: Type.Integer({ minimum: 1, maximum: 100, default: 5, description: '(`jsonl`) Rotated files kept (`<path>.1` … `<path>.N`); older ones are deleted.' }),
    url: Type.Optional(Type.String({
      pattern: '^https?://',
      description: '(`otlp`, `http_jsonl`, `splunk_hec`) Where records are sent: the OTLP logs endpoint (for example ' +
        '`http://collector:4318/v1/logs`), the JSON Lines receiver, or the HEC event endpoint (`https://splunk:8088/services/collector/event`).',
    })),
    protocol: oneOf(['http/protobuf', 'http/json'] as const, {
      default: 'http/protobuf',
      description: '(`otlp`) OTLP/HTTP encoding, as `OTEL_EXPORTER_OTLP_PROTOCOL` names it.',
    }),
    token_env: Type.Optional(EnvName(
      '(`splunk_hec`, `http_jsonl`) Environment variable holding the token: sent as `Authorization: Splunk <token>` ' +
        '(HEC) or `Authorization: Bearer <token>` (http_jsonl).',
    )),
    headers_env: Type.Record(Type.String({ pattern: '^[A-Za-z0-9-]{1,64}$' }), EnvName('variable name'), {
      default: {},
      description: '(`otlp`, `http_jsonl`) Extra request headers, `{"<header>": "<ENV_VARIABLE>"}`: each value is read from that variable.',
    }),
    index: Type.Optional(Type.String({ maxLength: 256, description: '(`splunk_hec`) HEC `index` of every event.' })),
    sourcetype: Type.String({ default: 'warden:event', maxLength: 256, description: '(`splunk_hec`) HEC `sourcetype` of every event.' }),
    batch_size: Type.Integer({ minimum: 1, maximum: 10_000, default: 200, description: 'Records sent together, at most.' }),
    flush_interval_ms: Type.Integer({ minimum: 10, maximum: 600_000, default: 1000, description: 'A partial batch is sent after this long.' }),
    buffer_size: Type.Integer({
      minimum: 1, maximum: 1_000_000, default: 10_000,
      description: 'Records held while the destination is slow or down; past it the oldest are dropped and counted ' +
        '(`warden_sink_dropped_total`), the gateway never waits.',
    }),
    timeout_ms: Type.Integer({ minimum: 100, maximum: 120_000, default: 10_000, description: 'One delivery attempt, at most.' }),
    max_backoff_ms: Type.Integer({
      minimum: 100, maximum: 600_000, default: 30_000,
      description: 'Longest wait between retries of a failed batch (waits double from 250 ms, with jitter, up to this).',
    }),
  },
  { additionalProperties: false, description: 'One place records are sent.' },
);

export const ObservabilitySection = Type.Object(
  {
    destinations: Type.Array(Destination, {
      default: [],
      description: 'Where the event writer sends lifecycle, verdict, judge, diagnostic, egress, audit and OTLP-derived ' +
        'records (see [telemetry.md](telemetry.md)); rebuilt on reload.',
    }),
  },
  { additionalProperties: false, default: {}, description: 'Telemetry sent out of the gateway: the event writer\'s destinations.' },
);
