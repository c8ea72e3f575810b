// The options of one skill scan, in one place: the TypeBox properties both servers validate requests with
// (the skill scanner's /scan, /scan-upload and /scan-batch, and the sidecar's scan routes), the type the
// analyzers read (derived from them), and the defaults a request leaves out.
import Type, { type Static, type TObject } from 'typebox';
import { SCAN_PRESETS } from './types.js';

/** Most LLM runs one scan may ask for (the request schema's bound, and the analyzer's own clamp). */
export const MAX_CONSENSUS_RUNS = 5;

const flag = (description: string) => Type.Optional(Type.Boolean({ description }));

/** The scan flags shared by /scan, /scan-upload (as form fields) and /scan-batch, and the sidecar's scan routes. */
export const ScanFlags = {
  use_behavioral: flag('dataflow analysis of Python, JavaScript/TypeScript and shell (tree-sitter)'),
  use_llm: flag('LLM judge (needs SKILL_SCANNER_LLM_API_KEY; 400 when it cannot be built)'),
  use_reputation: flag('file hashes against the known-bad list'),
  use_ai_guard: flag('AI analyzer (needs AI_GUARD_API_KEY)'),
  use_trigger: flag('descriptions generic enough to hijack unrelated requests'),
  use_osv: flag('exactly pinned Python and JavaScript dependencies against an OSV-compatible API'),
  enable_meta: flag('meta-analyzer reviewing the other findings (not recommended)'),
  llm_consensus_runs: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_CONSENSUS_RUNS, description: 'LLM runs for majority consensus' })),
  policy: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, description: `${SCAN_PRESETS.join(', ')}, or a YAML path` })),
  lenient: flag('tolerate malformed skills (missing SKILL.md or front matter)'),
};

export type ScanOptions = Required<Static<TObject<typeof ScanFlags>>>;

export const DEFAULT_SCAN_OPTIONS: ScanOptions = {
  use_behavioral: false, use_llm: false, use_reputation: false, use_ai_guard: false, use_trigger: false,
  use_osv: false, enable_meta: false, llm_consensus_runs: 1, policy: 'balanced', lenient: false,
};
