// Refused proxy requests are counted, not recorded one by one: anyone who can reach the port can send them,
// and a row each would let unauthenticated traffic fill the audit trail. The trail gets one
// `proxy-auth-failed` row per client network (/24 or /48) and minute, with the count, when the minute is
// over (or the gateway stops). The per-request warning log line stays: it is the live telemetry.
import type { NewAuditEvent } from '../audit/store.js';
import { PROXY_LIMITS } from './limits.js';

const WINDOW_MS = PROXY_LIMITS.authFailureWindowMs;
/** Networks tallied per minute; refusals from further networks share one `other` row, so memory is bounded. */
const MAX_NETWORKS_PER_WINDOW = PROXY_LIMITS.maxAuthFailureNetworks;
/** Distinct reasons, paths and user agents kept per row. */
const MAX_SAMPLES = 8;
/** A sampled path is cut to this length: the caller chose it, and the row must stay small. */
const MAX_PATH_CHARS = 256;

interface Tally {
  count: number;
  reasons: Map<string, number>;
  paths: Set<string>;
  userAgents: Set<string>;
}

export interface Refusal {
  /** The client's redacted network, e.g. `192.0.2.0/24`. */
  network: string;
  userAgent: string;
  path: string;
  reason: string;
}

export class AuthFailureTally {
  private windowStart = 0;
  private tallies = new Map<string, Tally>();
  private timer: NodeJS.Timeout | undefined;

  /** `write` stores a finished minute's rows; `now` is the clock (tests pass their own). */
  constructor(
    private readonly write: (event: NewAuditEvent) => void,
    private readonly now: () => number = Date.now,
  ) {}

  count(refusal: Refusal): void {
    const now = this.now();
    if (now - this.windowStart >= WINDOW_MS) {
      this.flush();
      this.windowStart = now - (now % WINDOW_MS);
    }
    const key = this.tallies.has(refusal.network) || this.tallies.size < MAX_NETWORKS_PER_WINDOW ? refusal.network : 'other';
    let tally = this.tallies.get(key);
    if (!tally) this.tallies.set(key, (tally = { count: 0, reasons: new Map(), paths: new Set(), userAgents: new Set() }));
    tally.count++;
    if (tally.reasons.has(refusal.reason) || tally.reasons.size < MAX_SAMPLES) tally.reasons.set(refusal.reason, (tally.reasons.get(refusal.reason) ?? 0) + 1);
    if (tally.paths.size < MAX_SAMPLES) tally.paths.add(refusal.path.slice(0, MAX_PATH_CHARS));
    if (tally.userAgents.size < MAX_SAMPLES && refusal.userAgent !== '') tally.userAgents.add(refusal.userAgent);
    // The minute's rows are written when it ends, even if no refusal follows to notice that it has.
    this.timer ??= setTimeout(() => this.flush(), this.windowStart + WINDOW_MS - now).unref();
  }

  /** Writes a row per tallied network and starts counting afresh. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const windowStart = new Date(this.windowStart).toISOString();
    for (const [network, tally] of this.tallies) {
      this.write({
        action: 'proxy-auth-failed',
        severity: 'INFO',
        target: network,
        details: `${tally.count} refused request${tally.count === 1 ? '' : 's'} in the minute from ${windowStart}`,
        structured: {
          client_ip: network, count: tally.count, window_start: windowStart, window_seconds: WINDOW_MS / 1000,
          reasons: Object.fromEntries(tally.reasons), paths: [...tally.paths], user_agents: [...tally.userAgents],
        },
      });
    }
    this.tallies = new Map();
  }
}
