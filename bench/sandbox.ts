// Sandbox start-up: create and start a `shell` sandbox through the manager (name, policy, image lookup,
// sandboxes.db row, bubblewrap with the full isolation list, waiting for its mounts) and run `true` inside it,
// against plain `bwrap --ro-bind / / true` spawned in the same run as the floor. Twice: with network mode `none`
// (loopback only), and `policed` as the default pack runs it (the service's own egress proxy: a socket, the
// in-sandbox forwarder started and listening before the harness). The image exists (built once before timing);
// no snapshot is taken (the snapshot bench measures that). Target: median <= 150 ms.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateConfigObject } from '../src/config/load.js';
import type { NetworkMode, ResolvedPolicy, RunOptions, SandboxPolicyPort, WorkspacePort } from '../src/sandbox/ports.js';
import { createSandboxService, type SandboxNetwork } from '../src/sandbox/service.js';
import { median, round, writeResult } from './lib/report.js';

const RUNS = 20;

const policyWith = (network: NetworkMode): SandboxPolicyPort => ({
  resolve: (options: RunOptions): ResolvedPolicy => ({
    pack: 'default', pack_source: 'shipped', pack_digest: 'sha256:bench', profile: 'default', network_mode: network, approvals: false, yolo: false,
    admin: { configured: false, authority: 'advisory', detail: '' }, settings: [], violations: [],
    effective: { copy: false, safe: false, yolo: false, context: [], unmask: [], host_ports: [], no_mcp: false, learn: options.learn ?? false },
  }),
});

/** The gateway's side of egress for the policed run: every connection allowed, nothing recorded. */
const network: SandboxNetwork = {
  firewall: () => ({ allow: true, reason: 'bench', matched_rule: null, ask: false, category: 'allowed', unblockable: true }),
  audit: async () => {},
  gatewayPorts: () => [],
};
const workspace: WorkspacePort = {
  checkProject: async () => ({ nested_repos: [] }),
  take: async () => ({ kind: 'git', ref: 'bench', created_at: new Date().toISOString() }),
  hasChanges: async () => false,
  undo: async () => ({ changes: [], preview: true, summary: '' }),
  review: async () => ({ report: { added: [], modified: [], deleted: [] }, summary: '', risk_line: '' }),
  remove: async () => {},
};

const percentile = (values: number[], p: number): number => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;

/** Median and p90 of create+start+`true` over RUNS sandboxes, and the plain-bwrap floor measured alongside. */
async function measure(mode: NetworkMode): Promise<{ sandboxMs: number[]; floorMs: number[]; limits: string | null }> {
  const home = mkdtempSync(join(tmpdir(), 'warden-bench-sandbox-'));
  const project = join(home, 'project');
  mkdirSync(project);
  const config = validateConfigObject({ config_version: 9, openshell: { enabled: true } }, 'bench');
  const service = await createSandboxService({ config, home, policy: policyWith(mode), workspace, ...(mode === 'none' ? {} : { network }) });
  if (!service.manager) throw new Error(`sandbox service not running: ${service.reason ?? ''}`);
  const manager = service.manager;
  const sandboxMs: number[] = [];
  const floorMs: number[] = [];
  try {
    await manager.create({ harness: 'shell', project, name: 'warm', no_snapshot: true }); // builds the image
    await manager.remove('warm');
    for (let i = 0; i < RUNS; i++) {
      let started = performance.now();
      const floor = spawnSync('bwrap', ['--ro-bind', '/', '/', 'true']);
      floorMs.push(performance.now() - started);
      if (floor.status !== 0) throw new Error(`plain bwrap failed: ${floor.stderr.toString()}`);

      started = performance.now();
      await manager.create({ harness: 'shell', project, name: `b${i}`, no_snapshot: true });
      const result = await manager.exec(`b${i}`, ['true']);
      sandboxMs.push(performance.now() - started);
      if (result.code !== 0) throw new Error(`true failed in the sandbox: ${result.stderr.toString()}`);
      await manager.remove(`b${i}`);
    }
    return { sandboxMs, floorMs, limits: service.limits };
  } finally {
    await service.close();
    rmSync(home, { recursive: true, force: true });
  }
}

export async function run(): Promise<void> {
  const none = await measure('none');
  const policed = await measure('policed');
  const floorMs = [...none.floorMs, ...policed.floorMs];
  const metrics = {
    create_start_true_median_ms: round(median(none.sandboxMs), 1), create_start_true_p90_ms: round(percentile(none.sandboxMs, 0.9), 1),
    policed_create_start_true_median_ms: round(median(policed.sandboxMs), 1), policed_create_start_true_p90_ms: round(percentile(policed.sandboxMs, 0.9), 1),
    runs: RUNS,
  };
  const baseline = { plain_bwrap_true_median_ms: round(median(floorMs), 1), plain_bwrap_true_p90_ms: round(percentile(floorMs, 0.9), 1) };
  writeResult({
    name: 'sandbox',
    metrics,
    baseline,
    ratio: {
      create_start_true_vs_plain_bwrap: round(metrics.create_start_true_median_ms / baseline.plain_bwrap_true_median_ms, 2),
      policed_vs_plain_bwrap: round(metrics.policed_create_start_true_median_ms / baseline.plain_bwrap_true_median_ms, 2),
    },
    notes: [`limits via ${none.limits ?? 'none'}`, 'target: create+start+true <= 150 ms median (image already built)'],
  });
}
