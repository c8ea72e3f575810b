// What discovery reports, as TypeBox schemas (the routes answer them and validate posted reports with them):
// signals (something AI found on the host, with its evidence and a confidence), the processes, endpoints, local
// models and components behind them, and the scan report that holds them all. Names, paths, ports and model
// ids only: never a variable's value, a process's arguments or a configuration's secrets.
import Type, { type Static } from 'typebox';
import { DISCOVERY_LIMITS } from './limits.js';

export const EVIDENCE_KINDS = ['process', 'config_path', 'ide_extension', 'mcp_server', 'listening_port', 'api_probe', 'dependency', 'env_key'] as const;
export type EvidenceKind = (typeof EVIDENCE_KINDS)[number];
export const SIGNAL_CATEGORIES = ['agent', 'ide_extension', 'mcp_server', 'local_model', 'sdk', 'provider_key'] as const;
export const LEVELS = ['low', 'medium', 'high'] as const;

const lit = <const T extends readonly string[]>(values: T, description?: string) =>
  Type.Unsafe<T[number]>(Type.Union(values.map((v) => Type.Literal(v)), { description }));
const Text = (max: number, description?: string) => Type.String({ minLength: 1, maxLength: max, description });

export const Evidence = Type.Object(
  {
    kind: lit(EVIDENCE_KINDS, 'What was seen.'),
    detail: Text(1024, 'What exactly: a process name, a folder, an extension id, a port, a package and version, a variable name.'),
    path: Type.Optional(Text(4096, 'Where it was seen, when it is a file or folder.')),
  },
  { additionalProperties: false },
);
export type Evidence = Static<typeof Evidence>;

export const Confidence = Type.Object(
  { score: Type.Number({ minimum: 0, maximum: 1 }), level: lit(LEVELS) },
  { additionalProperties: false, description: 'The confidence policy\'s score of the evidence, and its level.' },
);
export type Confidence = Static<typeof Confidence>;

const signalFields = {
  id: Text(300, 'Stable id: `<category>:<signature id or name>`.'),
  category: lit(SIGNAL_CATEGORIES),
  name: Text(256, 'What was found, as people call it.'),
  vendor: Type.Optional(Text(256)),
  agent: Type.Optional(Text(128, 'The agent it belongs to (an MCP server\'s or extension\'s agent).')),
  evidence: Type.Array(Evidence, { minItems: 1, maxItems: 200 }),
};

/** A signal as a scan or a report states it, before scoring. */
export const UnscoredSignal = Type.Object(signalFields, { additionalProperties: false });
export type UnscoredSignal = Static<typeof UnscoredSignal>;
export const Signal = Type.Object({ ...signalFields, confidence: Confidence }, { additionalProperties: false });
export type Signal = Static<typeof Signal>;

export const Component = Type.Object(
  {
    ecosystem: Type.String({ minLength: 1, maxLength: 32, pattern: '^[a-z0-9][a-z0-9-]*$', description: '`npm`, `pypi`, `go`, `cargo`, `ide-extension` or `mcp`.' }),
    name: Text(512, 'Package, extension or MCP server name.'),
    versions: Type.Array(Text(256), { maxItems: 100, description: 'Versions or version requirements seen.' }),
    locations: Type.Array(Text(4096), { maxItems: 100, description: 'Manifests, extension folders or configuration files it was found in.' }),
  },
  { additionalProperties: false },
);
export type Component = Static<typeof Component>;

export const ProcessSeen = Type.Object(
  { pid: Type.Integer({ minimum: 1 }), name: Text(256, 'Executable name (never its arguments).'), agent: Text(128) },
  { additionalProperties: false },
);
export type ProcessSeen = Static<typeof ProcessSeen>;

export const Endpoint = Type.Object(
  {
    url: Text(2048, 'A loopback model server, or the origin of a remote MCP server (never its path or query).'),
    kind: lit(['local-model', 'mcp'] as const),
    name: Text(256, 'Server kind (signature name) or MCP server name.'),
  },
  { additionalProperties: false },
);
export type Endpoint = Static<typeof Endpoint>;

export const LocalModel = Type.Object(
  { model: Text(512), server: Text(128, 'Signature id of the server.'), endpoint: Text(2048) },
  { additionalProperties: false },
);
export type LocalModel = Static<typeof LocalModel>;

/** The cap a posted report is refused beyond (DISCOVERY_LIMITS), stated once for every list. */
const PER_REPORT = DISCOVERY_LIMITS.signalsPerReport;
/** What the scanner finds, before scoring: also the shape of a posted report's findings. */
const findingsFields = {
  signals: Type.Array(UnscoredSignal, { default: [], maxItems: PER_REPORT }),
  processes: Type.Array(ProcessSeen, { default: [], maxItems: PER_REPORT }),
  endpoints: Type.Array(Endpoint, { default: [], maxItems: PER_REPORT }),
  local_models: Type.Array(LocalModel, { default: [], maxItems: PER_REPORT }),
  components: Type.Array(Component, { default: [], maxItems: PER_REPORT }),
};
export const Findings = Type.Object(findingsFields, { additionalProperties: false });
export type Findings = Static<typeof Findings>;

/** A report posted by the on-host scanner or an external tool; confidences are always recomputed here. */
export const PostedReport = Type.Object(
  {
    host: Type.Optional(Text(256, 'Host the report describes (default: this host).')),
    scanned_at: Type.Optional(Type.String({ format: 'date-time', description: 'When it was made (default: when received).' })),
    ...findingsFields,
  },
  { additionalProperties: false },
);
export type PostedReport = Static<typeof PostedReport>;

export const PackInfoSchema = Type.Object(
  { name: Type.String(), version: Type.String(), source: Type.String(), digest: Type.String() },
  { additionalProperties: false },
);
export const RefusedPackSchema = Type.Object({ path: Type.String(), reason: Type.String() }, { additionalProperties: false });

/** What one scan found and how it went: kept in discovery.db, answered by the scan routes. */
export const ScanReport = Type.Object(
  {
    scan_id: Type.String(),
    source: lit(['scan', 'scanner', 'external'] as const, '`scan`: the gateway\'s own; `scanner` or `external`: a posted report.'),
    host: Type.String(),
    started_at: Type.String(),
    finished_at: Type.String(),
    duration_ms: Type.Integer({ minimum: 0 }),
    entries_seen: Type.Integer({ minimum: 0, description: 'Folder entries walked under the roots.' }),
    truncated: Type.Object(
      { files: Type.Boolean({ description: '`max_files` reached.' }), time: Type.Boolean({ description: '`timeout_ms` reached.' }) },
      { additionalProperties: false },
    ),
    packs: Type.Array(PackInfoSchema),
    packs_refused: Type.Array(RefusedPackSchema),
    warnings: Type.Array(Type.String()),
    signals: Type.Array(Signal),
    processes: Type.Array(ProcessSeen),
    endpoints: Type.Array(Endpoint),
    local_models: Type.Array(LocalModel),
    components: Type.Array(Component),
  },
  { additionalProperties: false },
);
export type ScanReport = Static<typeof ScanReport>;
