// AI Guard (use_ai_guard): every text file of the skill sent to an external AI-defense inspection service,
// which classifies content as prompt injection, data leakage, malicious code and so on.
//
// Contract (ours; an adapter in front of a vendor's API implements it):
//   POST {AI_GUARD_URL}/v1/inspect     AI_GUARD_URL defaults to http://127.0.0.1:8090: no public service speaks
//                                      this contract, so the default is a locally deployed adapter
//   Authorization: Bearer $AI_GUARD_API_KEY (required; without it the analyzer is unavailable: HTTP 400)
//   request   {"messages": [{"role": "user", "content": "<file text, at most 32,000 characters>"}]}
//   response  {"is_safe": boolean, "classifications": [{"category": string, "severity": string, "explanation": string}]}
// One request per file, or per 32,000-character piece of a longer file (every byte is inspected: a payload
// cannot hide past a cut), at most 200 requests per scan, four at a time.
//
// Mapping: only answers with is_safe false produce findings, one per classification (one generic finding when
// it gives none). A category in our list is kept; known synonyms are mapped (CATEGORY_ALIASES); anything else
// becomes prompt_injection, the service's main concern. Severity CRITICAL/HIGH/MEDIUM/LOW/INFO (MODERATE is
// MEDIUM); anything else becomes MEDIUM. A failed request or a malformed answer fails the analyzer.
import { SCAN_CATEGORIES, SCAN_SEVERITIES, AnalyzerUnavailable, type Analyzer, type AnalyzerContext, type AnalyzerFinding, type ScanCategory, type ScanSeverity, type SkillFile } from '../types.js';
import { lineAt } from '../snippet.js';
import { envVar } from '../../config/env.js';
import { SCANNER_LIMITS } from '../limits.js';
import { httpTimeoutMs, joinUrl, mapLimited, requestJson, serviceUrl } from './http.js';

export const { aiGuardChunkChars: AI_GUARD_CHUNK_CHARS, aiGuardMaxRequests: AI_GUARD_MAX_REQUESTS } = SCANNER_LIMITS;
const CONCURRENCY = 4;

/** Names inspection services commonly use, in our vocabulary. */
const CATEGORY_ALIASES: Record<string, ScanCategory> = {
  jailbreak: 'prompt_injection', injection: 'prompt_injection', indirect_prompt_injection: 'prompt_injection',
  code_injection: 'command_injection', shell_injection: 'command_injection',
  data_leak: 'data_exfiltration', data_leakage: 'data_exfiltration', exfiltration: 'data_exfiltration', pii: 'data_exfiltration',
  secret: 'hardcoded_secrets', secrets: 'hardcoded_secrets', credentials: 'hardcoded_secrets',
  malicious_code: 'malware', malicious_url: 'malware', phishing: 'social_engineering',
  toxicity: 'harmful_content', hate: 'harmful_content', violence: 'harmful_content', self_harm: 'harmful_content',
  hidden_text: 'unicode_steganography', invisible_characters: 'unicode_steganography',
};

export function mapCategory(value: unknown): ScanCategory {
  const name = typeof value === 'string' ? value.trim().toLowerCase().replace(/[\s-]+/g, '_') : '';
  if ((SCAN_CATEGORIES as readonly string[]).includes(name)) return name as ScanCategory;
  return CATEGORY_ALIASES[name] ?? 'prompt_injection';
}

export function mapSeverity(value: unknown): ScanSeverity {
  const name = typeof value === 'string' ? value.trim().toUpperCase() : '';
  if (name === 'MODERATE') return 'MEDIUM';
  return (SCAN_SEVERITIES as readonly string[]).includes(name) ? (name as ScanSeverity) : 'MEDIUM';
}

interface Piece {
  file: SkillFile;
  content: string;
  /** 1-based line where the piece starts; set only when the file was split. */
  line?: number;
}

