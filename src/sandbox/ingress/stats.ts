// What the ingress has seen of one sandbox's hooks, as the Sandbox object's `hooks` shows it (spec "Sandbox
// resources"): hook traffic, blocked tool calls, the last block's reason, tamper counts, per-event verdict counts
// (at most INGRESS_LIMITS.eventNames names of up to 64 characters, other calls counted in `other_events`), and whether hooks are
// silent or unreachable now. In memory: it starts again with the gateway, like the sandboxes themselves.
import { INGRESS_LIMITS } from './limits.js';

/** The hook command's own rule for an event name (hooks/warden-hook.mjs). */
const EVENT_NAME = /^[\w.:-]{1,64}$/;

export interface HooksView {
  traffic: number;
  blocked: number;
  last_block_reason: string | null;
  tamper: number;
  events: Record<string, Record<string, number>>;
  other_events: number;
  silent: boolean;
  unreachable: boolean;
}

export class HookStats {
  traffic = 0;
  blocked = 0;
  lastBlockReason: string | null = null;
  tamper = 0;
  silent = false;
  unreachable = false;
  /** ms timestamp of the last hook call (undefined: none this gateway run). */
  lastHookAt: number | undefined;
  readonly #events = new Map<string, Record<string, number>>();
  #otherEvents = 0;

  /** Counts one answered hook call: its event name and the verdict's action. */
  count(event: string, action: string, at = Date.now()): void {
    this.traffic += 1;
    this.lastHookAt = at;
    let verdicts = this.#events.get(event);
    if (!verdicts) {
      // The name comes from the sandbox: only names an agent could send are kept, so 48 of them stay small.
      if (this.#events.size >= INGRESS_LIMITS.eventNames || !EVENT_NAME.test(event)) {
        this.#otherEvents += 1;
        return;
      }
      verdicts = {};
      this.#events.set(event, verdicts);
    }
    verdicts[action] = (verdicts[action] ?? 0) + 1;
  }

  view(): HooksView {
    return {
      traffic: this.traffic, blocked: this.blocked, last_block_reason: this.lastBlockReason, tamper: this.tamper,
      events: Object.fromEntries([...this.#events].map(([name, verdicts]) => [name, { ...verdicts }])),
      other_events: this.#otherEvents, silent: this.silent, unreachable: this.unreachable,
    };
  }
}
