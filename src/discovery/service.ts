// AI usage discovery as one object the sidecar and the CLI use: run a scan off the event loop (one at a time; a
// second caller joins the running one), score its signals with the confidence policy, record it in discovery.db,
// take posted reports through the same scoring, answer the snapshot and the component history, and dry-run a
// candidate confidence policy against the latest snapshot. Packs and the policy are read afresh for every scan,
// so an edited or tampered pack is noticed at the next scan.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Static } from 'typebox';
import type { AiDiscoverySection } from '../config/sections/ai-discovery.js';
import { WardenError } from '../errors.js';
import { expandHome } from '../scanners/paths.js';
import { loadConfidencePolicy, parsePolicy, score, type ActivePolicy, type ConfidencePolicy } from './confidence.js';
import { loadSignatures } from './packs.js';
import { runScanInWorker } from './run.js';
import type { RawScan, ScanInput } from './scan.js';
import { DiscoveryStore } from './store.js';
import type { PolicyValidation, Snapshot } from './answers.js';
import type { PostedReport, ScanReport, Signal, UnscoredSignal } from './types.js';
import { YamlProblem } from './yaml-file.js';

export type DiscoverySettings = Static<typeof AiDiscoverySection>;

export interface DiscoveryOptions {
  settings: DiscoverySettings;
  wardenHome: string;
  /** The user's home folder (agents' folders, `~` in paths). */
  home: string;
  /** The environment whose provider key variables are reported by name. */
  env: Readonly<Record<string, string | undefined>>;
  /** How a scan runs: default a worker thread; the CLI, with no event loop to protect, passes scanHost to run it in its own. */
  runner?: (input: ScanInput, signal?: AbortSignal) => Promise<RawScan>;
  /** Record scans in discovery.db (default true; the CLI skips it when the data directory does not exist). */
  record?: boolean;
}

const discoveryDbPath = (wardenHome: string) => join(wardenHome, 'discovery.db');

export class DiscoveryDisabled extends WardenError {
  constructor() {
    super('WARDEN_ERR_DISCOVERY_DISABLED', 'AI usage discovery is off (ai_discovery.enabled: false)', { statusCode: 409 });
  }
}

export class DiscoveryService {
  private opened: DiscoveryStore | undefined;
  private running: Promise<ScanReport> | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** Stops a running scan when the service closes. */
  private readonly closing = new AbortController();

  constructor(private readonly options: DiscoveryOptions) {}

  /** discovery.db, opened on first use: a sidecar that is never asked keeps no file open. */
  private get store(): DiscoveryStore {
    return (this.opened ??= new DiscoveryStore(discoveryDbPath(this.options.wardenHome)));
  }

  get enabled(): boolean {
    return this.options.settings.enabled;
  }

  private signatures() {
    return loadSignatures(this.options.settings, this.options.wardenHome, this.options.home);
  }

  policy(): ActivePolicy {
    return loadConfidencePolicy(this.options.settings.confidence_policy, this.options.wardenHome, this.options.home);
  }

  private scored(signals: readonly UnscoredSignal[], policy: ConfidencePolicy): Signal[] {
    return signals.map((s) => ({ ...s, confidence: score(policy, s.evidence) }));
  }

  /** Scans now, or joins the scan already running; resolves once the scan is recorded. */
  scan(): Promise<ScanReport> {
    if (!this.enabled) return Promise.reject(new DiscoveryDisabled());
    this.running ??= this.runScan().finally(() => (this.running = undefined));
    return this.running;
  }

  private async runScan(): Promise<ScanReport> {
    const { settings, home, env } = this.options;
    const signatures = this.signatures();
    const started = new Date();
    const input: ScanInput = {
      home,
      roots: settings.roots.map((root) => expandHome(root, home)),
      maxEntries: settings.max_files,
      deadline: started.getTime() + settings.timeout_ms,
      probePorts: settings.probe_ports,
      envKeysSet: signatures.envKeys.filter((name) => (env[name] ?? '').trim() !== ''),
      signatures,
    };
    const raw = await (this.options.runner ?? runScanInWorker)(input, this.closing.signal);
    const finished = new Date();
    const report: ScanReport = {
      scan_id: randomUUID(), source: 'scan', host: hostname(), started_at: started.toISOString(), finished_at: finished.toISOString(),
      duration_ms: finished.getTime() - started.getTime(), entries_seen: raw.entries, truncated: raw.truncated,
      packs: signatures.packs, packs_refused: signatures.refused, warnings: raw.warnings,
      ...raw.findings, signals: this.scored(raw.findings.signals, this.policy().policy),
    };
    if (this.options.record !== false) this.store.record(report);
    return report;
  }

