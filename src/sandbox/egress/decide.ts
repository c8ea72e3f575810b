// One egress decision: the firewall module first on the name alone (a refused name is never resolved, so DNS
// carries nothing out for it), then the human when the module asks, then the name resolved IN THE PROXY and the
// module again on the resolved addresses (a name that resolves to a metadata or loopback address is refused:
// DNS rebinding). The connection goes to the address checked here, never to a second resolution.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { canonicalHost } from '../../policy/address.js';
import type { FirewallInput, FirewallOutput } from '../../policy/service.js';
import { SANDBOX_EGRESS_LIMITS } from './limits.js';
import type { EgressDeps, EgressSandbox } from './types.js';

export interface Decision {
  allow: boolean;
  /** The host as the policy compared it (lowercase, IPs in plain form). */
  host: string;
  category: string;
  rule: string | null;
  reason: string;
  unblockable: boolean;
  /** Whether a human was asked (and answered). */
  asked: boolean;
  /** The address to connect to (set when allowed). */
  address?: string;
  /** Set by the proxy for an allowed model provider: its traffic goes to the guardrail proxy, not to `address`. */
  llm?: { provider: string; firewallCategory: string; targetHost: string };
}

/** An exact host or `*.suffix` pattern of a config host list. */
export function hostListed(list: readonly string[], host: string): boolean {
  return list.some((pattern) => {
    const p = pattern.toLowerCase();
    return p.startsWith('*.') ? host.endsWith(p.slice(1)) : canonicalHost(p) === host;
  });
}

/** The name a sandbox reaches the host machine by (its own `localhost` is its own loopback). */
export const HOST_MACHINE_NAME = 'host.warden.internal';

async function systemResolve(host: string): Promise<string[]> {
  const answers = await lookup(host, { all: true, verbatim: true });
  return answers.map((a) => a.address);
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function refused(host: string, out: Pick<FirewallOutput, 'category' | 'matched_rule' | 'reason' | 'unblockable'>, asked: boolean): Decision {
  return { allow: false, host, category: out.category, rule: out.matched_rule, reason: out.reason, unblockable: out.unblockable, asked };
}

export async function decide(deps: EgressDeps, sandbox: EgressSandbox, rawHost: string, port: number): Promise<Decision> {
  const host = canonicalHost(rawHost);
  const settings = deps.settings();
  const base: FirewallInput = {
    host, port, protocol: 'tcp', sandbox: sandbox.name, pack: sandbox.pack, profile: sandbox.profile,
    network_mode: sandbox.network_mode, approvals: sandbox.approvals, host_ports: sandbox.host_ports, gateway_ports: deps.gatewayPorts?.() ?? [],
    unblocked: (deps.isUnblocked?.(sandbox.name, host) ?? false) || hostListed(settings.unblocked, host),
    blocked: hostListed(settings.block, host),
  };
  const first = deps.firewall(base);
  let asked = false;
  if (!first.allow && !first.ask) return refused(host, first, false);
  if (first.ask) {
    if (!deps.ask) return refused(host, { ...first, category: 'approval_unavailable', reason: 'no one can be asked: approvals are not running' }, false);
    asked = true;
    let answer: { decision: 'approve' | 'reject' };
    try {
      answer = await withTimeout(
        deps.ask({ sandbox: sandbox.name, host, port, kind: first.category === 'host_port' ? 'host_port' : 'network_rule', reason: first.reason }),
        SANDBOX_EGRESS_LIMITS.askTimeoutMs, 'no answer in time',
      );
    } catch (err) {
      return refused(host, { category: 'ask_timeout', matched_rule: null, reason: `approval: ${(err as Error).message}`, unblockable: true }, true);
    }
    if (answer.decision !== 'approve') return refused(host, { category: 'rejected', matched_rule: 'approval', reason: 'rejected by a human', unblockable: true }, true);
  }
  let resolved: string[];
  try {
    const addresses = isIP(host) ? [host] : host === HOST_MACHINE_NAME ? ['127.0.0.1'] : await withTimeout((deps.resolve ?? systemResolve)(host), SANDBOX_EGRESS_LIMITS.dnsTimeoutMs, 'timed out');
    resolved = [...new Set(addresses.map(canonicalHost))];
    if (resolved.length === 0) throw new Error('no address');
  } catch (err) {
    return refused(host, { category: 'dns', matched_rule: null, reason: `${host} does not resolve: ${(err as Error).message}`, unblockable: false }, asked);
  }
  // An approval counts as an unblock for this connection; the module still refuses what no human may lift.
  const second = deps.firewall({ ...base, resolved, unblocked: base.unblocked === true || asked });
  if (!second.allow) return refused(host, second.ask ? { ...second, category: 'unknown_host', reason: 'asked again after resolution' } : second, asked);
  return {
    allow: true, host, category: asked ? 'approved' : second.category, rule: second.matched_rule, reason: second.reason,
    unblockable: false, asked, address: resolved[0]!,
  };
}
