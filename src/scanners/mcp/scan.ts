// One MCP scan: the servers a configuration file (or a URL) defines, each looked at the way it can be without
// running anything — a URL server is spoken to (tools, prompts and resources read and checked for poisoning,
// tool definitions compared with the last scan), an `npx`/`uvx` package is checked for a pinned version and,
// with `use_osv`, for known vulnerabilities (through the skill scanner's OSV analyzer), and any other command is
// reported as unscannable. Knows nothing of HTTP; the sidecar route, the CLI and the plugin scanner call it.
import { randomUUID } from 'node:crypto';
import type { Inspector } from '../../guardrail/inspector.js';
import { mapLimited } from '../analyzers/http.js';
import { osvAnalyzer } from '../analyzers/osv.js';
import { DEFAULT_SCAN_OPTIONS } from '../options.js';
import { SCANNER_LIMITS } from '../limits.js';
import { SCAN_SEVERITIES, type AnalyzerFinding, type Finding, type ScanSeverity, type SkillFile } from '../types.js';
import { listServer, McpUnreachable } from './client.js';
import type { McpServerDefinition } from './definitions.js';
import { launchOf, type Launch } from './launch.js';
import { poisoningFindings, toolText, type DefinitionText } from './poisoning.js';
import { toolHash, type ToolHashStore, type ToolRecord } from './tool-hashes.js';

export interface McpScanDeps {
  inspector: Inspector;
  /** SKILL_SCANNER_OSV_URL and the HTTP timeout of the OSV analyzer. */
  env: Record<string, string | undefined>;
  use_osv?: boolean;
  /** Where tool hashes are kept between scans; without it, changes are not tracked. */
  hashes?: ToolHashStore;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** A URL the caller named itself: failing to reach it fails the scan (McpUnreachable) instead of being a finding. */
  unreachableIsError?: boolean;
}

export interface McpServerReport {
  name: string;
  agent: string;
  source?: string;
  transport: 'http' | 'npx' | 'uvx' | 'unscannable';
  url?: string;
  package?: { ecosystem: 'npm' | 'PyPI'; name: string; version?: string; pinned: boolean };
  server_info?: { name: string; version: string };
  tools?: ToolRecord[];
  prompts?: string[];
  resources?: string[];
  /** Why a URL server could not be read. */
  error?: string;
}

export interface UnscannableServer {
  name: string;
  source?: string;
  command: string;
  reason: string;
  fix: string;
}

export interface McpScanResult {
  scan_id: string;
  target_type: 'mcp';
  target: string;
  is_safe: boolean;
  max_severity: ScanSeverity | 'NONE';
  findings_count: number;
  findings: Finding[];
  servers: McpServerReport[];
  unscannable: UnscannableServer[];
  /** Definitions past the per-scan limit, not looked at. */
  servers_skipped: number;
  analyzers_failed: { analyzer: string; error: string }[];
  scan_duration_seconds: number;
  timestamp: string;
}

/** A finding at or above this severity makes the result unsafe (the `balanced` preset's line). */
const UNSAFE_AT: ScanSeverity = 'HIGH';
const SERVER_CONCURRENCY = 4;
const UNSCANNABLE_FIX = 'Run the server through npx or uvx with a pinned registry package, or serve it over HTTP and point the agent at its URL; until then it is blocked at install admission.';

type Located = AnalyzerFinding & { analyzer: string };

const at = (definition: McpServerDefinition, finding: AnalyzerFinding, analyzer = 'mcp'): Located => ({
  ...finding, analyzer, ...(definition.source ? { file_path: definition.source } : {}),
  metadata: { server: definition.name, ...finding.metadata },
});

/** The identity tool hashes are kept under: the URL without query or fragment (which may carry a key). */
const serverKey = (url: URL) => `${url.origin}${url.pathname}`;

