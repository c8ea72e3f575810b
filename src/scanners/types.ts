// The skill scanner's vocabulary (spec document 3, issue step 4): a skill as loaded from disk, what an
// analyzer reports, and the result a scan returns. Shared by the scanner server, the CLI and the sidecar.
import type { ScanOptions } from './options.js';
import { WardenError } from '../errors.js';

export const SCAN_SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'] as const;
export type ScanSeverity = (typeof SCAN_SEVERITIES)[number];

export const SCAN_CATEGORIES = [
  'prompt_injection', 'command_injection', 'data_exfiltration', 'unauthorized_tool_use', 'obfuscation',
  'hardcoded_secrets', 'social_engineering', 'resource_abuse', 'policy_violation', 'malware', 'harmful_content',
  'skill_discovery_abuse', 'transitive_trust_abuse', 'autonomy_abuse', 'tool_chaining_abuse',
  'unicode_steganography', 'supply_chain_attack',
] as const;
export type ScanCategory = (typeof SCAN_CATEGORIES)[number];

/** One file of a skill. Text files carry their content; binaries only their first bytes (for magic checks). */
export interface SkillFile {
  /** Path relative to the skill root, `/`-separated. */
  path: string;
  size: number;
  /** UTF-8 text, when the file is text (no NUL in its first 8 KiB and valid UTF-8). */
  text?: string;
  /** The first 64 bytes, for magic-number checks (always set). */
  head: Uint8Array;
  /** SHA-256 of the whole file, hex. */
  sha256: string;
}

/** The parsed SKILL.md front matter; unknown keys are kept. */
export interface SkillManifest {
  name?: string;
  description?: string;
  license?: string;
  /** `allowed-tools` as written: a list, or a comma/space separated string split into a list. */
  allowedTools?: string[];
  metadata?: Record<string, unknown>;
  raw: Record<string, unknown>;
}

export interface SkillPackage {
  /** Absolute path of the skill directory. */
  root: string;
  /** Undefined when SKILL.md is missing (only possible in lenient mode). */
  manifest: SkillManifest | undefined;
  /** Why the manifest could not be read, when it could not (lenient mode keeps going). */
  manifestError?: string;
  /** SKILL.md body (after the front matter). */
  instructions: string;
  files: SkillFile[];
  /** Entries not read: symlinks (never followed), special files, files past the size or count limits. */
  skipped: { path: string; reason: string }[];
  /** A source tree (the code scanner, a plugin's files), not a skill: no SKILL.md is expected or checked. */
  source?: boolean;
}

export interface Finding {
  /** Unique within one result: `<analyzer>-<n>`. Set by the scan, not by analyzers. */
  id: string;
  rule_id: string;
  category: ScanCategory;
  severity: ScanSeverity;
  title: string;
  description: string;
  /** Relative to the skill root; undefined for skill-wide findings. */
  file_path?: string;
  /** 1-based. */
  line_number?: number;
  /** The offending text, one line, at most 200 characters, secrets masked. */
  snippet?: string;
  remediation?: string;
  analyzer: string;
  metadata?: Record<string, unknown>;
}

/** What an analyzer returns: findings without `id` (the scan numbers them). */
export type AnalyzerFinding = Omit<Finding, 'id' | 'analyzer'>;

export interface LlmUsage {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
}

/** Adds `more` to the running total `into` (analyzers may report usage several times per scan). */
export function addUsage(into: LlmUsage, more: LlmUsage): void {
  into.input_tokens += more.input_tokens;
  into.output_tokens += more.output_tokens;
  into.total_tokens += more.total_tokens;
}

export interface AnalyzerContext {
  skill: SkillPackage;
  options: ScanOptions;
  /** Environment variables (SKILL_SCANNER_*, AI_GUARD_API_KEY…), never logged. */
  env: Record<string, string | undefined>;
  signal?: AbortSignal;
  /** Analyzers that call a model add the provider-reported usage here. */
  addUsage(usage: LlmUsage): void;
}

export interface Analyzer {
  /** `static`, `behavioral`, `pipeline`, `trigger`, `reputation`, `osv`, `llm`, `ai_guard`, `meta`. */
  readonly name: string;
  readonly description: string;
  /** What it needs to run (for GET /analyzers): e.g. `always on`, `use_llm + SKILL_SCANNER_LLM_API_KEY`. */
  readonly requires: string;
  /** Throws AnalyzerUnavailable when it cannot be built with this environment (HTTP 400 for llm). */
  analyze(ctx: AnalyzerContext): Promise<AnalyzerFinding[]> | AnalyzerFinding[];
}

/** An analyzer the request asked for cannot run (a missing key, a client that cannot be built). */
export class AnalyzerUnavailable extends WardenError {
  constructor(message: string) {
    super('WARDEN_ERR_SCAN_ANALYZER_UNAVAILABLE', message, { statusCode: 400 });
  }
}

export const SCAN_PRESETS = ['balanced', 'low-noise', 'quiet', 'strict', 'permissive'] as const;

// Defined with the request schema it is derived from; exported here too, beside the other types analyzers use.
export type { ScanOptions } from './options.js';

export interface ScanResult {
  scan_id: string;
  skill_name: string;
  skill_path: string;
  is_safe: boolean;
  max_severity: ScanSeverity | 'NONE';
  findings_count: number;
  findings: Finding[];
  analyzers_used: string[];
  analyzers_failed: { analyzer: string; error: string }[];
  scan_duration_seconds: number;
  timestamp: string;
  llm_usage?: LlmUsage;
}
