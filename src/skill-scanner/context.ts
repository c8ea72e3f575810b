// What the scanner server's routes are given.
import type { BatchStore } from './batches.js';
import type { ScanPool } from '../scanners/pool/pool.js';

export interface ScannerContext {
  pool: ScanPool;
  batches: BatchStore;
  /** The environment scans read (SKILL_SCANNER_*, AI_GUARD_API_KEY); passed to workers, never logged. */
  env: Record<string, string | undefined>;
  /** The folders scan paths must lie in (see scannerRoots): there is no authentication, so always set. */
  roots: string[];
  version: string;
}
