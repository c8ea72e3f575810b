// Resource limits of the policy service, in one table (documented in docs/configuration.md "Limits"). The Rego
// engine's own evaluation budgets (steps, depth, output, time) are set here for the gateway's evaluations.
import { defineLimits, KiB, MiB } from '../util/limit-table.js';

export const POLICY_LIMITS = defineLimits('Policy', 'src/policy/limits.ts', {
  maxModuleBytes: { value: 256 * KiB, unit: 'bytes', what: 'One operator `.rego` module in `policy_dir`; a larger one refuses the load or reload.' },
  maxModules: { value: 200, unit: 'count', what: 'Operator `.rego` modules in `policy_dir`; more refuse the load or reload.' },
  maxDataBytes: { value: 4 * MiB, unit: 'bytes', what: 'The operator\'s `data.json` in `policy_dir`; a larger one refuses the load or reload.' },
  maxSteps: { value: 100_000, unit: 'count', what: 'Evaluation steps of one policy decision; a policy that needs more is an error (`WARDEN_ERR_POLICY_EVAL`), not a hang.' },
  maxDepth: { value: 100, unit: 'count', what: 'Nesting of rule and function calls in one decision.' },
  maxOutput: { value: 100_000, unit: 'count', what: 'Elements of one collection a rule or comprehension builds in a decision.' },
  maxEvalMs: { value: 250, unit: 'ms', what: 'Wall-clock time of one policy decision.' },
  maxCachedDecisions: { value: 10_000, unit: 'count', what: 'Decisions remembered per input until the next reload or list change; past it the cache starts over.' },
});
