// Limits of the sandbox manager (spec "Limits"), in one table (docs/configuration.md "Limits").
import { defineLimits, MiB } from '../util/limit-table.js';

export const SANDBOX_LIMITS = defineLimits('Sandbox manager', 'src/sandbox/limits.ts', {
  nameChars: { value: 19, unit: 'characters', what: 'Sandbox name (`[a-z0-9-]`); a longer one is refused with 400 `invalid_request`.' },
  keptLogBytes: { value: 1 * MiB, unit: 'bytes', what: 'Run log kept on the host after a detached run ends or is stopped: the last bytes, the rest dropped.' },
  envEntries: { value: 256, unit: 'count', what: 'Variables in a create request\'s `env`, `llm.credentials` and `credentials` together.' },
});
