// The unblock store: hosts a sandbox may reach although the policy refused or asked about them. Per sandbox
// (an approved approval, or `POST /egress/unblock` with a sandbox) they live in sandboxes.db until the sandbox is
// deleted; for every sandbox they are `openshell.egress.unblocked` in config.yaml, with `openshell.egress.block`
// the hosts rejected for every sandbox. The egress proxy asks `has(sandbox, host)` on each connection.
import { SandboxApiError } from '../errors.js';
import { SANDBOX_LIMITS } from '../limits.js';
import { normalizeHost } from './hosts.js';
import type { ApprovalStore } from './store.js';

export interface AlwaysLists {
  unblocked: readonly string[];
  block: readonly string[];
}

export class Unblocks {
  readonly #store: ApprovalStore;
  readonly #bySandbox = new Map<string, Set<string>>();
  #unblocked = new Set<string>();
  #block = new Set<string>();

  constructor(store: ApprovalStore, always: AlwaysLists) {
    this.#store = store;
    for (const { sandbox, host } of store.unblocks()) this.#set(sandbox).add(host);
    this.applyConfig(always);
  }

  #set(sandbox: string): Set<string> {
    let hosts = this.#bySandbox.get(sandbox);
    if (!hosts) this.#bySandbox.set(sandbox, (hosts = new Set()));
    return hosts;
  }

  /** The every-sandbox lists as config.yaml now has them (at start, after a write, after a reload). */
  applyConfig(always: AlwaysLists): void {
    this.#unblocked = new Set(always.unblocked.map(normalizeHost));
    this.#block = new Set(always.block.map(normalizeHost));
  }

  /** Whether `sandbox` may reach `host` (a host, or `host:port` for a port on the host machine). */
  has(sandbox: string, host: string): boolean {
    const key = normalizeHost(host);
    return this.#unblocked.has(key) || (this.#bySandbox.get(sandbox)?.has(key) ?? false);
  }

  /** Whether `host` was rejected for every sandbox (`openshell.egress.block`). */
  isBlocked(host: string): boolean {
    return this.#block.has(normalizeHost(host));
  }

  /** Unblocks `host` for one sandbox; false when it already was. 409 past the per-sandbox limit. */
  add(sandbox: string, host: string): boolean {
    const key = normalizeHost(host);
    const hosts = this.#set(sandbox);
    if (hosts.has(key)) return false;
    if (hosts.size >= SANDBOX_LIMITS.unblockedHosts) {
      throw new SandboxApiError('conflict', `sandbox ${sandbox} already has ${SANDBOX_LIMITS.unblockedHosts} unblocked hosts`);
    }
    this.#store.addUnblock(sandbox, key);
    hosts.add(key);
    return true;
  }

  /** The hosts unblocked for one sandbox only. */
  forSandbox(sandbox: string): string[] {
    return [...(this.#bySandbox.get(sandbox) ?? [])];
  }

  /** A deleted sandbox's unblocks go with it. */
  forget(sandbox: string): void {
    this.#bySandbox.delete(sandbox);
  }
}
