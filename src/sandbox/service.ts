// The sandbox subsystem as the gateway runs it: from config and the two ports (policy resolver, workspace
// keeper) to a probed bwrap driver, the image store, sandboxes.db, the hook ingress and a reconciled manager. It reports its
// state for /health and `GET /api/v1/sandbox/status`; while it is not running every other sandbox route
// answers 503 (`disabled` when openshell.enabled is false, `unavailable` otherwise). It outlives listener
// restarts (the sandboxes are the gateway process's children) and stops every sandbox when the gateway stops.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config/schema.js';
import type { HookPipelineDeps } from '../connectors/hook-pipeline.js';
import { ImageStore } from './images/store.js';
import { HookIngress, type EmitActivity, type HooksSettings } from './ingress/ingress.js';
import { SandboxManager } from './manager/manager.js';
import { SandboxStore } from './manager/store.js';
import type { SandboxPolicyPort, WorkspacePort } from './ports.js';
import { BwrapDriver } from './runtime/bwrap.js';

export type SandboxServiceState = 'running' | 'degraded' | 'disabled' | 'error';

export interface SandboxServiceOptions {
  config: Config;
  /** `$WARDEN_HOME`. */
  home: string;
  policy: SandboxPolicyPort;
  workspace: WorkspacePort;
  platform?: NodeJS.Platform;
  /** The bubblewrap program (tests point it at a missing one to see the error state). */
  bwrap?: string;
  /** Where activity events go (the activity stream's ring buffer); dropped when absent. */
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
  /** The hook ingress (null while the manager does not run). */
  readonly ingress: HookIngress | null;
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
    state, reason, manager: null, driverName: 'bwrap', limits: null, startedAt, ingress: null, attachHookPipeline: () => {}, detachHookPipeline: () => {}, close: async () => {},
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
  const runtime = config.openshell.runtime;
  let pipeline: HookPipelineDeps | undefined;
  let hooks: HooksSettings = config.openshell.hooks;
  const ingress = await HookIngress.create({
    pipeline: () => pipeline,
    emit: options.emit ?? (() => {}),
    settings: () => hooks,
    homeOf: (name) => join(root, name, 'runtime', 'home'),
    inspect: (name) => driver.inspect(name),
    tamperStop: (name) => manager.tamperStop(name),
  });
  const manager = new SandboxManager({
    store, driver, images: new ImageStore(join(home, 'images')), policy: options.policy, workspace: options.workspace, sandboxesDir: root,
    defaults: { ...(runtime.cpu > 0 ? { cpu: runtime.cpu } : {}), ...(runtime.memory !== '' ? { memory: runtime.memory } : {}) },
    ingress,
  });
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
    manager, driverName: driver.name, limits: driver.limits, startedAt, ingress,
    attachHookPipeline(deps, settings) {
      pipeline = deps;
      hooks = settings;
    },
    detachHookPipeline() {
      pipeline = undefined;
    },
    async close() {
      await driver.stopAll();
      await ingress.shutdown();
      store.close();
      state = 'error';
      reason = 'sandbox manager stopped';
    },
  };
}
