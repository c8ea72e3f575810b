// The sandbox manager: names, state in sandboxes.db, the phase table of the spec ("States and transitions"),
// mount-mode overlap checks, the environment rules, and the calls to the policy resolver and workspace keeper
// (the two ports it is given). Operations on one sandbox are serialised; different sandboxes run in parallel.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, realpathSync, rmSync, rmdirSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { SandboxApiError } from '../errors.js';
import type { ImageStore, Image } from '../images/store.js';
import { buildExplain, type Explain } from '../policy/explain.js';
import type { HookIngress } from '../ingress/ingress.js';
import type { ResolvedPolicy, ReviewReport, RunOptions, SandboxPolicyPort, SnapshotInfo, WorkspacePort } from '../ports.js';
import type { ComputeDriver, Mount, SandboxSpec } from '../runtime/driver.js';
import type { CredentialBinding, EgressPort } from '../egress/types.js';
import { logText } from '../runtime/run-log.js';
import { parseMemory } from '../runtime/resource-limits.js';
import { SANDBOX_LIMITS } from '../limits.js';
import { BINDING_ENV, checkVariables, newBindingCredential } from './environment.js';
import { checkName, pickName } from './names.js';
import type { AcceptRequest, CreateRequest, ExplainQuery, StartRequest, UndoRequest, WorkspaceReport } from './requests.js';
import type { SandboxRecord, SandboxStore } from './store.js';
import { orphanView, sandboxView, type SandboxView } from './view.js';

export interface ManagerDeps {
  store: SandboxStore;
  driver: ComputeDriver;
  images: ImageStore;
  policy: SandboxPolicyPort;
  workspace: WorkspacePort;
  /** `$WARDEN_HOME/sandboxes`. */
  sandboxesDir: string;
  /** Limits applied when neither the request nor the policy sets one. */
  defaults?: { cpu?: number; memory?: string };
  /** The egress proxy: sandboxes whose network mode is not `none` reach the outside only through it. */
  egress?: EgressPort;
  /** The activity log's `append`: lifecycle, workspace and finding events. */
  emit?: (event: { kind: string; sandbox: string; [field: string]: unknown }) => void;
  /** Approvals waiting for a decision (the Sandbox's and the status's `pending_approvals`). */
  pendingApprovals?: (sandbox?: string) => number;
  /** The hook ingress: each session's socket, hook settings and tamper watch (src/sandbox/ingress/). */
  ingress?: Pick<HookIngress, 'open' | 'close' | 'forget' | 'view'>;
}

/** Where a copy-mode workspace appears inside the sandbox. */
const COPY_MOUNT = '/workspace';

function overlaps(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}

function notFound(name: string): SandboxApiError {
  return new SandboxApiError('not_found', `no sandbox named ${name}`);
}

/** The policy-relevant part of a create request: never its secrets or its environment. */
function runOptionsOf(request: CreateRequest): RunOptions {
  const keys = ['pack', 'profile', 'copy', 'safe', 'yolo', 'context', 'unmask', 'host_ports', 'no_mcp', 'learn', 'cpu', 'memory'] as const;
  const options: RunOptions = { harness: request.harness, project: request.project };
  for (const key of keys) if (request[key] !== undefined) Object.assign(options, { [key]: request[key] });
  return options;
}

export class SandboxManager {
  readonly #deps: ManagerDeps;
  /** Secret variables of each sandbox (llm.credentials, credentials): in memory only, lost with the process. */
  readonly #secrets = new Map<string, Record<string, string>>();
  /** `credentials` bindings of each sandbox, for the egress proxy to inject: never in the sandbox's environment. */
  readonly #bindings = new Map<string, CredentialBinding[]>();
  readonly #locks = new Map<string, Promise<unknown>>();
  #orphans: string[] = [];

  constructor(deps: ManagerDeps) {
    this.#deps = deps;
  }

  get driver(): ComputeDriver {
    return this.#deps.driver;
  }

