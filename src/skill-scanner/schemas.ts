// Request and response schemas of the skill scanner server: Fastify validates with them and @fastify/swagger
// turns them into the OpenAPI document behind /docs and /redoc.
import Type from 'typebox';
import { oneOf } from '../config/schema.js';
import { ScanFlags } from '../scanners/options.js';
import { SCAN_CATEGORIES, SCAN_SEVERITIES } from '../scanners/types.js';

export const ScanRequest = Type.Object(
  { skill_directory: Type.String({ minLength: 1, maxLength: 4096, description: 'absolute path of the skill folder' }), ...ScanFlags },
  { additionalProperties: false },
);

export const BatchRequest = Type.Object(
  {
    skills_directory: Type.String({ minLength: 1, maxLength: 4096, description: 'folder holding skill folders' }),
    recursive: Type.Optional(Type.Boolean({ description: 'look for skills at any depth, not only direct children' })),
    ...ScanFlags,
  },
  { additionalProperties: false },
);

const Severity = oneOf(SCAN_SEVERITIES);
export const FindingSchema = Type.Object({
  id: Type.String(),
  rule_id: Type.String(),
  category: oneOf(SCAN_CATEGORIES),
  severity: Severity,
  title: Type.String(),
  description: Type.String(),
  file_path: Type.Optional(Type.String()),
  line_number: Type.Optional(Type.Integer()),
  snippet: Type.Optional(Type.String()),
  remediation: Type.Optional(Type.String()),
  analyzer: Type.String(),
  metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});

const Usage = Type.Object({ input_tokens: Type.Integer(), output_tokens: Type.Integer(), total_tokens: Type.Integer() });

export const ScanResultSchema = Type.Object({
  scan_id: Type.String(),
  skill_name: Type.String(),
  skill_path: Type.String(),
  is_safe: Type.Boolean(),
  max_severity: Type.String(),
  findings_count: Type.Integer(),
  findings: Type.Array(FindingSchema),
  analyzers_used: Type.Array(Type.String()),
  analyzers_failed: Type.Array(Type.Object({ analyzer: Type.String(), error: Type.String() })),
  scan_duration_seconds: Type.Number(),
  timestamp: Type.String(),
  llm_usage: Type.Optional(Usage),
});

export const ErrorBody = Type.Object({ detail: Type.String() });

export const BatchStarted = Type.Object({ scan_id: Type.String(), status: oneOf(['pending', 'running', 'completed', 'failed'] as const) });

export const BatchStatusBody = Type.Object({
  scan_id: Type.String(),
  status: oneOf(['pending', 'running', 'completed', 'failed'] as const),
  skills_directory: Type.String(),
  created_at: Type.String(),
  finished_at: Type.Optional(Type.String()),
  total: Type.Integer(),
  done: Type.Integer(),
  summary: Type.Optional(Type.Object({ safe: Type.Integer(), unsafe: Type.Integer(), errors: Type.Integer() })),
  error: Type.Optional(Type.String()),
  results: Type.Optional(Type.Array(Type.Object({
    skill_directory: Type.String(),
    result: Type.Optional(ScanResultSchema),
    error: Type.Optional(Type.Object({ status: Type.Integer(), detail: Type.String() })),
  }))),
});
