// The sandbox subsystem as the gateway runs it: from config and the two ports (policy resolver, workspace
// keeper) to a probed bwrap driver, the image store, sandboxes.db, the hook ingress and a reconciled manager. It reports its
// state for /health and `GET /api/v1/sandbox/status`; while it is not running every other sandbox route
// answers 503 (`disabled` when openshell.enabled is false, `unavailable` otherwise). It outlives listener
// restarts (the sandboxes are the gateway process's children) and stops every sandbox when the gateway stops.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config/schema.js';
import { ActivityLog, type ActivityLogOptions } from './activity/log.js';
import type { ActivityInput } from './activity/types.js';
import { persistAlways } from './approvals/always.js';
import type { Advisor } from './approvals/advisor.js';
import { Approvals } from './approvals/approvals.js';
import { ApprovalStore } from './approvals/store.js';
import { unblock, type Refusal, type UnblockRequest } from './approvals/unblock.js';
import { Unblocks } from './approvals/unblocks.js';
import type { HookPipelineDeps } from '../connectors/hook-pipeline.js';
import { ImageStore } from './images/store.js';
import { HookIngress, type EmitActivity, type HooksSettings } from './ingress/ingress.js';
import { SandboxManager } from './manager/manager.js';
import { SandboxStore } from './manager/store.js';
import { EgressProxy } from './egress/proxy.js';
import { egressDir, SOCKET_FILE } from './egress/setup.js';
import type { EgressPort, GuardrailRoute } from './egress/types.js';
import type { NewEgressRecord } from '../audit/egress.js';
import type { FirewallInput, FirewallOutput } from '../policy/service.js';
import type { SandboxPolicyPort, WorkspacePort } from './ports.js';
import { BwrapDriver } from './runtime/bwrap.js';

export type SandboxServiceState = 'running' | 'degraded' | 'disabled' | 'error';

/**
 * The gateway's side of sandbox egress: the firewall decision (the policy service), where network egress rows
 * are recorded (the audit store of the listeners in force), and the ports of Warden's own listeners a sandbox
 * reaches without asking (the guardrail proxy), and the guardrail proxy that model traffic is sent to.
 */
export interface SandboxNetwork {
  firewall: (input: FirewallInput) => FirewallOutput;
  audit: (record: NewEgressRecord) => Promise<void>;
  gatewayPorts: () => number[];
  guardrail?: () => GuardrailRoute | undefined;
}

export interface SandboxServiceOptions {
  config: Config;
  /** `$WARDEN_HOME`. */
  home: string;
  policy: SandboxPolicyPort;
  workspace: WorkspacePort;
  platform?: NodeJS.Platform;
  /** The bubblewrap program (tests point it at a missing one to see the error state). */
  bwrap?: string;
  /**
   * The egress proxy. By default the service builds its own from `network`; tests may give their own. Without
   * either a sandbox has loopback only.
   */
  egress?: EgressPort;
  /** What the service's own egress proxy needs from the gateway (see SandboxNetwork). */
  network?: SandboxNetwork;
  /** config.yaml, where `always` decisions are written (default `$WARDEN_HOME/config.yaml`). */
  configPath?: string;
  /** Which refusals an unblock may lift; by default the egress proxy's own facts (tests may drive them). */
  refusals?: { lastRefusal(sandbox: string, host: string): Refusal | undefined };
  /** When each sandbox's hooks last called (ms), for approval batching; by default the hook ingress's own. */
  lastHookAt?: (sandbox: string) => number | undefined;
  /** Tuning of the activity log and of approval batching (tests shorten the keepalive and the quiet period). */
  activity?: ActivityLogOptions;
  approvals?: { quietMs?: number; maxHoldMs?: number; advisor?: Advisor };
  /** Also told every activity event (tests watch them here). */
  emit?: EmitActivity;
}

export interface SandboxService {
  readonly state: SandboxServiceState;
  /** Why it is not running (disabled, error) or what is failing (degraded). */
  readonly reason: string | null;
  readonly manager: SandboxManager | null;
  readonly driverName: string;
  readonly limits: string | null;
  readonly startedAt: string;
  /** The activity stream's log (`emit` of the egress proxy and hook ingress is its `append`). */
  readonly activity: ActivityLog | null;
  readonly approvals: Approvals | null;
  /** Hosts unblocked per sandbox and for every sandbox (`has` is the egress proxy's `isUnblocked`). */
  readonly unblocks: Unblocks | null;
  /** `POST /egress/unblock`; the config as written when `always` changed config.yaml. */
  unblock(request: UnblockRequest): ReturnType<typeof unblock>;
  /** The configuration was reloaded (SIGHUP): the every-sandbox host lists follow it. */
  applyConfig(config: Config): void;
  /** The hook ingress (null while the manager does not run). */
  readonly ingress: HookIngress | null;
  /** Where sandboxes reach the egress proxy (one Unix socket per sandbox); null without a proxy. */
  readonly egressAddress: string | null;
  /** The listeners' hook pipeline and the `openshell.hooks` settings, handed over at each (re)start of the listeners. */
  attachHookPipeline(deps: HookPipelineDeps, hooks: HooksSettings): void;
  /** The listeners are closing: hook calls on the ingress answer 503 until the next attach. */
  detachHookPipeline(): void;
  close(): Promise<void>;
}

export function sandboxesDir(home: string): string {
  return join(home, 'sandboxes');
}

