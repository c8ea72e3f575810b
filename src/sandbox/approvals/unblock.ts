// `POST /api/v1/sandbox/egress/unblock` without HTTP (spec "Unblock rules"): lift a refusal for one sandbox, or
// with `always` for every sandbox (saved to `openshell.egress.unblocked`). Only a refusal the policy marked
// unblockable can be lifted: the egress proxy's `lastRefusal` says what it refused and whether it may be lifted
// (a cloud metadata address never may); a host no sandbox was refused cannot be unblocked through this route.
import type { Config } from '../../config/schema.js';
import type { ActivityInput } from '../activity/types.js';
import { EVERY_SANDBOX } from '../activity/types.js';
import { SandboxApiError } from '../errors.js';
import type { AlwaysList } from './always.js';
import { checkHost } from './hosts.js';
import type { Unblocks } from './unblocks.js';

/** What the egress proxy last refused a sandbox for a host (its seam). */
export interface Refusal {
  unblockable: boolean;
  category: string;
}

export interface UnblockDeps {
  unblocks: Unblocks;
  lastRefusal(sandbox: string, host: string): Refusal | undefined;
  /** The sandboxes the manager knows (an unknown one is 404). */
  sandboxes(): string[];
  persistAlways(host: string, list: AlwaysList): { config: Config; changed: boolean };
  emit(event: ActivityInput): void;
  /** Lifts what the egress proxy holds of a refusal itself (a large-upload cut is its own state, not policy). */
  liftRefusal?(sandbox: string, host: string): void;
}

export interface UnblockRequest {
  host: string;
  sandbox?: string;
  always?: boolean;
}

export interface UnblockAnswer {
  host: string;
  sandbox: string | null;
  scope: 'sandbox' | 'always';
  persisted: boolean;
  message: string;
}

export function unblock(deps: UnblockDeps, request: UnblockRequest): { answer: UnblockAnswer; config?: Config } {
  const host = checkHost(request.host);
  const always = request.always === true;
  const { sandbox } = request;
  if (sandbox === undefined && !always) {
    throw new SandboxApiError('invalid_request', 'an unblock without sandbox is for every sandbox: set always: true, or name the sandbox');
  }
  const known = deps.sandboxes();
  if (sandbox !== undefined && !known.includes(sandbox)) throw new SandboxApiError('not_found', `no sandbox named ${sandbox}`);
  const refusals = (sandbox !== undefined ? [sandbox] : known).flatMap((name) => {
    const refusal = deps.lastRefusal(name, host);
    return refusal ? [{ name, ...refusal }] : [];
  });
  const where = sandbox !== undefined ? `sandbox ${sandbox}` : 'any sandbox';
  if (refusals.length === 0) {
    throw new SandboxApiError('policy_violation', `${host} was not refused to ${where}: only a refusal the policy marks unblockable can be lifted`, {
      detail: 'to allow a host no sandbox has tried yet, add it to openshell.egress.unblocked in config.yaml',
    });
  }
  const locked = refusals.find((refusal) => !refusal.unblockable);
  if (locked) {
    throw new SandboxApiError('policy_violation', `${host} cannot be unblocked: the policy refused it to sandbox ${locked.name} as ${locked.category}, which is never unblockable`, {
      violation: locked.category,
    });
  }
  let config: Config | undefined;
  let message: string;
  if (always) {
    config = deps.persistAlways(host, 'unblocked').config;
    deps.unblocks.applyConfig(config.openshell.egress);
    message = `${host} unblocked for every sandbox and saved to openshell.egress.unblocked`;
  } else {
    const added = deps.unblocks.add(sandbox!, host);
    message = added ? `${host} unblocked for sandbox ${sandbox}` : `${host} was already unblocked for sandbox ${sandbox}`;
  }
  for (const refusal of refusals) deps.liftRefusal?.(refusal.name, host);
  const scope = always ? 'always' : 'sandbox';
  deps.emit({
    kind: 'egress.unblocked', sandbox: sandbox ?? EVERY_SANDBOX, host, category: refusals[0]!.category, unblockable: true, reason: scope, message,
  });
  return { answer: { host, sandbox: sandbox ?? null, scope, persisted: always, message }, ...(config ? { config } : {}) };
}
