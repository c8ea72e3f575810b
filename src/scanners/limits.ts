// Resource limits of the skill, plugin and code scanners, in one table (documented in docs/configuration.md
// "Limits"). The skill scanner server's own limits (uploads, batches) are in src/skill-scanner/limits.ts.
import { defineLimits, MiB } from '../util/limit-table.js';

export const SCANNER_LIMITS = defineLimits('Scanners', 'src/scanners/limits.ts', {
  maxFiles: { value: 2000, unit: 'count', what: 'Files read per skill; the rest are listed as skipped.' },
  maxTextBytes: { value: 2 * MiB, unit: 'bytes', what: 'Larger files are hashed and their head kept, but not inspected as text (reported as a finding).' },
  maxDepth: { value: 12, unit: 'count', what: 'Folder nesting read in a skill; deeper folders are listed as skipped.' },
  maxServiceAnswerBytes: { value: 8 * MiB, unit: 'bytes', what: 'Answer of an online lookup (OSV, reputation, LLM, AI Guard); a larger one fails that analyzer.' },
  aiGuardChunkChars: { value: 32_000, unit: 'characters', what: 'Text sent to AI Guard in one request.' },
  aiGuardMaxRequests: { value: 200, unit: 'count', what: 'AI Guard requests per scan; the text beyond is reported as not inspected.' },
  lookupAttempts: { value: 4, unit: 'count', what: 'Tries of one online lookup, the first included, when the service answers 429, 502, 503 or 504 or drops the connection (src/scanners/analyzers/retry.ts); all of them within `SKILL_SCANNER_HTTP_TIMEOUT_MS`.' },
  lookupFirstRetryWaitMs: { value: 250, unit: 'ms', what: 'Wait before the first retry of a lookup; each later wait doubles.' },
  lookupMaxRetryWaitMs: { value: 5_000, unit: 'ms', what: 'Longest wait before a retry, and the cap on a service\'s `Retry-After`.' },
  mcpTimeoutMs: { value: 10_000, unit: 'ms', what: 'Whole conversation with one MCP server over Streamable HTTP (connect, list tools, prompts and resources); a slower server is reported as not reached.' },
  mcpListPages: { value: 20, unit: 'count', what: 'Pages of one MCP list (tools, prompts or resources) followed; the rest is reported as not read.' },
  mcpMaxItems: { value: 1000, unit: 'count', what: 'Tools, prompts and resources read from one MCP server, each.' },
  mcpTextChars: { value: 64_000, unit: 'characters', what: 'Text of one MCP tool, prompt or resource definition inspected; the rest is cut.' },
  mcpConfigBytes: { value: 32 * MiB, unit: 'bytes', what: 'An agent configuration file read for MCP server definitions; a larger one is refused (Claude Code keeps project history in `~/.claude.json`, which grows to megabytes).' },
  mcpServers: { value: 200, unit: 'count', what: 'MCP server definitions scanned at once; the rest are counted in `servers_skipped`, not looked at.' },
  llmSkillContentChars: { value: 60_000, unit: 'characters', what: 'Skill content put in the `llm` analyzer\'s prompt; the rest is cut.' },
});