export async function createSandboxService(options: SandboxServiceOptions): Promise<SandboxService> {
  const { config, home } = options;
  const platform = options.platform ?? process.platform;
  const startedAt = new Date().toISOString();
  const idle = (state: SandboxServiceState, reason: string): SandboxService => ({
    state, reason, manager: null, driverName: 'bwrap', limits: null, startedAt, activity: null, approvals: null, unblocks: null,
    unblock: () => {
      throw new Error('the sandbox service is not running');
    },
    applyConfig: () => {},
    ingress: null, egressAddress: null, attachHookPipeline: () => {}, detachHookPipeline: () => {},
    close: async () => {},
  });
  if (!config.openshell.enabled) return idle('disabled', 'openshell.enabled is false');
  // Only the bwrap driver exists: Linux namespaces. (macOS would need its own driver.)
  if (platform !== 'linux') return idle('disabled', `sandboxes are not supported on ${platform} by the bwrap driver`);
  const root = sandboxesDir(home);
  mkdirSync(root, { recursive: true, mode: 0o700 });
  const driver = new BwrapDriver(root, options.bwrap === undefined ? {} : { bwrap: options.bwrap });
  try {
    await driver.probe();
  } catch (err) {
    return idle('error', `openshell: ${(err as Error).message}`);
  }
  const store = new SandboxStore(join(home, 'sandboxes.db'));
  const approvalStore = new ApprovalStore(join(home, 'sandboxes.db'));
  const activity = new ActivityLog(options.activity);
  const unblocks = new Unblocks(approvalStore, config.openshell.egress);
  const configPath = options.configPath ?? join(home, 'config.yaml');
  const writeAlways = (host: string, list: 'unblocked' | 'block') => persistAlways(configPath, host, list);
  const emit = (event: ActivityInput): void => {
    activity.append(event);
    options.emit?.(event);
    // A sandbox that is no longer running cannot apply an approval: its open ones fail.
    if (event.kind === 'sandbox.lifecycle' && event.phase !== 'ready') approvals.sandboxEnded(event.sandbox, event.phase === 'deleted');
  };
  const approvals = new Approvals({
    store: approvalStore, unblocks, emit, persistAlways: writeAlways,
    lastHookAt: (sandbox) => (options.lastHookAt ?? ((name: string) => ingress.lastHookAt(name)))(sandbox),
    isRunning: (sandbox) => driver.inspect(sandbox).running,
    ...options.approvals,
  });
  let egressSettings = config.openshell.egress;
  const network = options.network;
  const ownProxy = !options.egress && network
    ? new EgressProxy({
      firewall: network.firewall, audit: network.audit, gatewayPorts: network.gatewayPorts,
      ...(network.guardrail ? { guardrail: network.guardrail } : {}),
      settings: () => egressSettings, emit, ask: (request) => approvals.ask(request),
      isUnblocked: (sandbox, host) => unblocks.has(sandbox, host),
      dirOf: (name) => egressDir(root, name),
    })
    : undefined;
  const egress = options.egress ?? ownProxy;
  const refusals = options.refusals ?? ownProxy;
  const runtime = config.openshell.runtime;
  let pipeline: HookPipelineDeps | undefined;
  let hooks: HooksSettings = config.openshell.hooks;
  const ingress = await HookIngress.create({
    pipeline: () => pipeline,
    emit,
    settings: () => hooks,
    homeOf: (name) => join(root, name, 'runtime', 'home'),
    inspect: (name) => driver.inspect(name),
    tamperStop: (name) => manager.tamperStop(name),
  });
  const manager = new SandboxManager({
    store, driver, images: new ImageStore(join(home, 'images')), policy: options.policy, workspace: options.workspace, sandboxesDir: root,
    defaults: { ...(runtime.cpu > 0 ? { cpu: runtime.cpu } : {}), ...(runtime.memory !== '' ? { memory: runtime.memory } : {}) },
    emit, pendingApprovals: (sandbox) => approvals.pendingCount(sandbox),
    ...(egress ? { egress } : {}),
    ingress,
  });
  approvals.recover();
  let state: SandboxServiceState = 'running';
  let reason: string | null = null;
  try {
    manager.reconcile();
  } catch (err) {
    state = 'degraded';
    reason = `manager: reconcile failed: ${(err as Error).message}`;
  }
  return {
    get state() { return state; },
    get reason() { return reason; },
    manager, driverName: driver.name, limits: driver.limits, startedAt, activity, approvals, unblocks, ingress,
    egressAddress: egress ? join(egressDir(root, '<sandbox>'), SOCKET_FILE) : null,
    unblock: (request) => unblock({
      unblocks, emit, persistAlways: writeAlways,
      lastRefusal: (sandbox, host) => refusals?.lastRefusal(sandbox, host),
      liftRefusal: (sandbox, host) => void ownProxy?.unblockUploads(sandbox, host),
      sandboxes: () => store.all().map((record) => record.name),
    }, request),
    applyConfig: (next) => {
      egressSettings = next.openshell.egress;
      unblocks.applyConfig(next.openshell.egress);
    },
    attachHookPipeline(deps, settings) {
      pipeline = deps;
      hooks = settings;
    },
    detachHookPipeline() {
      pipeline = undefined;
    },
    async close() {
      approvals.close();
      await driver.stopAll();
      await ownProxy?.close();
      await ingress.shutdown();
      store.close();
      approvalStore.close();
      state = 'error';
      reason = 'sandbox manager stopped';
    },
  };
}
