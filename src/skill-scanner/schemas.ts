// Request and response schemas of the skill scanner server: Fastify validates with them and @fastify/swagger
// turns them into the OpenAPI document behind /docs and /redoc.
import Type from 'typebox';
import { oneOf } from '../config/schema.js';
import { SCAN_CATEGORIES, SCAN_SEVERITIES } from '../scanners/types.js';

const flag = (description: string) => Type.Optional(Type.Boolean({ description }));

/** The scan flags shared by /scan, /scan-upload (as form fields) and /scan-batch. */
export const ScanFlags = {
  use_behavioral: flag('dataflow analysis of Python, JavaScript/TypeScript and shell (tree-sitter)'),
  use_llm: flag('LLM judge (needs SKILL_SCANNER_LLM_API_KEY; 400 when it cannot be built)'),
  use_reputation: flag('file hashes against the known-bad list'),
  use_ai_guard: flag('AI analyzer (needs AI_GUARD_API_KEY)'),
  use_trigger: flag('descriptions generic enough to hijack unrelated requests'),
  use_osv: flag('exactly pinned Python and JavaScript dependencies against an OSV-compatible API'),
  enable_meta: flag('meta-analyzer reviewing the other findings (not recommended)'),
  llm_consensus_runs: Type.Optional(Type.Integer({ minimum: 1, maximum: 5, description: 'LLM runs for majority consensus' })),
  policy: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, description: 'balanced, low-noise, quiet, strict, permissive, or a YAML path' })),
  lenient: flag('tolerate malformed skills (missing SKILL.md or front matter)'),
};

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