async function scanUrlServer(definition: McpServerDefinition, url: URL, report: McpServerReport, deps: McpScanDeps): Promise<Located[]> {
  let listing;
  try {
    listing = await listServer(url, deps.timeoutMs, definition.headers);
  } catch (err) {
    if (!(err instanceof McpUnreachable) || deps.unreachableIsError) throw err;
    report.error = err.message;
    return [at(definition, {
      rule_id: 'MCP-SERVER-UNREACHABLE', category: 'policy_violation', severity: 'MEDIUM', title: `MCP server ${definition.name} could not be read`,
      description: `${err.message}. Its tools were not inspected.`, remediation: 'Scan again when the server is up; do not approve what was not inspected.',
    })];
  }
  if (listing.server) report.server_info = listing.server;
  report.prompts = listing.prompts.map((p) => p.name);
  report.resources = listing.resources.map((r) => r.uri);
  const texts: DefinitionText[] = [
    ...(listing.instructions ? [{ kind: 'instructions' as const, name: 'instructions', text: listing.instructions }] : []),
    ...listing.tools.map((t) => ({ kind: 'tool' as const, name: t.name, text: toolText(t) })),
    ...listing.prompts.map((p) => ({ kind: 'prompt' as const, name: p.name, text: [p.title, p.description, ...(p.arguments ?? []).map((a) => a.description)].filter(Boolean).join('\n') })),
    ...listing.resources.map((r) => ({ kind: 'resource' as const, name: r.name, text: [r.title, r.description].filter(Boolean).join('\n') })),
  ];
  const findings = texts.filter((t) => t.text !== '').flatMap((t) => poisoningFindings(t, deps.inspector).map((f) => at(definition, f)));
  report.tools = deps.hashes?.record(serverKey(url), listing.tools) ?? listing.tools.map((t) => ({ name: t.name, sha256: toolHash(t), change: 'new' as const }));
  for (const tool of report.tools.filter((t) => t.change === 'changed')) {
    findings.push(at(definition, {
      rule_id: 'MCP-TOOL-CHANGED', category: 'supply_chain_attack', severity: 'HIGH', title: `Tool ${tool.name} changed since the last scan (rug pull)`,
      description: `The definition of tool ${tool.name} on ${serverKey(url)} differs from the one recorded at the last scan (SHA-256 ${tool.previous_sha256!.slice(0, 12)}… → ${tool.sha256.slice(0, 12)}…): what the model is told now is not what was approved.`,
      remediation: 'Review the new definition before using the server again; a server that changes its tools after approval is a known attack (rug pull).',
      metadata: { tool: tool.name, sha256: tool.sha256, previous_sha256: tool.previous_sha256 },
    }));
  }
  if (listing.truncated.length > 0) {
    findings.push(at(definition, {
      rule_id: 'MCP-LISTING-TRUNCATED', category: 'resource_abuse', severity: 'LOW', title: `MCP server ${definition.name} lists more than was read`,
      description: `Only part of its ${listing.truncated.join(', ')} was read (limits in src/scanners/limits.ts).`,
    }));
  }
  return findings;
}

function packageFindings(definition: McpServerDefinition, launch: Extract<Launch, { kind: 'package' }>): Located[] {
  if (launch.pinned) return [];
  return [at(definition, {
    rule_id: 'MCP-UNPINNED-PACKAGE', category: 'supply_chain_attack', severity: 'MEDIUM',
    title: `MCP server ${definition.name} runs ${launch.runner} ${launch.spec} without an exact version`,
    description: `${launch.runner} fetches ${launch.name}${launch.version ? ` (${launch.version})` : ''} from ${launch.ecosystem === 'npm' ? 'npm' : 'PyPI'} each time the agent starts it: a new release, or a hijacked one, runs without review.`,
    remediation: `Pin an exact version: ${launch.runner === 'npx' ? `${launch.name}@<version>` : `${launch.name}==<version>`}.`,
    metadata: { runner: launch.runner, package: launch.name, version: launch.version },
  })];
}

