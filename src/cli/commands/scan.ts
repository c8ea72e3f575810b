// `warden scan code PATH`: the code scanner from the command line — secrets, dangerous calls and the behavioral
// analyzer's data flows over a source tree (no skill-manifest checks), as a table, JSON or SARIF 2.1.0 for
// code-scanning services.
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { findingLines, policyArgument, resultLine, writeReport } from '../scan-report.js';

interface CodeScanOptions {
  policy: string;
  sarif?: boolean;
  format: 'table' | 'json' | 'sarif';
  output?: string;
}

export function registerScan(program: Command): void {
  const scan = program.command('scan').description('scan source code');
  scan
    .command('code')
    .argument('<path>', 'a source folder')
    .description('scan a source tree; exit 1 when it is unsafe, 2 when the scan could not run')
    .option('--policy <policy>', 'balanced, low-noise, quiet, strict, permissive, or a policy YAML path', 'balanced')
    .option('--sarif', 'SARIF 2.1.0 output (same as --format sarif)')
    .addOption(new Option('--format <format>', 'output format').choices(['table', 'json', 'sarif']).default('table'))
    .option('-o, --output <file>', 'write the report to FILE instead of standard output')
    .action(async (path: string, options: CodeScanOptions) => {
      const { runScan } = await import('../../scanners/pool/worker.js');
      const { allowedRoots } = await import('../../scanners/paths.js');
      const outcome = await runScan({
        directory: resolve(path),
        options: { lenient: true, use_behavioral: true, policy: policyArgument(options.policy) },
        env: process.env,
        // The operator's own command line reads what they name, unless SKILL_SCANNER_ALLOWED_ROOTS confines it.
        roots: allowedRoots(process.env) ?? null,
        source: true,
      });
      if (!outcome.ok) {
        process.stderr.write(`warden: ${outcome.detail} (${outcome.code})\n`);
        process.exitCode = 2;
        return;
      }
      const result = outcome.result;
      const format = options.sarif ? 'sarif' : options.format;
      let report: string;
      if (format === 'sarif') {
        const { toSarif } = await import('../../scanners/sarif.js');
        const { VERSION } = await import('../../version.js');
        report = `${JSON.stringify(toSarif([result], VERSION), null, 2)}\n`;
      } else if (format === 'json') {
        report = `${JSON.stringify(result, null, 2)}\n`;
      } else {
        report = [
          resultLine(result, result.skill_path),
          ...findingLines(result.findings),
          ...result.analyzers_failed.map((a) => `  analyzer ${a.analyzer} failed: ${a.error}`),
        ].join('\n') + '\n';
      }
      writeReport(report, options.output);
      process.exitCode = result.is_safe ? 0 : 1;
    });
}
