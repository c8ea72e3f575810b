// Evaluation limits: a policy that runs over any of them fails with eval_budget_error instead of hanging the
// gateway (steps bound time, depth bounds recursion through rules and functions, output bounds the size of
// collections a comprehension or rule builds).

import { RegoError, type Location } from './errors.js';

export interface Limits {
  /** Evaluation steps (expressions, ref lookups, calls) per query. */
  maxSteps: number;
  /** Nesting of rule and function evaluations. */
  maxDepth: number;
  /** Elements in one collection built by a comprehension or a partial rule. */
  maxOutput: number;
  /** Wall-clock time per query, milliseconds. */
  maxMillis: number;
}

export const DEFAULT_LIMITS: Limits = { maxSteps: 5_000_000, maxDepth: 200, maxOutput: 1_000_000, maxMillis: 10_000 };

export class Budget {
  private steps = 0;
  private depth = 0;
  private readonly deadline: number;

  constructor(readonly limits: Limits) {
    this.deadline = Date.now() + limits.maxMillis;
  }

  step(loc?: Location): void {
    if (++this.steps > this.limits.maxSteps) throw new RegoError('eval_budget_error', `evaluation exceeded ${this.limits.maxSteps} steps`, loc);
    if ((this.steps & 0x3ff) === 0 && Date.now() > this.deadline) throw new RegoError('eval_budget_error', `evaluation exceeded ${this.limits.maxMillis} ms`, loc);
  }

  enter(loc?: Location): void {
    if (++this.depth > this.limits.maxDepth) throw new RegoError('eval_budget_error', `evaluation exceeded depth ${this.limits.maxDepth} (recursion?)`, loc);
  }

  leave(): void {
    this.depth--;
  }

  output(size: number, loc?: Location): void {
    if (size > this.limits.maxOutput) throw new RegoError('eval_budget_error', `collection exceeded ${this.limits.maxOutput} elements`, loc);
  }
}
