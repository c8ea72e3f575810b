// The approval state machine (spec "Approval status"): an ask raises a `pending` approval (`approval.requested`);
// the operator's decision makes it `queued`; queued approvals of a sandbox are applied together once its hooks
// are quiet (each runtime policy change closes open connections, so changes wait for a pause in the agent's
// tool calls), which makes them `approved` or `rejected` (`approval.resolved`) and answers the waiting asks.
// `failed` means it can no longer be applied: the sandbox stopped or was deleted first, or the gateway restarted
// (the asking connection died with it). `always` also writes the host to config.yaml for every sandbox.
import { randomUUID } from 'node:crypto';
import type { Config } from '../../config/schema.js';
import type { ActivityInput } from '../activity/types.js';
import { SandboxApiError } from '../errors.js';
import { SANDBOX_LIMITS } from '../limits.js';
import { heuristicAdvisor, type Advisor } from './advisor.js';
import type { AlwaysList } from './always.js';
import { normalizeHost, unblockKey } from './hosts.js';
import { OPEN_STATUSES, type ApprovalStore } from './store.js';
import type { Approval, AskAnswer, AskRequest, Decision } from './types.js';
import type { Unblocks } from './unblocks.js';

export interface ApprovalsDeps {
  store: ApprovalStore;
  unblocks: Unblocks;
  emit(event: ActivityInput): void;
  /** When the sandbox's hooks last called the ingress (ms since the epoch); undefined: no hook traffic. */
  lastHookAt(sandbox: string): number | undefined;
  isRunning(sandbox: string): boolean;
  /** Writes an `always` host to config.yaml; answers the config as written. */
  persistAlways(host: string, list: AlwaysList): { config: Config; changed: boolean };
  advisor?: Advisor;
  quietMs?: number;
  maxHoldMs?: number;
}

export interface DecideRequest {
  decision: Decision;
  always?: boolean;
  reason?: string;
}

export interface DecideAnswer {
  approval: Approval;
  persisted: boolean;
  message: string;
  /** The config as written when `always` changed config.yaml (the route applies it to the running settings). */
  config?: Config;
}

const openKey = (sandbox: string, kind: string, host: string) => `${sandbox}\u0000${kind}\u0000${host}`;

export class Approvals {
  readonly #deps: ApprovalsDeps;
  readonly #advisor: Advisor;
  readonly #quietMs: number;
  readonly #maxHoldMs: number;
  /** The asks waiting on each approval. */
  readonly #waiters = new Map<string, ((answer: AskAnswer) => void)[]>();
  /** Approvals being created (the advisor is asynchronous): a second ask for the same host joins the first. */
  readonly #creating = new Map<string, Promise<Approval | null>>();
  readonly #timers = new Map<string, NodeJS.Timeout>();

  constructor(deps: ApprovalsDeps) {
    this.#deps = deps;
    this.#advisor = deps.advisor ?? heuristicAdvisor;
    this.#quietMs = deps.quietMs ?? SANDBOX_LIMITS.approvalQuietMs;
    this.#maxHoldMs = deps.maxHoldMs ?? SANDBOX_LIMITS.approvalMaxHoldMs;
  }

  /** At gateway start: approvals left open by the previous process can no longer reach their asker. */
  recover(): void {
    for (const approval of this.#deps.store.withStatus(OPEN_STATUSES)) {
      this.#finish(approval, 'failed', 'the gateway restarted before it was applied; the connection that asked is gone');
    }
  }

