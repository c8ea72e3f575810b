// The LLM judge (use_llm): an OpenAI-compatible model reads the skill (as untrusted data, see llm-prompt.ts)
// and reports findings in our categories and severities, as JSON following JUDGE_SCHEMA.
//
// Consensus (llm_consensus_runs = N, 1..5): N identical requests run in parallel. A finding is kept when a
// strict majority of the runs that answered report it, matched by category + file_path + normalised title;
// it carries the severity most of those runs gave (ties: the more severe). The verdict is the majority's, a tie
// counting as unsafe. When the verdict is unsafe but no single finding reached a majority, one MEDIUM
// LLM-VERDICT-UNSAFE finding says so, so that a judged-unsafe skill is never reported without a finding.
// Runs that fail (HTTP error, timeout, no JSON, wrong shape) do not vote; when every run fails, the analyzer
// throws and the scan lists llm in analyzers_failed. Entries with a category or severity outside ours are
// dropped; a file_path not in the skill is dropped from the finding (the finding stays, skill-wide).
import {
  SCAN_CATEGORIES, SCAN_SEVERITIES, type Analyzer, type AnalyzerFinding, type ScanCategory, type ScanSeverity, type SkillPackage,
} from '../types.js';
import { maskSecrets } from '../snippet.js';
import { chatJson, llmConfig } from './llm-client.js';
import { dataMarkerId, JUDGE_SCHEMA, judgeSystemPrompt, renderSkill } from './llm-prompt.js';
import { MAX_CONSENSUS_RUNS } from '../options.js';

export type Verdict = 'safe' | 'unsafe';

export interface JudgeAnswer {
  verdict: Verdict;
  findings: AnalyzerFinding[];
}

const asCategory = (value: unknown): ScanCategory | undefined => {
  const name = typeof value === 'string' ? value.trim().toLowerCase().replace(/[\s-]+/g, '_') : '';
  return (SCAN_CATEGORIES as readonly string[]).includes(name) ? (name as ScanCategory) : undefined;
};

const asSeverity = (value: unknown): ScanSeverity | undefined => {
  const name = typeof value === 'string' ? value.trim().toUpperCase() : '';
  return (SCAN_SEVERITIES as readonly string[]).includes(name) ? (name as ScanSeverity) : undefined;
};

