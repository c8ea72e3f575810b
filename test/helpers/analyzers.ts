// Analyzer contexts for scanner tests: scan options with only the analyzers under test on, and token usage summed.
import { DEFAULT_SCAN_OPTIONS } from '../../src/scanners/options.js';
import { addUsage, type LlmUsage, type ScanOptions } from '../../src/scanners/types.js';

/** The scanner's defaults (every analyzer beyond static off) with `overrides` on top. */
export const analyzerOptions = (overrides: Partial<ScanOptions> = {}): ScanOptions => ({ ...DEFAULT_SCAN_OPTIONS, ...overrides });

/** An `addUsage` for an AnalyzerContext that sums what it is given into `usage`. */
export function usageCollector(): { usage: LlmUsage; addUsage(u: LlmUsage): void } {
  const usage: LlmUsage = { input_tokens: 0, output_tokens: 0, total_tokens: 0 };
  return { usage, addUsage: (u) => addUsage(usage, u) };
}
