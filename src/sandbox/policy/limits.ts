// Limits of sandbox policy resolution (documented in docs/configuration.md "Limits"): the files it reads are
// operator-written and read on every start and reload, and the lists a run asks for end up as bind mounts and
// approvals, so each is bounded.
import { defineLimits, KiB } from '../../util/limit-table.js';

export const SANDBOX_POLICY_LIMITS = defineLimits('Sandbox policy', 'src/sandbox/policy/limits.ts', {
  maxFileBytes: { value: 256 * KiB, unit: 'bytes', what: 'One pack file or the administrator file; a larger one is refused (`pack_invalid`, or every run refused for the administrator file when it is authoritative).' },
  maxListItems: { value: 64, unit: 'count', what: 'Entries of `context`, `unmask` or `host_ports` a pack can allow for one run.' },
  maxCpu: { value: 1024, unit: 'count', what: 'Highest CPU limit, in cores, a pack, the administrator file or a run can name.' },
});