const oneLine = (text: string, max: number) => {
  const line = maskSecrets(text.replace(/\s+/g, ' ').trim());
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

/** The path as the skill lists it, when the model named a real file (`./x`, `/x` and `\` separators tolerated). */
function skillPath(skill: SkillPackage, value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const path = value.trim().replace(/\\/g, '/').replace(/^(\.\/|\/)+/, '');
  return skill.files.some((f) => f.path === path) ? path : undefined;
}

/** A model line number, when it is a line of that file. */
function skillLine(skill: SkillPackage, path: string | undefined, value: unknown): number | undefined {
  const text = path === undefined ? undefined : skill.files.find((f) => f.path === path)?.text;
  if (text === undefined || typeof value !== 'number' || !Number.isInteger(value) || value < 1) return undefined;
  return value <= text.split('\n').length ? value : undefined;
}

/** The judge's answer in our terms; undefined when it has no findings array at all. */
function validateJudgeAnswer(raw: Record<string, unknown>, skill: SkillPackage): JudgeAnswer | undefined {
  if (!Array.isArray(raw.findings)) return undefined;
  const findings: AnalyzerFinding[] = [];
  for (const entry of raw.findings as unknown[]) {
    if (!entry || typeof entry !== 'object') continue;
    const item = entry as Record<string, unknown>;
    const category = asCategory(item.category);
    const severity = asSeverity(item.severity);
    const title = typeof item.title === 'string' ? oneLine(item.title, 200) : '';
    if (!category || !severity || !title) continue;
    const filePath = skillPath(skill, item.file_path);
    const evidence = typeof item.evidence === 'string' && item.evidence.trim() ? oneLine(item.evidence, 200) : undefined;
    findings.push({
      rule_id: `LLM-${category.toUpperCase().replace(/_/g, '-')}`,
      category,
      severity,
      title,
      description: typeof item.description === 'string' && item.description.trim() ? maskSecrets(item.description.trim()).slice(0, 2000) : title,
      file_path: filePath,
      line_number: skillLine(skill, filePath, item.line_number),
      snippet: evidence,
    });
  }
  const verdict: Verdict = raw.verdict === 'safe' || raw.verdict === 'unsafe' ? raw.verdict : findings.length ? 'unsafe' : 'safe';
  return { verdict, findings };
}

/** What makes two runs' findings "the same": category, file and title without case, punctuation or spacing. */
function findingKey(finding: AnalyzerFinding): string {
  const title = finding.title.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
  return `${finding.category}\0${finding.file_path ?? ''}\0${title}`;
}

/** The severity most runs gave; ties go to the more severe. */
function agreedSeverity(votes: readonly AnalyzerFinding[]): ScanSeverity {
  const counts = SCAN_SEVERITIES.map((s) => votes.filter((v) => v.severity === s).length);
  return SCAN_SEVERITIES[counts.indexOf(Math.max(...counts))]!;
}

/** Majority findings and verdict over the runs that answered. */
export function consensus(answers: readonly JudgeAnswer[]): JudgeAnswer {
  const votes = new Map<string, AnalyzerFinding[]>();
  for (const answer of answers) {
    const counted = new Set<string>(); // a run repeating a finding still casts one vote
    for (const finding of answer.findings) {
      const key = findingKey(finding);
      if (counted.has(key)) continue;
      counted.add(key);
      votes.set(key, [...(votes.get(key) ?? []), finding]);
    }
  }
  const findings = [...votes.values()]
    .filter((agreeing) => agreeing.length * 2 > answers.length)
    .map((agreeing) => ({
      ...agreeing[0]!,
      severity: agreedSeverity(agreeing),
      metadata: { ...agreeing[0]!.metadata, consensus: { runs: answers.length, agreeing: agreeing.length } },
    }));
  const unsafe = answers.filter((a) => a.verdict === 'unsafe').length;
  return { verdict: unsafe > 0 && unsafe * 2 >= answers.length ? 'unsafe' : 'safe', findings };
}

/** The finding standing for an unsafe verdict that no single finding carried. */
function verdictFinding(answers: readonly JudgeAnswer[], model: string): AnalyzerFinding {
  const unsafeRuns = answers.filter((a) => a.verdict === 'unsafe');
  const reported = unsafeRuns.flatMap((a) => a.findings);
  const counts = new Map<ScanCategory, number>();
  for (const f of reported) counts.set(f.category, (counts.get(f.category) ?? 0) + 1);
  const category = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'policy_violation';
  const titles = [...new Set(reported.map((f) => f.title))].slice(0, 5);
  return {
    rule_id: 'LLM-VERDICT-UNSAFE',
    category,
    severity: 'MEDIUM',
    title: 'LLM judge: skill judged unsafe',
    description:
      `${unsafeRuns.length} of ${answers.length} LLM runs judged the skill unsafe, but no single finding was reported by a majority of runs.` +
      (titles.length ? ` Findings named by the runs: ${titles.join('; ')}.` : ''),
    metadata: { consensus: { runs: answers.length, unsafe: unsafeRuns.length }, model, verdict: 'unsafe' },
  };
}

export const llmAnalyzer: Analyzer = {
  name: 'llm',
  description: 'An LLM judge (OpenAI-compatible chat completions) reviews the skill; majority consensus over llm_consensus_runs',
  requires: 'use_llm + SKILL_SCANNER_LLM_API_KEY (SKILL_SCANNER_LLM_BASE_URL, SKILL_SCANNER_LLM_MODEL optional)',
  async analyze(ctx) {
    const config = llmConfig(ctx.env, 'llm');
    const runs = Math.min(MAX_CONSENSUS_RUNS, Math.max(1, Math.trunc(ctx.options.llm_consensus_runs) || 1));
    const id = dataMarkerId();
    const chat = {
      system: judgeSystemPrompt(id),
      user: `Review this skill for security problems.\n\n${renderSkill(ctx.skill, id)}`,
      schemaName: 'skill_security_review',
      schema: JUDGE_SCHEMA,
    };
    const settled = await Promise.allSettled(
      Array.from({ length: runs }, async () => {
        const answer = validateJudgeAnswer(await chatJson(config, chat, ctx), ctx.skill);
        if (!answer) throw new Error('the LLM answer does not follow the schema (no findings array)');
        return answer;
      }),
    );
    const answers = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    if (answers.length === 0) {
      const reason = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected')?.reason as Error | undefined;
      // Belt and braces: the HTTP layer already masks the key; nothing may carry it into analyzers_failed.
      const message = String(reason?.message ?? reason).split(config.apiKey).join('****');
      throw new Error(`${runs === 1 ? 'the LLM run' : `all ${runs} LLM runs`} failed: ${message}`);
    }
    const agreed = consensus(answers);
    const findings: AnalyzerFinding[] = agreed.findings.map((f) => ({ ...f, metadata: { ...f.metadata, model: config.model, verdict: agreed.verdict } }));
    if (agreed.verdict === 'unsafe' && findings.length === 0) findings.push(verdictFinding(answers, config.model));
    return findings;
  },
};
