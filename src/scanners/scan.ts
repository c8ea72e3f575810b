// One skill scan: load the skill, run the analyzers the options ask for (side by side), apply the scan preset, and
// shape the result. Knows nothing of HTTP; the scanner server, the CLI and the sidecar all call scanSkill.
import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ANALYZERS, type AnalyzerEntry } from './analyzers/index.js';
import { applyPreset, atLeast, resolvePreset } from './presets.js';
import { loadSkill } from './skill.js';
import { pseudoFileSystem } from './special-files.js';
import {
  addUsage, AnalyzerUnavailable, SCAN_SEVERITIES, type AnalyzerContext, type AnalyzerFinding, type Finding, type LlmUsage,
  type ScanOptions, type ScanResult, type ScanSeverity,
} from './types.js';
import { DEFAULT_SCAN_OPTIONS } from './options.js';

export interface ScanDeps {
  /** SKILL_SCANNER_*, AI_GUARD_API_KEY… */
  env: Record<string, string | undefined>;
  signal?: AbortSignal;
  /** Throws when a policy file path lies outside what the caller may read. */
  allowPath?: (path: string) => void;
  /** Analyzers to choose from (tests swap in their own). */
  analyzers?: readonly AnalyzerEntry[];
  /** Scan the folder as a source tree (code scanner, plugin files): no skill-manifest checks. */
  source?: boolean;
}

const MAX_ERROR = 300;

export async function scanSkill(directory: string, requested: Partial<ScanOptions>, deps: ScanDeps): Promise<ScanResult> {
  const started = performance.now();
  const options: ScanOptions = { ...DEFAULT_SCAN_OPTIONS, ...requested };
  const preset = resolvePreset(options.policy, deps.allowPath);
  const skill = loadSkill(directory, { lenient: options.lenient, source: deps.source });
  const usage: LlmUsage = { input_tokens: 0, output_tokens: 0, total_tokens: 0 };
  let usageReported = false;
  const ctx: AnalyzerContext = {
    skill, options, env: deps.env, signal: deps.signal,
    addUsage(u) {
      usageReported = true;
      addUsage(usage, u);
    },
  };

  const chosen = (deps.analyzers ?? ANALYZERS).filter((entry) => entry.enabled(options));
  // Reviewers run too: their analyze() is where they say they cannot be built (HTTP 400).
  const settled = await Promise.allSettled(chosen.map(async (entry) => entry.analyzer.analyze(ctx)));
  const collected: (AnalyzerFinding & { analyzer: string })[] = [];
  const failed: ScanResult['analyzers_failed'] = [];
  settled.forEach((outcome, i) => {
    const name = chosen[i]!.analyzer.name;
    if (outcome.status === 'fulfilled') for (const finding of outcome.value) collected.push({ ...finding, analyzer: name });
    else if (outcome.reason instanceof AnalyzerUnavailable) throw outcome.reason; // the request asked for it: fail
    else failed.push({ analyzer: name, error: String((outcome.reason as Error)?.message ?? outcome.reason).slice(0, MAX_ERROR) });
  });

  // Reviewers (the meta analyzer) see the others' findings and keep the ones they confirm.
  let reviewed = collected;
  for (const entry of chosen.filter((e) => e.reviewsFindings)) {
    try {
      reviewed = await entry.reviewsFindings!(reviewed, ctx);
    } catch (err) {
      if (err instanceof AnalyzerUnavailable) throw err;
      failed.push({ analyzer: entry.analyzer.name, error: String((err as Error).message).slice(0, MAX_ERROR) });
    }
  }

  const findings: Finding[] = applyPreset(reviewed, preset).map((finding, i) => ({ id: `${finding.analyzer}-${i + 1}`, ...finding }));
  const maxSeverity = SCAN_SEVERITIES.find((s) => findings.some((f) => f.severity === s)) ?? 'NONE';
  return {
    scan_id: randomUUID(),
    skill_name: skill.manifest?.name ?? basename(skill.root),
    skill_path: skill.root,
    is_safe: !findings.some((f) => atLeast(f.severity, preset.unsafeAt)),
    max_severity: maxSeverity as ScanSeverity | 'NONE',
    findings_count: findings.length,
    findings,
    analyzers_used: chosen.map((e) => e.analyzer.name).filter((name) => !failed.some((f) => f.analyzer === name)),
    analyzers_failed: failed,
    scan_duration_seconds: Number(((performance.now() - started) / 1000).toFixed(4)),
    timestamp: new Date().toISOString(),
    ...(usageReported ? { llm_usage: usage } : {}),
  };
}

const MAX_BATCH_DEPTH = 6;

/**
 * Skill folders (holding a SKILL.md) under `directory`: its children, or at any depth when `recursive`. A
 * folder that cannot be read, or holds a kernel pseudo file system, is passed over rather than failing the
 * whole search.
 */
export function findSkillDirectories(directory: string, recursive: boolean): string[] {
  const found: string[] = [];
  const visit = (dir: string, depth: number) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
      const child = join(dir, entry.name);
      if (pseudoFileSystem(child)) continue;
      let names: string[];
      try {
        names = readdirSync(child);
      } catch {
        continue;
      }
      if (names.includes('SKILL.md')) found.push(child);
      else if (recursive && depth < MAX_BATCH_DEPTH) visit(child, depth + 1);
    }
  };
  visit(directory, 0);
  return found;
}
