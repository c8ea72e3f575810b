// Resource limits of the hook path, in one table (documented in docs/configuration.md "Limits"). The hook script
// (hooks/warden-hook.mjs) runs without dependencies, so it cannot import this table: it states the same values,
// and test/connectors/hook-limits.test.ts fails when they differ.
import { defineLimits, MiB } from '../util/limit-table.js';

export const HOOK_LIMITS = defineLimits('Hooks', 'src/connectors/limits.ts', {
  maxToolOutputBytes: { value: 1 * MiB, unit: 'bytes', what: 'A tool result is cut to this many UTF-8 bytes before inspection.' },
  maxEventBytes: { value: 8 * MiB, unit: 'bytes', what: 'Hook script: an agent\'s event read from stdin; a larger one is answered as a failure (fail mode applies).' },
  maxAnswerBytes: { value: 4 * MiB, unit: 'bytes', what: 'Hook script: the sidecar\'s answer; a larger one is treated as no answer (fail mode applies).' },
  connectTimeoutMs: { value: 2_000, unit: 'ms', what: 'Hook script: wait to connect to the sidecar before the fail mode applies.' },
  totalTimeoutMs: { value: 10_000, unit: 'ms', what: 'Hook script: wait for the whole answer before the fail mode applies (default; the hook settings may set `total_timeout_ms`).' },
});
