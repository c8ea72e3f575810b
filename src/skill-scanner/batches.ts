// Background batch scans and their status, polled by scan_id (spec document 3): pending → running →
// completed | failed. Kept in memory, at most 1000 batches for one hour each.
import { randomUUID } from 'node:crypto';
import type { ScanResult } from '../scanners/types.js';
import { SKILL_SCANNER_LIMITS } from './limits.js';

export type BatchStatus = 'pending' | 'running' | 'completed' | 'failed';

export interface BatchItem {
  skill_directory: string;
  result?: ScanResult;
  error?: { status: number; detail: string };
}

export interface Batch {
  scan_id: string;
  status: BatchStatus;
  skills_directory: string;
  created_at: string;
  finished_at?: string;
  total: number;
  done: number;
  /** Present once the batch is completed. */
  results?: BatchItem[];
  summary?: { safe: number; unsafe: number; errors: number };
  error?: string;
}


export class BatchStore {
  private readonly batches = new Map<string, { batch: Batch; expires: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  create(skillsDirectory: string): Batch {
    this.evict();
    const batch: Batch = { scan_id: randomUUID(), status: 'pending', skills_directory: skillsDirectory, created_at: new Date(this.now()).toISOString(), total: 0, done: 0 };
    this.batches.set(batch.scan_id, { batch, expires: this.now() + SKILL_SCANNER_LIMITS.batchTtlMs });
    return batch;
  }

  /** The batch, unless unknown or expired. */
  get(scanId: string): Batch | undefined {
    const entry = this.batches.get(scanId);
    if (!entry) return undefined;
    if (entry.expires <= this.now()) {
      this.batches.delete(scanId);
      return undefined;
    }
    return entry.batch;
  }

  get size(): number {
    return this.batches.size;
  }

  /** Drops expired batches, then the oldest ones, so one more fits under the cap. */
  private evict(): void {
    const now = this.now();
    for (const [id, entry] of this.batches) if (entry.expires <= now) this.batches.delete(id);
    // Maps iterate in insertion order: the first keys are the oldest batches.
    for (const id of this.batches.keys()) {
      if (this.batches.size < SKILL_SCANNER_LIMITS.maxBatches) break;
      this.batches.delete(id);
    }
  }
}
