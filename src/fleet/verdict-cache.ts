// The gateway's verdict cache for fleet devices: SHA-256 of a checked artifact → the verdict given, so a
// repeated question is answered without re-evaluation. Bounded (least recently used out first); threat intel
// revokes entries by hash, or flushes everything in an emergency.
export type CachedVerdict = 'allow' | 'block';

export class VerdictCache {
  private readonly entries = new Map<string, CachedVerdict>();
  hits = 0;
  misses = 0;

  constructor(private readonly capacity = 100_000) {}

  get(hash: string): CachedVerdict | undefined {
    const verdict = this.entries.get(hash);
    if (verdict === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    // Re-insert: Map order is insertion order, so the oldest-used entry stays first.
    this.entries.delete(hash);
    this.entries.set(hash, verdict);
    return verdict;
  }

  set(hash: string, verdict: CachedVerdict): void {
    this.entries.delete(hash);
    this.entries.set(hash, verdict);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }

  /** Removes these hashes; returns how many were cached. */
  revoke(hashes: readonly string[]): number {
    let removed = 0;
    for (const hash of hashes) if (this.entries.delete(hash.toLowerCase())) removed++;
    return removed;
  }

  flush(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