/** Known vulnerabilities of the pinned packages, through the skill scanner's OSV analyzer (a synthetic manifest). */
async function osvFindings(pinned: { definition: McpServerDefinition; launch: Extract<Launch, { kind: 'package' }> }[], deps: McpScanDeps): Promise<Located[]> {
  if (pinned.length === 0) return [];
  const file = (path: string, text: string): SkillFile => ({ path, text, size: text.length, head: new Uint8Array(), sha256: '' });
  const npm = pinned.filter((p) => p.launch.ecosystem === 'npm');
  const pypi = pinned.filter((p) => p.launch.ecosystem === 'PyPI');
  const files = [
    file('package.json', JSON.stringify({ dependencies: Object.fromEntries(npm.map((p) => [p.launch.name, p.launch.version])) })),
    file('requirements.txt', pypi.map((p) => `${p.launch.name}==${p.launch.version}`).join('\n')),
  ];
  const found = await osvAnalyzer.analyze({
    skill: { root: '', manifest: undefined, instructions: '', files, skipped: [] },
    options: { ...DEFAULT_SCAN_OPTIONS, use_osv: true }, env: deps.env, signal: deps.signal, addUsage: () => undefined,
  });
  return found.flatMap((finding) => {
    const meta = finding.metadata as { package?: string; ecosystem?: string };
    return pinned
      .filter((p) => p.launch.name.toLowerCase().replace(/[-_.]+/g, '-') === meta.package?.toLowerCase().replace(/[-_.]+/g, '-') && p.launch.ecosystem === meta.ecosystem)
      .map((p) => at(p.definition, { ...finding, file_path: undefined, line_number: undefined, snippet: undefined }, 'osv'));
  });
}

export async function scanMcpServers(definitions: readonly McpServerDefinition[], target: string, deps: McpScanDeps): Promise<McpScanResult> {
  const started = performance.now();
  const chosen = definitions.slice(0, SCANNER_LIMITS.mcpServers);
  const servers: McpServerReport[] = [];
  const unscannable: UnscannableServer[] = [];
  const failed: McpScanResult['analyzers_failed'] = [];
  const pinned: Parameters<typeof osvFindings>[0] = [];
  const perServer = await mapLimited(chosen, SERVER_CONCURRENCY, async (definition): Promise<Located[]> => {
    const launch = launchOf(definition);
    const report: McpServerReport = { name: definition.name, agent: definition.agent, ...(definition.source ? { source: definition.source } : {}), transport: 'unscannable' };
    servers.push(report);
    if (launch.kind === 'url') {
      report.transport = 'http';
      report.url = serverKey(launch.url);
      return scanUrlServer(definition, launch.url, report, deps);
    }
    if (launch.kind === 'package') {
      report.transport = launch.runner;
      report.package = { ecosystem: launch.ecosystem, name: launch.name, pinned: launch.pinned, ...(launch.version ? { version: launch.version } : {}) };
      if (launch.pinned) pinned.push({ definition, launch });
      return packageFindings(definition, launch);
    }
    const command = [definition.command, ...definition.args].filter(Boolean).join(' ');
    unscannable.push({ name: definition.name, ...(definition.source ? { source: definition.source } : {}), command, reason: launch.reason, fix: UNSCANNABLE_FIX });
    return [at(definition, {
      rule_id: 'MCP-UNSCANNABLE', category: 'policy_violation', severity: 'MEDIUM', title: `MCP server ${definition.name} cannot be scanned`,
      description: `${launch.reason}. The scanner never starts a server to look at it.`, remediation: UNSCANNABLE_FIX,
      metadata: { command },
    })];
  });
  const collected = perServer.flat();
  if (deps.use_osv) {
    try {
      collected.push(...(await osvFindings(pinned, deps)));
    } catch (err) {
      failed.push({ analyzer: 'osv', error: String((err as Error).message).slice(0, 300) });
    }
  }
  const findings: Finding[] = collected.map((finding, i) => ({ id: `${finding.analyzer}-${i + 1}`, ...finding }));
  const rank = (s: ScanSeverity) => SCAN_SEVERITIES.indexOf(s);
  servers.sort((a, b) => a.name.localeCompare(b.name));
  return {
    scan_id: randomUUID(),
    target_type: 'mcp',
    target,
    is_safe: !findings.some((f) => rank(f.severity) <= rank(UNSAFE_AT)),
    max_severity: SCAN_SEVERITIES.find((s) => findings.some((f) => f.severity === s)) ?? 'NONE',
    findings_count: findings.length,
    findings,
    servers,
    unscannable,
    servers_skipped: definitions.length - chosen.length,
    analyzers_failed: failed,
    scan_duration_seconds: Number(((performance.now() - started) / 1000).toFixed(4)),
    timestamp: new Date().toISOString(),
  };
}
