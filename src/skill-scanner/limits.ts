// Resource limits of the skill scanner server, in one table (documented in docs/configuration.md "Limits").
import { defineLimits, MiB } from '../util/limit-table.js';

export const SKILL_SCANNER_LIMITS = defineLimits('Skill scanner server', 'src/skill-scanner/limits.ts', {
  maxJsonBodyBytes: { value: 1 * MiB, unit: 'bytes', what: 'A JSON request body (scan and batch requests); larger is refused with 413.' },
  maxUploadBytes: { value: 50_000_000, unit: 'bytes', what: 'An uploaded skill archive: 50 MB as the spec writes it (decimal megabytes, not MiB).' },
  maxZipEntries: { value: 500, unit: 'count', what: 'Entries in an uploaded archive; more are refused.' },
  maxZipUncompressedBytes: { value: 200 * MiB, unit: 'bytes', what: 'What an uploaded archive may unpack to; more is refused.' },
  maxBatches: { value: 1000, unit: 'count', what: 'Batch scans kept for `GET` of their status; the oldest are dropped first.' },
  batchTtlMs: { value: 60 * 60_000, unit: 'ms', what: 'How long a batch scan\'s status and results are kept.' },
});