  /** Runs `fn` after every earlier operation on `name` has finished. */
  #locked<T>(name: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.#locks.get(name) ?? Promise.resolve();
    const next = previous.then(fn, fn);
    const settled = next.catch(() => undefined);
    this.#locks.set(name, settled);
    void settled.then(() => {
      if (this.#locks.get(name) === settled) this.#locks.delete(name);
    });
    return next;
  }

  /** Brings the database in line with the runtime (spec: stopped, missing, orphaned, last_reconcile). */
  reconcile(): string {
    const { store, driver } = this.#deps;
    driver.recoverEndedRuns();
    const known = new Set<string>();
    for (const record of store.all()) {
      known.add(record.name);
      this.#refresh(record);
    }
    this.#orphans = driver.list().filter((name) => !known.has(name));
    const at = new Date().toISOString();
    store.setMeta('last_reconcile', at);
    return at;
  }

  get lastReconcile(): string | null {
    return this.#deps.store.meta('last_reconcile') ?? null;
  }

  /** The record with its phase brought up to date: a run that ended is stopped, a vanished folder missing. */
  #refresh(record: SandboxRecord, reason?: string): SandboxRecord {
    const running = this.#deps.driver.inspect(record.name).running;
    let phase = running ? 'ready' : 'stopped';
    if (!running && record.workdir_mode === 'mount' && !existsSync(record.project)) phase = 'missing';
    if (phase !== record.phase) {
      record.phase = phase;
      this.#deps.store.put(record);
      this.#emit({ kind: 'sandbox.lifecycle', sandbox: record.name, phase, ...(reason ? { reason } : {}) });
    }
    return record;
  }

  #emit(event: { kind: string; sandbox: string; [field: string]: unknown }): void {
    this.#deps.emit?.(event);
  }

  #record(name: string): SandboxRecord {
    const record = this.#deps.store.get(name);
    if (!record) throw notFound(name);
    return this.#refresh(record);
  }

  #view(record: SandboxRecord): SandboxView {
    const image = this.#deps.images.get(record.harness);
    return sandboxView(record, this.#deps.driver, {
      ...(this.#deps.ingress ? { ingress: this.#deps.ingress.view(record.name, image) } : {}),
      ...(image?.package ? { command: [image.package.bin] } : {}),
      ...(this.#deps.pendingApprovals ? { pendingApprovals: this.#deps.pendingApprovals(record.name) } : {}),
      ...(this.#deps.egress?.view ? { egress: this.#deps.egress.view(record.name) } : {}),
    });
  }

  list(): (SandboxView | ReturnType<typeof orphanView>)[] {
    return [
      ...this.#deps.store.all().map((record) => this.#view(this.#refresh(record))),
      ...this.#orphans.map((name) => orphanView(name, this.#deps.driver)),
    ];
  }

  get(name: string): SandboxView {
    return this.#view(this.#record(name));
  }

  counts(): { sandboxes: number; running: number; pending_approvals: number; orphaned: number } {
    const records = this.#deps.store.all().map((record) => this.#refresh(record));
    return { sandboxes: records.length, running: records.filter((r) => r.phase === 'ready').length, pending_approvals: this.#deps.pendingApprovals?.() ?? 0, orphaned: this.#orphans.length };
  }

  async create(request: CreateRequest): Promise<SandboxView> {
    if (!isAbsolute(request.project)) throw new SandboxApiError('invalid_request', 'project must be an absolute path');
    const name = request.name ? checkName(request.name) : pickName(request.project);
    return this.#locked(name, () => this.#create(name, request));
  }

  async #create(name: string, request: CreateRequest): Promise<SandboxView> {
    const { store, policy, workspace, sandboxesDir } = this.#deps;
    if (store.get(name) || this.#orphans.includes(name)) throw new SandboxApiError('conflict', `a sandbox named ${name} already exists`);
    const options = runOptionsOf(request);
    const resolved = policy.resolve(options);
    const copy = resolved.effective.copy;
    let project = request.project;
    const warnings: string[] = [];
    let nested: string[] = [];
    if (!copy) {
      project = this.#projectFolder(request.project);
      this.#checkMountOverlap(name, project);
      const check = await workspace.checkProject(project);
      if (check.needs_copy) {
        throw new SandboxApiError('needs_copy', `${project} cannot be mounted live: create the sandbox with copy`, { detail: check.needs_copy });
      }
      nested = check.nested_repos;
      if (nested.length > 0) warnings.push(`nested git repositories are snapshotted as plain files: ${nested.join(', ')}`);
    }
    const image = await this.#image(request.harness, request.no_build === true);
    // Every name the harness process will see as a variable is checked, secrets included.
    const credentials = request.credentials ?? [];
    const llmCredentials = request.llm?.credentials ?? {};
    const variableCount = Object.keys(request.env ?? {}).length + Object.keys(llmCredentials).length + credentials.length;
    if (variableCount > SANDBOX_LIMITS.envEntries) throw new SandboxApiError('invalid_request', `too many variables (at most ${SANDBOX_LIMITS.envEntries})`);
    checkVariables([...Object.keys(request.env ?? {}), ...Object.keys(llmCredentials), ...credentials.map((c) => c.name)], image.env);
    const secrets: Record<string, string> = { ...llmCredentials };
    // With the egress proxy the secret is added on the way out and never enters the sandbox.
    if (!this.#deps.egress) for (const credential of credentials) secrets[credential.name] = credential.value;
    warnings.push(...this.#policyWarnings(resolved));
    const now = new Date().toISOString();
    const workdir = copy ? join(sandboxesDir, name, 'workspace') : project;
    const record: SandboxRecord = {
      name, id: randomUUID(), harness: request.harness, phase: 'stopped', project, workdir_mode: copy ? 'copy' : 'mount', workdir,
      image: image.path, image_id: image.image_id, policy: resolved, session: 0, snapshot: null,
      no_snapshot: request.no_snapshot === true, nested_repos: nested, warnings,
      credentials: credentials.map((c) => ({ name: c.name, host: c.host, port: c.port ?? 443 })),
      llm_credentials: Object.keys(llmCredentials),
      llm: { ...(request.llm?.profile ? { profile: request.llm.profile } : {}), ...(request.llm?.bedrock_region ? { bedrock_region: request.llm.bedrock_region } : {}) },
      env: request.env ?? {}, binding_hash: '', workspace: null, created_at: now, updated_at: now,
    };
    if (!store.insert(record)) throw new SandboxApiError('conflict', `a sandbox named ${name} already exists`);
    for (const repo of nested) this.#emit({ kind: 'finding', sandbox: name, reason: 'nested_repo', severity: 'LOW', message: `nested git repository ${repo}: snapshotted as plain files` });
    this.#secrets.set(name, secrets);
    this.#bindings.set(name, credentials.map((c) => ({ name: c.name, value: c.value, host: c.host, port: c.port ?? 443 })));
    try {
      if (copy) mkdirSync(workdir, { recursive: true, mode: 0o700 });
      await this.#deps.driver.create(this.#spec(record, image));
      await this.#startSession(record, { first: true });
    } catch (err) {
      // A sandbox that cannot run as prepared is deleted (spec: policy_rejected).
      await this.#forget(record, false);
      throw err;
    }
    return this.#view(record);
  }

  #projectFolder(project: string): string {
    let real: string;
    try {
      real = realpathSync(project);
      if (!statSync(real).isDirectory()) throw new Error('not a folder');
    } catch {
      throw new SandboxApiError('invalid_request', `project ${project} is not a folder on this host`);
    }
    return real;
  }

  /**
   * 409 when another running sandbox mounts this folder, one inside it or one around it. Stopped sandboxes may
   * share a folder: only one of them can run at a time, and an undo checks the running ones again.
   */
  #checkMountOverlap(name: string, project: string): void {
    for (const other of this.#deps.store.all()) {
      if (other.name === name || other.workdir_mode !== 'mount' || !overlaps(other.project, project)) continue;
      if (!this.#deps.driver.inspect(other.name).running) continue;
      throw new SandboxApiError('conflict', `sandbox ${other.name} already mounts ${other.project}, which overlaps ${project}`, {
        detail: 'one live sandbox per folder: stop or delete the other sandbox, or use copy mode',
      });
    }
  }

  async #image(harness: string, noBuild: boolean): Promise<Image> {
    const { images } = this.#deps;
    const existing = images.get(harness);
    if (existing) return existing;
    if (noBuild) throw new SandboxApiError('image_unavailable', `no ${harness} harness image is built and no_build refuses to build one`, { detail: `run: warden sandbox image build ${harness}` });
    return images.build(harness);
  }

  #policyWarnings(resolved: ResolvedPolicy): string[] {
    const warnings = resolved.violations.map((v) => `${v.key}: ${JSON.stringify(v.requested)} clamped to ${JSON.stringify(v.value)} (${v.reason})`);
    if (resolved.network_mode !== 'none' && !this.#deps.egress) {
      warnings.push(`network mode ${resolved.network_mode} needs the egress proxy, which this build does not run: the sandbox has loopback only`);
    }
    if (resolved.effective.cpu !== undefined && this.#deps.driver.limits === 'prlimit') {
      warnings.push(`cpu limit of ${resolved.effective.cpu} cores not enforced: no delegated cgroup v2 here (memory is limited with prlimit)`);
    }
    return warnings;
  }

  #spec(record: SandboxRecord, image: Image): SandboxSpec {
    const { effective } = record.policy;
    const mounts: Mount[] = [
      record.workdir_mode === 'mount'
        ? { host: record.project, target: record.project, writable: true }
        : { host: record.workdir, target: COPY_MOUNT, writable: true },
    ];
    for (const folder of effective.context) {
      if (isAbsolute(folder) && existsSync(folder)) mounts.push({ host: realpathSync(folder), target: folder, writable: false });
    }
    const memory = effective.memory ?? this.#deps.defaults?.memory;
    const cpu = effective.cpu ?? this.#deps.defaults?.cpu;
    return {
      name: record.name,
      imageDir: image.path,
      entry: image.entry,
      workdir: record.workdir_mode === 'mount' ? record.project : COPY_MOUNT,
      mounts,
      env: { ...record.env, ...(this.#secrets.get(record.name) ?? {}), ...image.env, WARDEN_SANDBOX: record.name },
      ...(cpu !== undefined && cpu > 0 ? { cpu } : {}),
      ...(memory ? { memoryBytes: parseMemory(memory) } : {}),
    };
  }

  /** Starts a session: the snapshot rules of the phase table, a fresh binding credential, session + 1. */
  async #startSession(record: SandboxRecord, options: StartRequest & { first?: boolean }): Promise<void> {
    const { workspace, driver, store } = this.#deps;
    let snapshot: SnapshotInfo | null = record.snapshot ? { ...record.snapshot } : null;
    if (record.workdir_mode === 'mount' && (await this.#wantsFreshSnapshot(record, options))) {
      snapshot = await workspace.take(record.name, record.project);
    }
    const image = await this.#image(record.harness, false);
    const binding = newBindingCredential();
    const spec = this.#spec(record, image);
    spec.env[BINDING_ENV] = binding.token;
    const ingress = await this.#deps.ingress?.open({
      name: record.name, harness: record.harness, session: record.session + 1, image, bindingToken: binding.token, bindingHash: binding.hash,
    });
    if (ingress) {
      spec.mounts.push(...ingress.mounts);
      Object.assign(spec.env, ingress.env);
    }
    this.#withEgress(spec, record);
    try {
      await driver.start(spec);
    } catch (err) {
      await this.#deps.ingress?.close(record.name);
      throw err;
    }
    // Only a start that ran changes the record: a failed one leaves the phase and the acceptance as they were.
    if (snapshot) delete snapshot.accepted_at;
    record.snapshot = snapshot;
    record.image_id = image.image_id;
    record.binding_hash = binding.hash;
    record.session += 1;
    record.phase = 'ready';
    store.put(record);
    this.#emit({ kind: 'sandbox.lifecycle', sandbox: record.name, phase: 'ready', message: `session ${record.session} started` });
  }

  /** Adds the egress proxy's mounts, variables and forwarder to the spec of a session (network mode not `none`). */
  #withEgress(spec: SandboxSpec, record: SandboxRecord): void {
    const { policy } = record;
    if (!this.#deps.egress || policy.network_mode === 'none') return;
    const setup = this.#deps.egress.attach({
      name: record.name, session: record.session + 1, pack: policy.pack, profile: policy.profile, network_mode: policy.network_mode,
      approvals: policy.approvals, host_ports: policy.effective.host_ports, credentials: this.#bindings.get(record.name) ?? [],
    });
    spec.mounts.push(...setup.mounts);
    Object.assign(spec.env, setup.env);
    spec.init = [...(spec.init ?? []), ...setup.init];
  }

  /** The start rows of the phase table: when a session begins on a fresh undo point. */
  async #wantsFreshSnapshot(record: SandboxRecord, options: StartRequest & { first?: boolean }): Promise<boolean> {
    if (options.new_snapshot) return true; // changes accepted, fresh snapshot
    if (options.no_snapshot) return false; // old snapshot kept
    if (record.no_snapshot) return false; // created without undo
    if (options.first) return true;
    return !(await this.#unreviewed(record)); // earlier unreviewed changes keep their undo point
  }

  /** Whether the folder still holds changes of an earlier session that nobody undid or accepted. */
  async #unreviewed(record: SandboxRecord): Promise<boolean> {
    const { snapshot } = record;
    if (!snapshot || snapshot.accepted_at || snapshot.undone_at) return false;
    return this.#deps.workspace.hasChanges(record.name, record.project);
  }

  start(name: string, request: StartRequest = {}): Promise<SandboxView> {
    return this.#locked(name, async () => {
      const record = this.#record(name);
      if (record.phase === 'ready') throw new SandboxApiError('conflict', `sandbox ${name} is already running`);
      if (record.phase === 'missing') throw new SandboxApiError('conflict', `sandbox ${name} is missing: its folder ${record.project} is gone`);
      if (record.workdir_mode === 'mount') this.#checkMountOverlap(name, record.project);
      await this.#startSession(record, request);
      return this.#view(record);
    });
  }

  stop(name: string): Promise<SandboxView> {
    return this.#locked(name, async () => this.#view(await this.#stop(this.#record(name))));
  }

  async #stop(record: SandboxRecord, options: { keepLog?: boolean } = {}): Promise<SandboxRecord> {
    const { interrupted } = await this.#deps.driver.stop(record.name, options);
    await this.#deps.ingress?.close(record.name);
    return this.#refresh(record, interrupted ? 'run_interrupted' : undefined);
  }

  /** The hook ingress saw a tamper and `openshell.hooks.on_tamper` is stop: stopped, and no log of the run is kept. */
  tamperStop(name: string): Promise<void> {
    return this.#locked(name, async () => {
      const record = this.#deps.store.get(name);
      if (record) await this.#stop(record, { keepLog: false });
    });
  }

  remove(name: string, options: { keep_snapshot?: boolean } = {}): Promise<{ name: string; deleted: boolean; removed_providers: string[]; warnings: string[] }> {
    return this.#locked(name, async () => {
      const record = this.#deps.store.get(name);
      if (!record) {
        if (!this.#orphans.includes(name)) throw notFound(name);
        await this.#deps.driver.remove(name);
        this.#orphans = this.#orphans.filter((orphan) => orphan !== name);
        return { name, deleted: true, removed_providers: [], warnings: [] };
      }
      const providers = [...record.llm_credentials, ...record.credentials.map((c) => c.name)];
      const warnings = await this.#forget(record, options.keep_snapshot === true);
      return { name, deleted: true, removed_providers: providers, warnings };
    });
  }

  /** Stops the sandbox and removes everything Warden kept of it (the snapshots too unless kept). */
  async #forget(record: SandboxRecord, keepSnapshot: boolean): Promise<string[]> {
    const { driver, workspace, store, sandboxesDir } = this.#deps;
    const warnings: string[] = [];
    await driver.remove(record.name);
    this.#deps.egress?.detach(record.name);
    await this.#deps.ingress?.forget(record.name);
    rmSync(join(sandboxesDir, record.name, 'workspace'), { recursive: true, force: true });
    if (keepSnapshot) {
      if (record.snapshot) warnings.push(`snapshots kept under ${join(sandboxesDir, record.name)}`);
    } else {
      await workspace.remove(record.name);
      try {
        rmdirSync(join(sandboxesDir, record.name));
      } catch {
        // Not empty (the workspace keeper's files) or already gone.
      }
    }
    this.#secrets.delete(record.name);
    this.#bindings.delete(record.name);
    store.delete(record.name);
    this.#emit({ kind: 'sandbox.lifecycle', sandbox: record.name, phase: 'deleted' });
    return warnings;
  }

  undo(name: string, request: UndoRequest = {}): Promise<Record<string, unknown>> {
    return this.#locked(name, async () => {
      const record = this.#record(name);
      const preview = request.preview === true;
      if (record.workdir_mode !== 'mount') throw new SandboxApiError('invalid_request', `sandbox ${name} works on a copy: there is no undo point in its project`);
      if (!record.snapshot) throw new SandboxApiError('not_found', `sandbox ${name} has no undo point`);
      const running = record.phase === 'ready';
      if (!preview) {
        if (running && !request.stop) throw new SandboxApiError('conflict', `sandbox ${name} is running: undo with stop, or stop it first`);
        for (const other of this.#deps.store.all()) {
          if (other.name !== name && other.workdir_mode === 'mount' && overlaps(other.project, record.project) && this.#deps.driver.inspect(other.name).running) {
            throw new SandboxApiError('conflict', `undo would revert ${record.project}, which running sandbox ${other.name} mounts`);
          }
        }
      }
      const review = await this.#deps.workspace.review(name, record.project, { diff: false });
      const stopped = !preview && running;
      if (stopped) await this.#stop(record);
      const outcome = await this.#deps.workspace.undo(name, record.project, { preview, keepRefs: request.keep_refs === true });
      if (!preview) {
        record.snapshot = { ...record.snapshot, undone_at: new Date().toISOString() };
        this.#deps.store.put(record);
        this.#emit({ kind: 'workspace', sandbox: name, event: 'undo', message: outcome.summary });
      }
      let restarted = false;
      if (stopped && request.restart) {
        await this.#startSession(record, {});
        restarted = true;
      }
      return { workspace: outcome, stopped, restarted, summary: outcome.summary, review };
    });
  }

  review(name: string, options: { diff?: boolean } = {}): Promise<ReviewReport> {
    return this.#locked(name, async () => {
      const record = this.#record(name);
      if (record.workdir_mode !== 'mount') throw new SandboxApiError('invalid_request', `sandbox ${name} works on a copy: review the copy where it was pulled`);
      if (!record.snapshot) throw new SandboxApiError('not_found', `sandbox ${name} has no undo point to review against`);
      return this.#deps.workspace.review(name, record.project, { diff: options.diff === true });
    });
  }

  accept(name: string, request: AcceptRequest = {}): Promise<SandboxView> {
    return this.#locked(name, async () => {
      const record = this.#record(name);
      if (record.workdir_mode !== 'mount') throw new SandboxApiError('invalid_request', `sandbox ${name} works on a copy: there is nothing to accept in its project`);
      const { snapshot } = record;
      if (!snapshot) throw new SandboxApiError('not_found', `sandbox ${name} has no undo point`);
      if (record.phase === 'ready') throw new SandboxApiError('conflict', `sandbox ${name} is running: stop it before accepting its changes`);
      if (snapshot.undone_at) throw new SandboxApiError('conflict', `the undo point of ${name} was undone at ${snapshot.undone_at}`);
      if (request.snapshot_created_at !== undefined && Date.parse(request.snapshot_created_at) !== Date.parse(snapshot.created_at)) {
        throw new SandboxApiError('conflict', `the undo point of ${name} is the one taken at ${snapshot.created_at}, not ${request.snapshot_created_at}`);
      }
      if (request.session !== undefined && request.session !== record.session) {
        throw new SandboxApiError('conflict', `sandbox ${name} was started again since session ${request.session} (now ${record.session})`);
      }
      record.snapshot = { ...snapshot, accepted_at: new Date().toISOString() };
      this.#deps.store.put(record);
      return this.#view(record);
    });
  }

  logs(name: string, lines = 0): { name: string; state: string; exit: number | null; started_at: string; kept_at: string; log: string } {
    const known = this.#deps.store.get(name) !== undefined || this.#orphans.includes(name);
    if (!known) throw notFound(name);
    const kept = this.#deps.driver.keptLog(name);
    if (!kept) throw new SandboxApiError('not_found', `no run log was kept for ${name}`);
    return { name, ...kept.meta, log: logText(kept.log, lines) };
  }

  recordWorkspace(name: string, report: WorkspaceReport): Promise<{ status: 'recorded' }> {
    return this.#locked(name, async () => {
      const record = this.#record(name);
      if (record.workdir_mode !== 'copy') throw new SandboxApiError('invalid_request', `sandbox ${name} mounts its project live: there is no copy to report`);
      record.workspace = { ...report, recorded_at: new Date().toISOString() };
      this.#deps.store.put(record);
      this.#emit({ kind: 'workspace', sandbox: name, event: report.kind ?? 'upload', message: `copy ${report.kind ?? 'upload'} recorded` +
        (report.files !== undefined ? ` (${report.files} files${report.bytes !== undefined ? `, ${report.bytes} bytes` : ''})` : '') });
      return { status: 'recorded' as const };
    });
  }

  /** Runs a command in a running sandbox (tests, and the CLI's attach through `launch`). */
  exec(name: string, argv: string[], options?: { input?: string; timeoutMs?: number }) {
    return this.#deps.driver.exec(this.#record(name).name, argv, options);
  }

  execDetached(name: string, argv: string[]): void {
    this.#deps.driver.execDetached(this.#record(name).name, argv);
  }

  /** The spec's Explain answer for a sandbox's options, the newest sandbox of a harness, or the query's options. */
  explain(query: ExplainQuery): Explain {
    let options: RunOptions;
    if (query.sandbox !== undefined) {
      options = this.#optionsOf(this.#record(query.sandbox));
    } else {
      if (!query.harness) throw new SandboxApiError('invalid_request', 'explain needs sandbox, or harness with the run options');
      const newest = query.run ? undefined : this.#deps.store.all().filter((r) => r.harness === query.harness).at(-1);
      options = newest ? this.#optionsOf(newest) : { ...query, harness: query.harness, project: query.project ?? '/' };
    }
    const resolved = this.#deps.policy.resolve(options);
    if (!query.run) return buildExplain(resolved);
    const env: Record<string, string> = {};
    for (const pair of query.run_env ?? []) {
      const at = pair.indexOf('=');
      if (at <= 0) throw new SandboxApiError('invalid_request', `run_env must be KEY=VALUE, got ${JSON.stringify(pair)}`);
      env[pair.slice(0, at)] = pair.slice(at + 1);
    }
    const withheld = query.run_env_withheld ?? [];
    checkVariables([...Object.keys(env), ...withheld], this.#deps.images.get(options.harness)?.env ?? {});
    return buildExplain(resolved, {
      env, env_withheld: withheld, credentials: query.run_credential ?? [],
      ...(query.run_llm_profile === undefined ? {} : { llm_profile: query.run_llm_profile }),
      ...(query.run_bedrock_region === undefined ? {} : { bedrock_region: query.run_bedrock_region }),
    });
  }

  #optionsOf(record: SandboxRecord): RunOptions {
    const { effective } = record.policy;
    return {
      harness: record.harness, project: record.project, pack: record.policy.pack, profile: record.policy.profile,
      copy: effective.copy, safe: effective.safe, yolo: effective.yolo, context: effective.context, unmask: effective.unmask,
      host_ports: effective.host_ports, no_mcp: effective.no_mcp, learn: effective.learn,
      ...(effective.cpu !== undefined ? { cpu: effective.cpu } : {}), ...(effective.memory !== undefined ? { memory: effective.memory } : {}),
    };
  }
}
