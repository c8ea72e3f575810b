// `warden plugin scan PATH`: scan an agent plugin (a Claude Code plugin folder) from the command line: its
// manifest and files, each bundled skill, each hook command and each MCP server it bundles.
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import type { PluginScanResult } from '../../scanners/plugin/scan.js';
import { findingLines, policyArgument, resultLine, writeReport } from '../scan-report.js';

interface PluginScanOptions {
  useBehavioral?: boolean;
  useOsv?: boolean;
  policy: string;
  record: boolean;
  format: 'table' | 'json';
  output?: string;
}

function table(result: PluginScanResult): string {
  const c = result.components;
  const lines = [
    resultLine(result, `${result.plugin_name}${result.manifest?.version ? ` ${result.manifest.version}` : ''}`, [], result.plugin_path),
    `  ${c.commands.length} commands, ${c.agents.length} agents, ${c.skills.length} skills, ${c.hooks.length} hooks, ${c.mcp_servers.length} MCP servers`,
    ...findingLines(result.findings),
    ...(result.mcp?.unscannable ?? []).map((u) => `  fix ${u.name}: ${u.fix}`),
    ...result.analyzers_failed.map((a) => `  analyzer ${a.analyzer} failed: ${a.error}`),
  ];
  return `${lines.join('\n')}\n`;
}

export function registerPlugin(program: Command): void {
  const plugin = program.command('plugin').description('vet agent plugins before installing them');
  plugin
    .command('scan')
    .argument('<path>', 'a plugin folder (with .claude-plugin/plugin.json)')
    .description('scan a plugin; exit 1 when it is unsafe, 2 when the scan could not run')
    .option('--policy <policy>', 'balanced, low-noise, quiet, strict, permissive, or a policy YAML path', 'balanced')
    .option('--use-behavioral', 'dataflow analysis of the plugin\'s scripts')
    .option('--use-osv', 'check pinned dependencies and npx/uvx packages against OSV (SKILL_SCANNER_OSV_URL)')
    .option('--no-record', 'do not compare MCP tool definitions with, or record them in, $WARDEN_HOME/mcp.db')
    .addOption(new Option('--format <format>', 'output format').choices(['table', 'json']).default('table'))
    .option('-o, --output <file>', 'write the report to FILE instead of standard output')
    .action(async (path: string, options: PluginScanOptions) => {
      try {
        const result = await scan(path, options);
        const report = options.format === 'json' ? `${JSON.stringify(result, null, 2)}\n` : table(result);
        writeReport(report, options.output);
        process.exitCode = result.is_safe ? 0 : 1;
      } catch (err) {
        const { describeFailure } = await import('../failure.js');
        process.stderr.write(`warden: ${describeFailure(err)}\n`);
        process.exitCode = 2;
      }
    });
}

async function scan(path: string, options: PluginScanOptions): Promise<PluginScanResult> {
  const { localScanContext } = await import('../scan-context.js');
  const { scanPlugin } = await import('../../scanners/plugin/scan.js');
  const { runScan } = await import('../../scanners/pool/worker.js');
  const { allowedRoots, confinePath } = await import('../../scanners/paths.js');
  const { WardenError } = await import('../../errors.js');
  const context = localScanContext();
  // The operator's own command line reads what they name, unless SKILL_SCANNER_ALLOWED_ROOTS confines it.
  const roots = allowedRoots(process.env);
  const root = confinePath(resolve(path), roots, 'directory');
  const scanOptions = {
    lenient: true, use_behavioral: options.useBehavioral ?? false, use_osv: options.useOsv ?? false,
    policy: policyArgument(options.policy),
  };
  const hashes = options.record ? context.openToolHashes() : undefined;
  try {
    return await scanPlugin(root, {
      inspector: context.inspector,
      mcp: { env: context.env, use_osv: options.useOsv ?? false, hashes },
      async scanFolder(directory, source) {
        const outcome = await runScan({ directory, options: scanOptions, env: context.env, roots: roots ?? null, source });
        if (!outcome.ok) throw new WardenError(outcome.code, outcome.detail);
        return outcome.result;
      },
    });
  } finally {
    hashes?.close();
  }
}
