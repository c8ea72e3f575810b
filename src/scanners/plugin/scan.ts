// One plugin scan: the manifest and layout (manifest.ts), the plugin's own files as a source tree (the skill
// scanner's analyzers without skill-manifest checks), each bundled skill through the skill scanner, each hook
// command through the guardrail's tool-call lane (the same verdict the command would get when an agent runs it),
// and the MCP servers it bundles through the MCP scanner (definitions only; a URL server is spoken to).
// Knows nothing of HTTP; the sidecar route and the CLI give it their way of running skill scans.
import { randomUUID } from 'node:crypto';
import { basename, isAbsolute, join, relative, sep } from 'node:path';
import type { Inspector } from '../../guardrail/inspector.js';
import { fromGuardrail } from '../guardrail-findings.js';
import { scanMcpServers, type McpScanDeps, type McpScanResult } from '../mcp/scan.js';
import { SCAN_SEVERITIES, type AnalyzerFinding, type Finding, type ScanResult, type ScanSeverity } from '../types.js';
import { readPluginLayout, type PluginHook, type PluginLayout } from './manifest.js';

export interface PluginScanDeps {
  /** The skill scanner over a folder: a skill, or (`source`) the plugin's own files as a source tree. */
  scanFolder(directory: string, source: boolean): Promise<ScanResult>;
  inspector: Inspector;
  mcp: Omit<McpScanDeps, 'inspector'>;
}

export interface PluginScanResult {
  scan_id: string;
  target_type: 'plugin';
  plugin_name: string;
  plugin_path: string;
  is_safe: boolean;
  max_severity: ScanSeverity | 'NONE';
  findings_count: number;
  findings: Finding[];
  manifest?: PluginLayout['manifest'];
  components: { commands: string[]; agents: string[]; skills: string[]; hooks: PluginHook[]; mcp_servers: string[] };
  /** The bundled skills' verdicts (their findings are in `findings`, with paths from the plugin root). */
  skills: { path: string; skill_name: string; is_safe: boolean; max_severity: ScanResult['max_severity'] }[];
  mcp?: Pick<McpScanResult, 'servers' | 'unscannable' | 'is_safe'>;
  analyzers_used: string[];
  analyzers_failed: ScanResult['analyzers_failed'];
  scan_duration_seconds: number;
  timestamp: string;
}

/** Own findings (manifest, hooks) at or above this severity make the plugin unsafe (the `balanced` preset's line). */
const UNSAFE_AT: ScanSeverity = 'HIGH';
const rank = (s: ScanSeverity) => SCAN_SEVERITIES.indexOf(s);
const HOOK_REMEDIATION = 'Do not install the plugin until the hook command is explained: it runs on every matching agent event without asking.';

type Located = AnalyzerFinding & { analyzer: string };

function hookFindings(hook: PluginHook, inspector: Inspector, root: string): Located[] {
  const what = `${hook.event}${hook.matcher ? ` (${hook.matcher})` : ''} hook ${hook.type === 'prompt' ? 'prompt' : 'command'}`;
  // The command as the agent would run it: ${CLAUDE_PLUGIN_ROOT} is the plugin's folder.
  const findings = hook.command !== undefined
    ? inspector.tool('Bash', { command: hook.command.replaceAll('${CLAUDE_PLUGIN_ROOT}', root) }, { cwd: root }).findings
    : hook.prompt !== undefined ? inspector.text(hook.prompt).findings : [];
  return findings.map((f) => ({ ...fromGuardrail(f, what, HOOK_REMEDIATION), analyzer: 'hooks', file_path: hook.file, metadata: { event: hook.event, matcher: hook.matcher, confidence: f.rule.confidence } }));
}

export async function scanPlugin(root: string, deps: PluginScanDeps): Promise<PluginScanResult> {
  const started = performance.now();
  const layout = readPluginLayout(root);
  const under = (prefix: string, path?: string) => (path === undefined ? prefix : `${prefix}/${path}`);
  const insideSkill = (path?: string) => path !== undefined && layout.skills.some((skill) => path === skill || path.startsWith(`${skill}/`));

  const [files, ...skillResults] = await Promise.all([deps.scanFolder(root, true), ...layout.skills.map((skill) => deps.scanFolder(join(root, skill), false))]);
  const collected: Located[] = layout.findings.map((f) => ({ ...f, analyzer: 'plugin' }));
  // A bundled skill's files are reported by its own scan (with the manifest checks a skill gets), not twice.
  collected.push(...files!.findings.filter((f) => !insideSkill(f.file_path)));
  skillResults.forEach((result, i) => collected.push(...result.findings.map((f) => ({ ...f, file_path: under(layout.skills[i]!, f.file_path) }))));
  for (const hook of layout.hooks) collected.push(...hookFindings(hook, deps.inspector, root));

  let mcp: McpScanResult | undefined;
  if (layout.mcpServers.length > 0) {
    mcp = await scanMcpServers(layout.mcpServers, root, { ...deps.mcp, inspector: deps.inspector });
    const rel = (path?: string) => (path && isAbsolute(path) ? relative(root, path).split(sep).join('/') : path);
    collected.push(...mcp.findings.map((f) => ({ ...f, file_path: rel(f.file_path) })));
  }

  // Numbered anew across the parts (a skill scan's own ids would repeat).
  const findings: Finding[] = collected.map((finding, i) => ({ ...finding, id: `${finding.analyzer}-${i + 1}` }));
  const own = collected.filter((f) => f.analyzer === 'plugin' || f.analyzer === 'hooks');
  const parts = [files!, ...skillResults];
  return {
    scan_id: randomUUID(),
    target_type: 'plugin',
    plugin_name: layout.manifest?.name ?? basename(root),
    plugin_path: root,
    is_safe: parts.every((r) => r.is_safe) && (mcp?.is_safe ?? true) && !own.some((f) => rank(f.severity) <= rank(UNSAFE_AT)),
    max_severity: SCAN_SEVERITIES.find((s) => findings.some((f) => f.severity === s)) ?? 'NONE',
    findings_count: findings.length,
    findings,
    ...(layout.manifest ? { manifest: layout.manifest } : {}),
    components: {
      commands: layout.commands, agents: layout.agents, skills: layout.skills,
      hooks: layout.hooks, mcp_servers: layout.mcpServers.map((d) => d.name),
    },
    skills: skillResults.map((r, i) => ({ path: layout.skills[i]!, skill_name: r.skill_name, is_safe: r.is_safe, max_severity: r.max_severity })),
    ...(mcp ? { mcp: { servers: mcp.servers, unscannable: mcp.unscannable, is_safe: mcp.is_safe } } : {}),
    analyzers_used: [...new Set([...parts.flatMap((r) => r.analyzers_used), 'hooks', ...(mcp ? ['mcp'] : [])])],
    analyzers_failed: [...parts.flatMap((r) => r.analyzers_failed), ...(mcp?.analyzers_failed ?? [])],
    scan_duration_seconds: Number(((performance.now() - started) / 1000).toFixed(4)),
    timestamp: new Date().toISOString(),
  };
}