  /** The egress proxy's seam: resolves when a decision about this destination has been applied. */
  async ask(request: AskRequest): Promise<AskAnswer> {
    const host = normalizeHost(request.host);
    const { unblocks, store } = this.#deps;
    const key = unblockKey(request.kind, host, request.port);
    if (unblocks.isBlocked(key)) return { decision: 'reject' };
    if (unblocks.has(request.sandbox, key)) return { decision: 'approve' };
    const slot = openKey(request.sandbox, request.kind, host);
    let creating = this.#creating.get(slot);
    if (!creating) {
      const open = store.withStatus(OPEN_STATUSES, request.sandbox).find((a) => a.kind === request.kind && a.host === host);
      if (open) {
        this.#addEndpoint(open, request.port);
        creating = Promise.resolve(open);
      } else {
        creating = this.#create({ ...request, host }).finally(() => this.#creating.delete(slot));
        this.#creating.set(slot, creating);
      }
    } else {
      void creating.then((approval) => approval && this.#addEndpoint(approval, request.port));
    }
    const approval = await creating;
    // Too many open approvals for this sandbox: the connection is refused rather than held.
    if (!approval) return { decision: 'reject' };
    return new Promise((resolve) => {
      const waiting = this.#waiters.get(approval.id) ?? [];
      waiting.push(resolve);
      this.#waiters.set(approval.id, waiting);
    });
  }

  async #create(request: AskRequest): Promise<Approval | null> {
    if (this.#deps.store.withStatus(OPEN_STATUSES, request.sandbox).length >= SANDBOX_LIMITS.approvalsOpen) return null;
    const advice = await this.#advisor.advise(request);
    const approval: Approval = {
      id: randomUUID(), sandbox: request.sandbox, kind: request.kind, host: request.host, port: request.port,
      endpoints: [`${request.host}:${request.port}`], binary: request.binary ?? null, risky: advice.risky,
      reason: `${request.reason}; ${advice.triage}`, rationale: advice.rationale, security_notes: advice.security_notes,
      status: 'pending', created_at: new Date().toISOString(),
      decision: null, always: false, decision_reason: null, decided_at: null, resolved_at: null, failure: null,
    };
    this.#deps.store.put(approval);
    this.#deps.store.prune(approval.sandbox, SANDBOX_LIMITS.approvalsKept);
    this.#deps.emit({
      kind: 'approval.requested', sandbox: approval.sandbox, approval_id: approval.id, host: approval.host, port: approval.port,
      endpoints: approval.endpoints, ...(approval.binary ? { binary: approval.binary } : {}), risky: approval.risky,
      severity: approval.risky ? 'HIGH' : 'LOW', reason: approval.reason, message: approval.rationale,
    });
    return approval;
  }

  #addEndpoint(approval: Approval, port: number): void {
    const current = this.#deps.store.get(approval.id);
    const endpoint = `${approval.host}:${port}`;
    if (!current || current.endpoints.includes(endpoint)) return;
    current.endpoints.push(endpoint);
    this.#deps.store.put(current);
  }

  list(sandbox?: string): Approval[] {
    return this.#deps.store.list(sandbox);
  }

  /** Approvals waiting for a decision, of one sandbox or all. */
  pendingCount(sandbox?: string): number {
    return this.#deps.store.count('pending', sandbox);
  }

  /** The operator's decision (`POST /approvals/{id}`): pending → queued, `always` written to config.yaml first. */
  decide(id: string, request: DecideRequest): DecideAnswer {
    const { store, unblocks } = this.#deps;
    const approval = store.get(id);
    if (!approval) throw new SandboxApiError('not_found', `no approval ${id}`);
    if (approval.status !== 'pending') {
      throw new SandboxApiError('conflict', `approval ${id} is ${approval.status}, not pending: it was decided already`);
    }
    const always = request.always === true;
    let config: Config | undefined;
    if (always) {
      const written = this.#deps.persistAlways(unblockKey(approval.kind, approval.host, approval.port), request.decision === 'approve' ? 'unblocked' : 'block');
      config = written.config;
      unblocks.applyConfig(config.openshell.egress);
    }
    Object.assign(approval, {
      status: 'queued', decision: request.decision, always, decision_reason: request.reason ?? null, decided_at: new Date().toISOString(),
    } satisfies Partial<Approval>);
    store.put(approval);
    this.#schedule(approval.sandbox);
    const list = request.decision === 'approve' ? 'openshell.egress.unblocked' : 'openshell.egress.block';
    const message = `${request.decision === 'approve' ? 'approval' : 'rejection'} queued: applied when the hooks of ${approval.sandbox} are quiet` +
      (always ? `; ${approval.host} saved to ${list} for every sandbox` : '');
    return { approval: { ...approval }, persisted: always, message, ...(config ? { config } : {}) };
  }

  /** Applies the sandbox's queued approvals once its hooks have been quiet long enough (or held too long). */
  #schedule(sandbox: string): void {
    if (this.#timers.has(sandbox)) return;
    const queued = this.#deps.store.withStatus(['queued'], sandbox);
    if (queued.length === 0) return;
    const now = Date.now();
    const lastHook = this.#deps.lastHookAt(sandbox);
    const quietAt = lastHook === undefined ? now : lastHook + this.#quietMs;
    const oldest = Math.min(...queued.map((a) => Date.parse(a.decided_at ?? a.created_at)));
    const at = Math.min(quietAt, oldest + this.#maxHoldMs);
    // Even when due now, after the current call: the decision's answer says `queued`, as the table does.
    const timer = setTimeout(() => {
      this.#timers.delete(sandbox);
      const hook = this.#deps.lastHookAt(sandbox);
      const quiet = hook === undefined || Date.now() - hook >= this.#quietMs;
      if (quiet || Date.now() >= oldest + this.#maxHoldMs) this.#applyBatch(sandbox);
      else this.#schedule(sandbox);
    }, Math.max(0, at - now));
    timer.unref();
    this.#timers.set(sandbox, timer);
  }

  #applyBatch(sandbox: string): void {
    const running = this.#deps.isRunning(sandbox);
    for (const approval of this.#deps.store.withStatus(['queued'], sandbox)) {
      if (!running) {
        this.#finish(approval, 'failed', 'the sandbox stopped before the approval was applied');
        continue;
      }
      if (approval.decision === 'approve') this.#deps.unblocks.add(sandbox, unblockKey(approval.kind, approval.host, approval.port));
      this.#finish(approval, approval.decision === 'approve' ? 'approved' : 'rejected');
    }
  }

  #finish(approval: Approval, status: 'approved' | 'rejected' | 'failed', failure?: string): void {
    approval.status = status;
    approval.resolved_at = new Date().toISOString();
    if (failure) approval.failure = failure;
    this.#deps.store.put(approval);
    this.#deps.emit({
      kind: 'approval.resolved', sandbox: approval.sandbox, approval_id: approval.id, host: approval.host, port: approval.port,
      phase: status, reason: failure ?? approval.decision_reason ?? status,
      message: `${approval.host}:${approval.port} ${status}${approval.always && status !== 'failed' ? ' for every sandbox' : ''}`,
    });
    const answer: AskAnswer = { decision: status === 'approved' ? 'approve' : 'reject' };
    for (const resolve of this.#waiters.get(approval.id) ?? []) resolve(answer);
    this.#waiters.delete(approval.id);
  }

  /**
   * The sandbox stopped or was deleted: its open approvals fail (their connections are gone). A deleted
   * sandbox's approvals and unblocks are then forgotten.
   */
  sandboxEnded(sandbox: string, deleted: boolean): void {
    clearTimeout(this.#timers.get(sandbox));
    this.#timers.delete(sandbox);
    for (const approval of this.#deps.store.withStatus(OPEN_STATUSES, sandbox)) {
      this.#finish(approval, 'failed', deleted ? 'the sandbox was deleted before the approval was applied' : 'the sandbox stopped before the approval was applied');
    }
    if (deleted) {
      this.#deps.store.forgetSandbox(sandbox);
      this.#deps.unblocks.forget(sandbox);
    }
  }

  /** Gateway stop: no batch runs later, and every waiting ask is refused (its connection is closing anyway). */
  close(): void {
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
    for (const waiting of this.#waiters.values()) for (const resolve of waiting) resolve({ decision: 'reject' });
    this.#waiters.clear();
  }
}
