// `warden mcp scan [TARGET]`: scan MCP servers from the command line — a URL, an agent's MCP configuration
// file, a project folder, or (without TARGET) every agent configuration in the home folder. Nothing is ever
// started: commands that are not npx/uvx packages are listed as unscannable.
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import type { McpScanResult } from '../../scanners/mcp/scan.js';
import { counted, findingLines, resultLine, writeReport } from '../scan-report.js';

interface McpScanOptions {
  useOsv?: boolean;
  record: boolean;
  format: 'table' | 'json';
  output?: string;
}

function table(result: McpScanResult, warnings: string[]): string {
  const lines = [resultLine(result, result.target, [counted(result.servers.length, 'server')])];
  for (const s of result.servers) {
    const what = s.url ?? (s.package ? `${s.package.name}${s.package.version ? `@${s.package.version}` : ''}${s.package.pinned ? '' : ' (unpinned)'}` : result.unscannable.find((u) => u.name === s.name)?.command ?? '');
    const tools = s.tools ? `, ${counted(s.tools.length, 'tool')}` : '';
    lines.push(`  server ${s.name} (${s.agent}) ${s.transport} ${what}${tools}${s.error ? `: ${s.error}` : ''}`);
  }
  lines.push(...findingLines(result.findings));
  for (const u of result.unscannable) lines.push(`  fix ${u.name}: ${u.fix}`);
  for (const a of result.analyzers_failed) lines.push(`  analyzer ${a.analyzer} failed: ${a.error}`);
  for (const w of warnings) lines.push(`  warning: ${w}`);
  return `${lines.join('\n')}\n`;
}

export function registerMcp(program: Command): void {
  const mcp = program.command('mcp').description('vet MCP servers before the agent uses them');
  mcp
    .command('scan')
    .argument('[target]', 'an MCP server URL, an agent MCP configuration file, or a project folder (default: every agent configuration in the home folder)')
    .description('scan MCP servers; exit 1 when any is unsafe, 2 when the scan could not run')
    .option('--use-osv', 'check pinned npx/uvx packages against OSV (SKILL_SCANNER_OSV_URL)')
    .option('--no-record', 'do not compare tool definitions with, or record them in, $WARDEN_HOME/mcp.db')
    .addOption(new Option('--format <format>', 'output format').choices(['table', 'json']).default('table'))
    .option('-o, --output <file>', 'write the report to FILE instead of standard output')
    .action(async (target: string | undefined, options: McpScanOptions) => {
      try {
        await scanAndReport(target, options);
      } catch (err) {
        const { describeFailure } = await import('../failure.js');
        process.stderr.write(`warden: ${describeFailure(err)}\n`);
        process.exitCode = 2;
      }
    });
}

async function scanAndReport(target: string | undefined, options: McpScanOptions): Promise<void> {
  const { localScanContext } = await import('../scan-context.js');
  const { scanMcpServers } = await import('../../scanners/mcp/scan.js');
  const { definitionsOf, discoverDefinitions, isUrlTarget } = await import('../../scanners/mcp/targets.js');
  const { confinePath, allowedRoots, homeOf } = await import('../../scanners/paths.js');
  const context = localScanContext();
  let definitions;
  let warnings: string[] = [];
  let named: string;
  if (target === undefined) {
    named = homeOf(process.env);
    ({ definitions, errors: warnings } = discoverDefinitions(named));
  } else {
    named = isUrlTarget(target) ? target : resolve(target);
    // The operator's own command line reads what they name, unless SKILL_SCANNER_ALLOWED_ROOTS confines it.
    const roots = allowedRoots(process.env);
    definitions = definitionsOf(named, (path) => confinePath(path, roots));
  }
  const hashes = options.record ? context.openToolHashes() : undefined;
  let result: McpScanResult;
  try {
    result = await scanMcpServers(definitions, named, {
      inspector: context.inspector, env: context.env, use_osv: options.useOsv ?? false, hashes, unreachableIsError: target !== undefined && isUrlTarget(target),
    });
  } finally {
    hashes?.close();
  }
  const report = options.format === 'json' ? `${JSON.stringify(result, null, 2)}\n` : table(result, warnings);
  writeReport(report, options.output);
  process.exitCode = result.is_safe ? 0 : 1;
}
