// `warden skill scan PATH`: scan one skill, or every skill under a folder, from the command line.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { InvalidArgumentError, Option, type Command } from 'commander';
import type { ScanOptions, ScanResult } from '../../scanners/types.js';
import { findingLines, policyArgument, resultLine, writeReport } from '../scan-report.js';

interface SkillScanOptions {
  recursive?: boolean;
  policy: string;
  format: 'table' | 'json' | 'sarif';
  output?: string;
  lenient?: boolean;
  useLlm?: boolean;
  useBehavioral?: boolean;
  useTrigger?: boolean;
  useReputation?: boolean;
  useOsv?: boolean;
  useAiGuard?: boolean;
  enableMeta?: boolean;
  llmConsensusRuns?: number;
  workers?: number;
}

const runs = (value: string) => {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > 5) throw new InvalidArgumentError('must be between 1 and 5');
  return n;
};

function table(results: ScanResult[], failures: { skill: string; detail: string }[]): string {
  const lines: string[] = [];
  for (const r of results) {
    lines.push(resultLine(r, r.skill_name, [], r.skill_path), ...findingLines(r.findings));
    for (const a of r.analyzers_failed) lines.push(`  analyzer ${a.analyzer} failed: ${a.error}`);
  }
  for (const f of failures) lines.push(`ERROR   ${f.skill}: ${f.detail}`);
  const unsafe = results.filter((r) => !r.is_safe).length;
  lines.push('', `${results.length} scanned, ${unsafe} unsafe${failures.length ? `, ${failures.length} failed` : ''}`);
  return `${lines.join('\n')}\n`;
}

export function registerSkill(program: Command): void {
  const skill = program.command('skill').description('vet agent skills before installing them');
  skill
    .command('scan')
    .argument('<path>', 'a skill folder (with SKILL.md), or a folder of skill folders')
    .description('scan skills; exit 1 when any is unsafe, 2 when a scan could not run')
    .option('-r, --recursive', 'find skills at any depth under PATH')
    .option('--policy <policy>', 'balanced, low-noise, quiet, strict, permissive, or a policy YAML path', 'balanced')
    .addOption(new Option('--format <format>', 'output format').choices(['table', 'json', 'sarif']).default('table'))
    .option('-o, --output <file>', 'write the report to FILE instead of standard output')
    .option('--lenient', 'tolerate malformed skills')
    .option('--use-behavioral', 'dataflow analysis of scripts')
    .option('--use-trigger', 'flag over-generic descriptions')
    .option('--use-reputation', 'check file hashes against the known-bad list')
    .option('--use-osv', 'check pinned dependencies against OSV (SKILL_SCANNER_OSV_URL)')
    .option('--use-llm', 'LLM judge (SKILL_SCANNER_LLM_API_KEY, _MODEL, _BASE_URL)')
    .option('--use-ai-guard', 'AI analyzer (AI_GUARD_API_KEY)')
    .option('--enable-meta', 'meta-analyzer over the findings')
    .option('--llm-consensus-runs <n>', 'LLM runs for majority consensus (1-5)', runs)
    .option('--workers <n>', 'scan threads for a folder of skills', runs)
    .action(async (path: string, options: SkillScanOptions) => {
      const { findSkillDirectories } = await import('../../scanners/scan.js');
      const target = resolve(path);
      if (!existsSync(target)) {
        process.stderr.write(`warden: no such path: ${path}\n`);
        process.exitCode = 2;
        return;
      }
      const scanOptions: Partial<ScanOptions> = {
        policy: policyArgument(options.policy), lenient: options.lenient ?? false,
        use_behavioral: options.useBehavioral ?? false, use_trigger: options.useTrigger ?? false,
        use_reputation: options.useReputation ?? false, use_osv: options.useOsv ?? false, use_llm: options.useLlm ?? false,
        use_ai_guard: options.useAiGuard ?? false, enable_meta: options.enableMeta ?? false,
        llm_consensus_runs: options.llmConsensusRuns ?? 1,
      };
      const skills = existsSync(join(target, 'SKILL.md')) ? [target] : findSkillDirectories(target, options.recursive ?? false);
      if (skills.length === 0) {
        process.stderr.write(`warden: no skills (folders with SKILL.md) under ${path}${options.recursive ? '' : ' (try --recursive)'}\n`);
        process.exitCode = 2;
        return;
      }
      const { results, failures } = await scanAll(skills, scanOptions, options.workers);
      const { VERSION } = await import('../../version.js');
      const { toSarif } = await import('../../scanners/sarif.js');
      const report = options.format === 'json'
        ? `${JSON.stringify(skills.length === 1 && results.length === 1 ? results[0] : { results, failures }, null, 2)}\n`
        : options.format === 'sarif' ? `${JSON.stringify(toSarif(results, VERSION), null, 2)}\n` : table(results, failures);
      writeReport(report, options.output);
      for (const f of failures) if (options.format !== 'table') process.stderr.write(`warden: ${f.skill}: ${f.detail}\n`);
      process.exitCode = failures.length > 0 ? 2 : results.some((r) => !r.is_safe) ? 1 : 0;
    });
}

async function scanAll(skills: string[], options: Partial<ScanOptions>, workers?: number) {
  const results: ScanResult[] = [];
  const failures: { skill: string; detail: string }[] = [];
  // The operator's own command line reads what they name, unless SKILL_SCANNER_ALLOWED_ROOTS confines it.
  const { allowedRoots } = await import('../../scanners/paths.js');
  const roots = allowedRoots(process.env) ?? null;
  if (skills.length === 1) {
    const { runScan } = await import('../../scanners/pool/worker.js');
    const outcome = await runScan({ directory: skills[0]!, options, env: process.env, roots });
    if (outcome.ok) results.push(outcome.result);
    else failures.push({ skill: skills[0]!, detail: outcome.detail });
    return { results, failures };
  }
  const { ScanPool } = await import('../../scanners/pool/pool.js');
  const { SingleBar, Presets } = await import('cli-progress');
  const pool = new ScanPool(workers);
  // The bar goes to standard error, and only on a terminal: reports on standard output stay clean.
  const bar = process.stderr.isTTY ? new SingleBar({ format: 'scanning [{bar}] {value}/{total} skills', stream: process.stderr }, Presets.shades_classic) : undefined;
  bar?.start(skills.length, 0);
  try {
    await Promise.all(skills.map(async (directory) => {
      const outcome = await pool.run({ directory, options, env: process.env, roots });
      if (outcome.ok) results.push(outcome.result);
      else failures.push({ skill: directory, detail: outcome.detail });
      bar?.increment();
    }));
  } finally {
    bar?.stop();
    await pool.close();
  }
  results.sort((a, b) => a.skill_path.localeCompare(b.skill_path));
  return { results, failures };
}
