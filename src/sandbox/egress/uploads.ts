// Large uploads (issue "Large uploads"): bytes a sandbox sends to each destination are counted for the session
// (every destination is first seen in the session it is first reached in: Warden keeps no memory of hosts
// across sessions). Crossing `large_upload_bytes` either cuts the connection and refuses later connections to
// that host (block on, host not exempt) or is reported once with the bytes so far. Being allowed (by a rule or an
// approval) does not exempt a host: a destination a human approved is still one the data was never sent to before.
import { SANDBOX_EGRESS_LIMITS } from './limits.js';
import { hostListed } from './decide.js';
import type { EgressSettings } from './types.js';

export type UploadVerdict = 'ok' | 'cut' | 'report';

export class UploadCounter {
  readonly #sent = new Map<string, number>();
  readonly #blocked = new Set<string>();
  readonly #reported = new Set<string>();

  /** Whether later connections to `host` are refused after a cut. */
  blocked(host: string): boolean {
    return this.#blocked.has(host);
  }

  sentTo(host: string): number {
    return this.#sent.get(host) ?? 0;
  }

  /**
   * Counts `bytes` about to go to `host`. `cut`: do not send them, close the connection (the host is refused
   * from now on); `report`: send them, and report this once; `ok`: send them.
   */
  add(host: string, bytes: number, settings: EgressSettings): UploadVerdict {
    const before = this.#sent.get(host) ?? 0;
    const after = before + bytes;
    if (!this.#sent.has(host) && this.#sent.size >= SANDBOX_EGRESS_LIMITS.hostsTracked) this.#sent.delete(this.#sent.keys().next().value!);
    this.#sent.set(host, after);
    if (after <= settings.large_upload_bytes) return 'ok';
    const cut = settings.large_upload_block && !hostListed(settings.large_upload_exempt, host);
    if (cut) {
      this.#blocked.add(host);
      return 'cut';
    }
    if (this.#reported.has(host)) return 'ok';
    this.#reported.add(host);
    return 'report';
  }

  /** A human lifted the large-upload refusal of the host: its uploads are counted afresh. */
  lift(host: string): void {
    this.#blocked.delete(host);
    this.#sent.delete(host);
    this.#reported.delete(host);
  }
}
