// `warden discover [--json] [--root DIR]`: an AI usage discovery scan of this machine from the command line, no
// gateway needed: the agents, extensions, MCP servers, local model servers, AI SDKs and provider key names it
// finds, each with its confidence, as a table or the JSON report. The configuration is $WARDEN_HOME's when it
// exists (the built-in defaults otherwise); the scan is recorded in discovery.db when the data directory exists.
import { type Command } from 'commander';
import type { ScanReport } from '../../discovery/types.js';

interface DiscoverOptions {
  json?: boolean;
  root?: string[];
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

function table(report: ScanReport): string {
  const lines = [`AI usage on ${report.host}: ${report.signals.length} signals, ${report.components.length} components ` +
    `(${report.duration_ms} ms, ${report.entries_seen} entries walked${report.truncated.files ? ', stopped at max_files' : ''}${report.truncated.time ? ', stopped at timeout' : ''})`];
  const rows = [...report.signals].sort((a, b) => b.confidence.score - a.confidence.score || a.id.localeCompare(b.id));
  const width = Math.max(4, ...rows.map((s) => s.name.length));
  lines.push(`  ${'LEVEL'.padEnd(7)}${'SCORE'.padEnd(7)}${'CATEGORY'.padEnd(15)}${'NAME'.padEnd(width + 2)}EVIDENCE`);
  for (const s of rows) {
    const kinds = [...new Set(s.evidence.map((e) => e.kind))].join(', ');
    lines.push(`  ${s.confidence.level.padEnd(7)}${s.confidence.score.toFixed(2).padEnd(7)}${s.category.padEnd(15)}${s.name.padEnd(width + 2)}${kinds}`);
  }
  for (const m of report.local_models) lines.push(`  model ${m.model} (${m.server} at ${m.endpoint})`);
  for (const p of report.packs_refused) lines.push(`  refused pack ${p.path}: ${p.reason}`);
  for (const w of report.warnings) lines.push(`  warning: ${w}`);
  return `${lines.join('\n')}\n`;
}

export function registerDiscover(program: Command): void {
  program
    .command('discover')
    .description('find the AI in use on this machine: agents, extensions, MCP servers, local models, SDKs, provider keys (names only)')
    .option('--json', 'print the whole report as JSON')
    .option('--root <dir>', 'search this folder for project manifests instead of ai_discovery.roots (repeatable)', collect)
    .action(async (options: DiscoverOptions) => {
      const { existsSync } = await import('node:fs');
      const { resolve } = await import('node:path');
      const { wardenPaths } = await import('../../config/home.js');
      const { parseConfig } = await import('../../config/load.js');
      const { loadSettings } = await import('../../config/settings.js');
      const { DEFAULT_CONFIG_TEXT } = await import('../../config/write.js');
      const { DiscoveryService } = await import('../../discovery/service.js');
      const { scanHost } = await import('../../discovery/scan.js');
      const { homeOf } = await import('../../scanners/paths.js');
      const paths = wardenPaths(process.env);
      const settings = existsSync(paths.config) ? loadSettings({ env: process.env }) : undefined;
      const config = settings?.config ?? parseConfig(DEFAULT_CONFIG_TEXT, 'built-in defaults');
      const env = settings?.env ?? { ...process.env };
      const discovery = { ...config.ai_discovery, enabled: true, ...(options.root ? { roots: options.root.map((r) => resolve(r)) } : {}) };
      // The command has no event loop to keep free, so the scan runs in this thread.
      const service = new DiscoveryService({ settings: discovery, wardenHome: paths.home, home: homeOf(env), env, runner: scanHost, record: existsSync(paths.home) });
      try {
        const report = await service.scan();
        process.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : table(report));
      } finally {
        await service.close();
      }
    });
}
