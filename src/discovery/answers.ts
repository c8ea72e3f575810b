// The shapes discovery answers with beyond the scan report (types.ts): the snapshot, the component list, a
// component's locations and history, the confidence policy in force and a dry-run validation. One TypeBox schema
// each gives the domain's type and the routes' answer schema.
import Type, { type Static } from 'typebox';
import { ConfidencePolicySchema } from './confidence.js';
import { Component, Confidence, Endpoint, LocalModel, PackInfoSchema, ProcessSeen, RefusedPackSchema, ScanReport, Signal } from './types.js';

const Count = Type.Integer({ minimum: 0 });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const Summary = Type.Object(
  {
    agents: Count, ide_extensions: Count, mcp_servers: Count, local_model_servers: Count, local_models: Count, sdks: Count,
    provider_keys: Count, processes: Count, endpoints: Count, components: Count,
    confidence: Type.Object({ high: Count, medium: Count, low: Count }, { additionalProperties: false, description: 'Signals per confidence level.' }),
  },
  { additionalProperties: false },
);

export const Snapshot = Type.Object(
  {
    scan_id: Nullable(Type.String({ description: 'The latest scan or report; null before the first.' })),
    source: Nullable(Type.String()),
    host: Nullable(Type.String()),
    scanned_at: Nullable(Type.String()),
    summary: Summary,
    agents: Type.Array(Signal, { description: 'The agent signals.' }),
    processes: Type.Array(ProcessSeen),
    endpoints: Type.Array(Endpoint),
    components: Type.Array(Component),
    local_models: Type.Array(LocalModel),
    signals: Type.Array(Signal, { description: 'Every signal, agents included.' }),
    truncated: Nullable(ScanReport.properties.truncated),
    warnings: Type.Array(Type.String()),
    packs: Type.Array(PackInfoSchema, { description: 'The signature packs the next scan loads.' }),
    packs_refused: Type.Array(RefusedPackSchema, { description: 'Configured packs refused (no pin, digest differs, invalid).' }),
  },
  { additionalProperties: false },
);
export type Snapshot = Static<typeof Snapshot>;

export const ComponentSummary = Type.Object(
  {
    ecosystem: Type.String(), name: Type.String(), first_seen: Type.String(), last_seen: Type.String(),
    present: Type.Boolean({ description: 'Seen by the latest scan.' }),
    versions: Type.Array(Type.String()),
    locations: Type.Integer({ minimum: 0, description: 'How many places it was last seen in.' }),
  },
  { additionalProperties: false },
);
export type ComponentSummary = Static<typeof ComponentSummary>;

export const ComponentLocations = Type.Object(
  {
    ecosystem: Type.String(), name: Type.String(), present: Type.Boolean(),
    scan_id: Type.String({ description: 'The last scan that saw it.' }),
    seen_at: Type.String(),
    versions: Type.Array(Type.String()),
    locations: Type.Array(Type.String()),
  },
  { additionalProperties: false },
);
export type ComponentLocations = Static<typeof ComponentLocations>;

export const HistoryEntry = Type.Object(
  {
    scan_id: Type.String(), source: Type.String(), at: Type.String(),
    present: Type.Boolean({ description: 'Whether that scan saw it.' }),
    versions: Type.Array(Type.String()), locations: Type.Array(Type.String()),
  },
  { additionalProperties: false },
);
export const ComponentHistory = Type.Object(
  {
    ecosystem: Type.String(), name: Type.String(), first_seen: Type.String(), last_seen: Type.String(), present: Type.Boolean(),
    scans: Type.Array(HistoryEntry, { description: 'Scans since it was first seen, newest first.' }),
  },
  { additionalProperties: false },
);
export type ComponentHistory = Static<typeof ComponentHistory>;

export const ActivePolicyAnswer = Type.Object(
  {
    source: Type.String({ description: '`shipped`, or the path configured in `ai_discovery.confidence_policy`.' }),
    digest: Type.String(),
    policy: ConfidencePolicySchema,
    problems: Type.Array(Type.String(), { description: 'Why the configured policy is not in force (it did not load); empty when it is.' }),
  },
  { additionalProperties: false },
);

export const PolicyValidation = Type.Object(
  {
    valid: Type.Boolean(),
    errors: Type.Array(Type.String()),
    scores: Type.Array(Type.Object(
      { id: Type.String(), category: Type.String(), name: Type.String(), current: Confidence, candidate: Confidence },
      { additionalProperties: false },
    ), { description: 'What the candidate would give each signal of the latest snapshot, beside what it has now.' }),
  },
  { additionalProperties: false },
);
export type PolicyValidation = Static<typeof PolicyValidation>;
