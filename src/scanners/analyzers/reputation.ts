// File reputation (use_reputation): the SHA-256 of every file of the skill against known-bad lists, and,
// when configured, an online hash-reputation service. Only hashes leave the machine, never file contents.
//
// Local lists: policies/scanner/known-bad-sha256.txt (shipped) and the operator's SKILL_SCANNER_KNOWN_BAD_FILE
// (optional), both "<sha256> [label]" per line with # comments; each is read once per process and cached.
//
// Online contract (ours: any service implementing it can be plugged in), used when both
// SKILL_SCANNER_REPUTATION_URL and SKILL_SCANNER_REPUTATION_API_KEY are set:
//   POST $SKILL_SCANNER_REPUTATION_URL            (the full endpoint URL, used as given)
//   Authorization: Bearer $SKILL_SCANNER_REPUTATION_API_KEY, Content-Type: application/json
//   request   {"hashes": ["<sha256, lowercase hex>", …]}                      at most 500 hashes per request
//   response  {"results": [{"sha256": "<hex>", "verdict": "malicious" | "suspicious" | "clean" | "unknown",
//                           "source"?: "<who says so>"}]}
//   A hash absent from `results` counts as unknown; entries for hashes not asked about, or with another verdict,
//   are ignored. malicious → CRITICAL, suspicious → HIGH, both category malware.
//
// When the online lookup fails (unreachable, timeout, non-2xx, malformed answer):
//   - no local hit: the analyzer throws, so the scan lists `reputation` in analyzers_failed;
//   - local hits: it returns them plus one INFO finding saying the online lookup failed. Throwing would drop
//     CRITICAL hits already found (the scan keeps nothing from a failed analyzer) and could turn a known-bad
//     skill into a "safe" one; the skill is already unsafe, so the lookup could not have changed the verdict.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Analyzer, AnalyzerContext, AnalyzerFinding, SkillFile } from '../types.js';
import { envIsSet, envVar } from '../../config/env.js';
import { httpTimeoutMs, mapLimited, requestJson, serviceUrl } from './http.js';

export const SHIPPED_KNOWN_BAD_FILE = fileURLToPath(new URL('../../../policies/scanner/known-bad-sha256.txt', import.meta.url));
const ONLINE_BATCH = 500;
const ONLINE_VERDICTS = { malicious: 'CRITICAL', suspicious: 'HIGH' } as const;

/** Hash → label ('' when the line has none). */
export type KnownBadList = ReadonlyMap<string, string>;

const listCache = new Map<string, KnownBadList>();

/** Parses a known-bad list; throws naming the file and line of the first malformed entry. */
export function parseKnownBad(text: string, source: string): KnownBadList {
  const list = new Map<string, string>();
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const match = /^([0-9a-fA-F]{64})(?:\s+(.*))?$/.exec(line);
    if (!match) throw new Error(`${source}:${i + 1}: not a SHA-256 hash (64 hex digits) followed by an optional label`);
    list.set(match[1]!.toLowerCase(), match[2]?.trim() ?? '');
  });
  return list;
}

/** The list in `path`, read on first use and then served from memory. */
function loadKnownBad(path: string): KnownBadList {
  let list = listCache.get(path);
  if (!list) {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      throw new Error(`cannot read the known-bad hash list ${path}: ${(err as NodeJS.ErrnoException).code ?? 'read error'}`);
    }
    list = parseKnownBad(text, path);
    listCache.set(path, list);
  }
  return list;
}

function localHits(files: readonly SkillFile[], env: AnalyzerContext['env']): AnalyzerFinding[] {
  const paths = [SHIPPED_KNOWN_BAD_FILE, envVar(env, 'SKILL_SCANNER_KNOWN_BAD_FILE')].filter((p): p is string => !!p);
  const lists = paths.map((path) => ({ path, list: loadKnownBad(path) }));
  const findings: AnalyzerFinding[] = [];
  for (const file of files) {
    const hit = lists.find(({ list }) => list.has(file.sha256));
    if (!hit) continue;
    const label = hit.list.get(file.sha256) || 'listed hash';
    findings.push({
      rule_id: 'REPUTATION-KNOWN-BAD',
      category: 'malware',
      severity: 'CRITICAL',
      title: `Known-bad file: ${label}`,
      description: `The SHA-256 of ${file.path} (${file.sha256}) is on the known-bad list ${hit.path === SHIPPED_KNOWN_BAD_FILE ? 'shipped with Warden' : 'SKILL_SCANNER_KNOWN_BAD_FILE'}.`,
      file_path: file.path,
      remediation: 'Do not install this skill. Remove the file and find out how it got into the skill.',
      metadata: { sha256: file.sha256, label, source: 'local' },
    });
  }
  return findings;
}

