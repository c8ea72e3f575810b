// Resource limits of AI usage discovery, in one table (documented in docs/configuration.md "Limits"). How many
// entries a scan walks and how long it may take are operator settings (`ai_discovery.max_files`, `.timeout_ms`);
// these bound everything else a scan reads or keeps.
import { defineLimits, KiB, MiB } from '../util/limit-table.js';

export const DISCOVERY_LIMITS = defineLimits('AI usage discovery', 'src/discovery/limits.ts', {
  maxDepth: { value: 8, unit: 'count', what: 'Folder nesting walked under a discovery root; deeper folders are not entered.' },
  manifestBytes: { value: 1 * MiB, unit: 'bytes', what: 'A project manifest read for AI SDK dependencies; a larger one is skipped.' },
  packBytes: { value: 512 * KiB, unit: 'bytes', what: 'A signature pack or confidence policy file; a larger one is refused.' },
  processes: { value: 4096, unit: 'count', what: 'Entries of /proc looked at for agent processes.' },
  probeTimeoutMs: { value: 800, unit: 'ms', what: 'Connecting to, and reading the answer of, one loopback port probed for a local model server.' },
  probeAnswerBytes: { value: 256 * KiB, unit: 'bytes', what: 'Answer read from a local model server\'s API probe; a larger one is not parsed.' },
  modelsPerServer: { value: 200, unit: 'count', what: 'Model names kept from one local model server.' },
  locationsPerComponent: { value: 100, unit: 'count', what: 'Locations kept per component per scan.' },
  signalsPerReport: { value: 5000, unit: 'count', what: 'Signals and components, each, in one scan or posted report; a larger report is refused.' },
  scansKept: { value: 500, unit: 'count', what: 'Scans kept in discovery.db; older scans are dropped (components keep their first-seen time).' },
  reportBytes: { value: 4 * MiB, unit: 'bytes', what: 'Body of a posted discovery report.' },
});
