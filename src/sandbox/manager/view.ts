// The Sandbox object of the API (spec "Sandbox resources") built from a stored record and what the runtime
// reports now: the hook ingress's counts, the egress proxy's totals and credentialed endpoints, and
// `pending_approvals` from the approvals store. The MCP banner is shown with its empty value so clients can rely on
// the shape. Secrets never appear here.
import type { EgressTotals, EndpointResult } from '../egress/types.js';
import type { ComputeDriver } from '../runtime/driver.js';
import type { SandboxRecord } from './store.js';

export interface SandboxView {
  name: string;
  id: string;
  harness: string;
  phase: string;
  policy: { pack: string; pack_digest: string; profile: string; network_mode: string; approvals: boolean; yolo: boolean };
  workdir_mode: 'mount' | 'copy';
  project: string;
  workdir: string;
  image: string;
  image_id: string;
  tamper_tier: string;
  hooks: {
    traffic: number; blocked: number; last_block_reason: string | null; tamper: number;
    events: Record<string, Record<string, number>>; other_events: number; silent: boolean; unreachable: boolean;
  };
  /** The last result of each credentialed endpoint, by binding name. */
  endpoints: Record<string, EndpointResult>;
  egress: EgressTotals;
  pending_approvals: number;
  workspace: Record<string, unknown> | null;
  mcp: Record<string, unknown> | null;
  snapshot: SandboxRecord['snapshot'];
  session: number;
  violations: SandboxRecord['policy']['violations'];
  warnings: string[];
  orphaned: boolean;
  nested_repos: string[];
  launch: { attach: string[] | null; workdir: string; pid: number | null };
  credentials: SandboxRecord['credentials'];
  host_ports: number[];
  resources: { cpu: number | null; memory: string | null; enforced_by: string };
}

/** What the egress proxy reports of a sandbox (absent: no proxy in this gateway). */
export interface EgressView {
  totals: SandboxView['egress'] | undefined;
  endpoints: EndpointResult[];
}

/** What the hook ingress reports of a sandbox (absent: no ingress in this gateway). */
export interface IngressView {
  hooks: SandboxView['hooks'];
  tamper_tier: string;
}

/**
 * `ingress`: the hook ingress's report; `egress`: the egress proxy's; `command`: what attaching runs by default (a connector image's agent CLI,
 * else an interactive shell).
 */
export function sandboxView(
  record: SandboxRecord, driver: ComputeDriver,
  extra: { ingress?: IngressView; command?: string[]; pendingApprovals?: number; egress?: EgressView } = {},
): SandboxView {
  const { ingress, egress, pendingApprovals = 0 } = extra;
  const run = driver.inspect(record.name);
  const { policy } = record;
  return {
    name: record.name,
    id: record.id,
    harness: record.harness,
    phase: record.phase,
    policy: { pack: policy.pack, pack_digest: policy.pack_digest, profile: policy.profile, network_mode: policy.network_mode, approvals: policy.approvals, yolo: policy.yolo },
    workdir_mode: record.workdir_mode,
    project: record.project,
    workdir: record.workdir,
    image: record.image,
    image_id: record.image_id,
    // `hooks`: the image's hook config is watched for tampering; `unchecked`: the harness has no hooks (shell).
    tamper_tier: ingress?.tamper_tier ?? 'unchecked',
    hooks: ingress?.hooks ?? { traffic: 0, blocked: 0, last_block_reason: null, tamper: 0, events: {}, other_events: 0, silent: false, unreachable: false },
    endpoints: Object.fromEntries((egress?.endpoints ?? []).map((endpoint) => [endpoint.name, endpoint])),
    egress: egress?.totals ?? { allowed: 0, blocked: 0, asked: 0, large_uploads: 0, bytes_up: 0, bytes_down: 0 },
    pending_approvals: pendingApprovals,
    workspace: record.workspace,
    mcp: null,
    snapshot: record.snapshot,
    session: record.session,
    violations: policy.violations,
    warnings: record.warnings,
    orphaned: false,
    nested_repos: record.nested_repos,
    launch: { attach: driver.attachCommand(record.name, extra.command), workdir: record.workdir, pid: run.running ? (run.pid ?? null) : null },
    credentials: record.credentials,
    host_ports: policy.effective.host_ports,
    resources: { cpu: policy.effective.cpu ?? null, memory: policy.effective.memory ?? null, enforced_by: driver.limits },
  };
}

/** A runtime sandbox the database does not know (left by a crash or another Warden): shown so it can be deleted. */
export function orphanView(name: string, driver: ComputeDriver): Pick<SandboxView, 'name' | 'phase' | 'orphaned' | 'warnings'> {
  return {
    name,
    phase: driver.inspect(name).running ? 'ready' : 'stopped',
    orphaned: true,
    warnings: ['the sandbox database does not know this sandbox: delete it to remove its runtime state'],
  };
}