function pieces(files: readonly SkillFile[]): Piece[] {
  return files.flatMap((file) => {
    const text = file.text ?? '';
    if (text.trim() === '') return [];
    if (text.length <= AI_GUARD_CHUNK_CHARS) return [{ file, content: text }];
    const parts: Piece[] = [];
    for (let at = 0; at < text.length; at += AI_GUARD_CHUNK_CHARS) parts.push({ file, content: text.slice(at, at + AI_GUARD_CHUNK_CHARS), line: lineAt(text, at) });
    return parts;
  });
}

async function inspect(piece: Piece, url: URL, key: string, ctx: AnalyzerContext): Promise<AnalyzerFinding[]> {
  const answer = await requestJson({
    service: 'AI Guard', method: 'POST', url, bearer: key, timeoutMs: httpTimeoutMs(ctx.env), signal: ctx.signal,
    body: { messages: [{ role: 'user', content: piece.content }] },
  });
  const { is_safe: isSafe, classifications } = (answer ?? {}) as { is_safe?: unknown; classifications?: unknown };
  if (typeof isSafe !== 'boolean') throw new Error('AI Guard answer has no boolean is_safe');
  if (isSafe) return [];
  const entries = Array.isArray(classifications) ? (classifications as unknown[]).filter((c) => c && typeof c === 'object') : [];
  const where = piece.line === undefined ? piece.file.path : `${piece.file.path} (from line ${piece.line})`;
  const finding = (raw: Record<string, unknown>): AnalyzerFinding => {
    const category = mapCategory(raw.category);
    const explanation = typeof raw.explanation === 'string' ? raw.explanation.trim().slice(0, 1000) : '';
    return {
      rule_id: `AI-GUARD-${category.toUpperCase().replace(/_/g, '-')}`,
      category,
      severity: mapSeverity(raw.severity),
      title: `AI Guard: ${category.replace(/_/g, ' ')} in ${piece.file.path}`,
      description: explanation || `The AI Guard service judged ${where} unsafe.`,
      file_path: piece.file.path,
      line_number: piece.line,
      metadata: { service_category: typeof raw.category === 'string' ? raw.category.slice(0, 100) : undefined },
    };
  };
  return entries.length ? entries.map((c) => finding(c as Record<string, unknown>)) : [finding({})];
}

export const aiGuardAnalyzer: Analyzer = {
  name: 'ai_guard',
  description: 'Every text file sent to an AI-defense inspection service (our /v1/inspect contract)',
  requires: 'use_ai_guard + AI_GUARD_API_KEY (AI_GUARD_URL optional)',
  async analyze(ctx) {
    const key = envVar(ctx.env, 'AI_GUARD_API_KEY');
    if (!key) throw new AnalyzerUnavailable('the ai_guard analyzer needs AI_GUARD_API_KEY');
    let url: URL;
    try {
      url = joinUrl(serviceUrl(ctx.env, 'AI_GUARD_URL'), '/v1/inspect');
    } catch (err) {
      throw new AnalyzerUnavailable(`the ai_guard analyzer cannot be built: ${(err as Error).message}`);
    }
    const all = pieces(ctx.skill.files);
    const sent = all.slice(0, AI_GUARD_MAX_REQUESTS);
    const findings = (await mapLimited(sent, CONCURRENCY, (piece) => inspect(piece, url, key, ctx))).flat();
    if (all.length > sent.length) {
      const unchecked = [...new Set(all.slice(sent.length).map((p) => p.file.path))];
      findings.push({
        rule_id: 'AI-GUARD-NOT-INSPECTED',
        category: 'policy_violation',
        severity: 'INFO',
        title: 'AI Guard: part of the skill was not inspected',
        description: `The skill needed ${all.length} inspection requests, over the limit of ${AI_GUARD_MAX_REQUESTS}; not inspected (in part or whole): ${unchecked.slice(0, 20).join(', ')}${unchecked.length > 20 ? ', …' : ''}.`,
        metadata: { requests_needed: all.length, requests_sent: sent.length },
      });
    }
    return findings;
  },
};