  /** Records a posted report, its confidences computed here (a caller's own are never taken). */
  ingest(posted: PostedReport, source: 'scanner' | 'external'): ScanReport {
    if (!this.enabled) throw new DiscoveryDisabled();
    const now = new Date().toISOString();
    const at = posted.scanned_at ?? now;
    const report: ScanReport = {
      scan_id: randomUUID(), source, host: posted.host ?? hostname(), started_at: at, finished_at: now, duration_ms: 0,
      entries_seen: 0, truncated: { files: false, time: false }, packs: [], packs_refused: [], warnings: [],
      signals: this.scored(posted.signals, this.policy().policy), processes: posted.processes, endpoints: posted.endpoints,
      local_models: posted.local_models, components: posted.components,
    };
    this.store.record(report);
    return report;
  }

  snapshot(): Snapshot {
    const latest = this.store.latest();
    const { packs, refused } = this.signatures();
    const signals = latest?.signals ?? [];
    const count = (category: string) => signals.filter((s) => s.category === category).length;
    const level = (l: string) => signals.filter((s) => s.confidence.level === l).length;
    return {
      scan_id: latest?.scan_id ?? null, source: latest?.source ?? null, host: latest?.host ?? null, scanned_at: latest?.finished_at ?? null,
      summary: {
        agents: count('agent'), ide_extensions: count('ide_extension'), mcp_servers: count('mcp_server'), local_models: latest?.local_models.length ?? 0,
        local_model_servers: count('local_model'), sdks: count('sdk'), provider_keys: count('provider_key'), processes: latest?.processes.length ?? 0,
        endpoints: latest?.endpoints.length ?? 0, components: latest?.components.length ?? 0,
        confidence: { high: level('high'), medium: level('medium'), low: level('low') },
      },
      agents: signals.filter((s) => s.category === 'agent'),
      processes: latest?.processes ?? [], endpoints: latest?.endpoints ?? [], components: latest?.components ?? [],
      local_models: latest?.local_models ?? [], signals, truncated: latest?.truncated ?? null, warnings: latest?.warnings ?? [],
      packs, packs_refused: refused,
    };
  }

  components() {
    return this.store.components();
  }

  locations(ecosystem: string, name: string) {
    return this.store.locations(ecosystem, name);
  }

  history(ecosystem: string, name: string, limit: number) {
    return this.store.history(ecosystem, name, limit);
  }

  /** Checks a candidate policy and scores the latest snapshot with it; changes nothing. */
  validatePolicy(text: string): PolicyValidation {
    let candidate: ConfidencePolicy;
    try {
      candidate = parsePolicy(text, 'policy');
    } catch (err) {
      if (!(err instanceof YamlProblem)) throw err;
      return { valid: false, errors: err.problems, scores: [] };
    }
    const signals = this.store.latest()?.signals ?? [];
    return {
      valid: true, errors: [],
      scores: signals.map((s) => ({ id: s.id, category: s.category, name: s.name, current: s.confidence, candidate: score(candidate, s.evidence) })),
    };
  }

  /** Periodic scans every `interval_minutes` (0: none); failures go to `onError`. */
  startPeriodic(onError: (err: unknown) => void): void {
    const minutes = this.options.settings.interval_minutes;
    if (!this.enabled || minutes === 0) return;
    this.timer = setInterval(() => this.scan().catch(onError), minutes * 60_000);
    this.timer.unref();
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    this.closing.abort();
    await this.running?.catch(() => undefined);
    this.opened?.close();
  }
}