interface OnlineVerdict {
  verdict: keyof typeof ONLINE_VERDICTS;
  source?: string;
}

async function onlineLookup(hashes: readonly string[], ctx: AnalyzerContext, url: URL, key: string): Promise<Map<string, OnlineVerdict>> {
  const batches: string[][] = [];
  for (let i = 0; i < hashes.length; i += ONLINE_BATCH) batches.push(hashes.slice(i, i + ONLINE_BATCH));
  const verdicts = new Map<string, OnlineVerdict>();
  await mapLimited(batches, 2, async (batch) => {
    const asked = new Set(batch);
    const answer = await requestJson({
      service: 'reputation', method: 'POST', url, body: { hashes: batch }, bearer: key,
      timeoutMs: httpTimeoutMs(ctx.env), signal: ctx.signal,
    });
    const results = (answer as { results?: unknown } | null)?.results;
    if (!Array.isArray(results)) throw new Error('reputation service answer has no `results` array');
    for (const entry of results as unknown[]) {
      if (!entry || typeof entry !== 'object') continue;
      const { sha256, verdict, source } = entry as Record<string, unknown>;
      if (typeof sha256 !== 'string' || !asked.has(sha256.toLowerCase())) continue;
      if (verdict !== 'malicious' && verdict !== 'suspicious') continue;
      verdicts.set(sha256.toLowerCase(), { verdict, source: typeof source === 'string' ? source.slice(0, 100) : undefined });
    }
  });
  return verdicts;
}

function onlineFindings(files: readonly SkillFile[], verdicts: Map<string, OnlineVerdict>): AnalyzerFinding[] {
  return files.flatMap((file): AnalyzerFinding[] => {
    const hit = verdicts.get(file.sha256);
    if (!hit) return [];
    return [{
      rule_id: `REPUTATION-ONLINE-${hit.verdict.toUpperCase()}`,
      category: 'malware',
      severity: ONLINE_VERDICTS[hit.verdict],
      title: `File reputation: ${hit.verdict}${hit.source ? ` (${hit.source})` : ''}`,
      description: `The reputation service rates ${file.path} (SHA-256 ${file.sha256}) as ${hit.verdict}.`,
      file_path: file.path,
      remediation: 'Do not install this skill until the file has been examined.',
      metadata: { sha256: file.sha256, verdict: hit.verdict, source: hit.source ?? 'online', lookup: 'online' },
    }];
  });
}

export const reputationAnalyzer: Analyzer = {
  name: 'reputation',
  description: 'SHA-256 of every file against known-bad lists, and an online hash-reputation service when configured',
  requires: 'use_reputation (online lookup: SKILL_SCANNER_REPUTATION_URL + SKILL_SCANNER_REPUTATION_API_KEY)',
  async analyze(ctx) {
    const { files } = ctx.skill;
    // Local results first: they need no network and must survive an online failure (see the header).
    const local = localHits(files, ctx.env);
    const key = envVar(ctx.env, 'SKILL_SCANNER_REPUTATION_API_KEY');
    if (!envIsSet(ctx.env, 'SKILL_SCANNER_REPUTATION_URL') || !key) return local;

    const known = new Set(local.map((f) => f.file_path));
    const hashes = [...new Set(files.filter((f) => !known.has(f.path)).map((f) => f.sha256))];
    if (hashes.length === 0) return local;
    try {
      const verdicts = await onlineLookup(hashes, ctx, serviceUrl(ctx.env, 'SKILL_SCANNER_REPUTATION_URL'), key);
      return [...local, ...onlineFindings(files, verdicts)];
    } catch (err) {
      const reason = (err as Error).message;
      if (local.length === 0) throw new Error(`online reputation lookup failed: ${reason}`);
      return [...local, {
        rule_id: 'REPUTATION-ONLINE-UNAVAILABLE',
        category: 'malware',
        severity: 'INFO',
        title: 'Online reputation lookup failed',
        description: `The online lookup failed (${reason}); the ${local.length} known-bad file(s) found locally are reported, other files were not checked online.`,
        metadata: { lookup: 'online', error: reason },
      }];
    }
  },
};
