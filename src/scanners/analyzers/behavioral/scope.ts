// Variable scopes and call arguments, shared by the Python and JavaScript evaluators.
import type { FunctionSummary } from './engine.js';
import type { SinkKind, SinkSite } from './rules.js';
import { union, widen, type Value } from './values.js';

export class Scope {
  readonly vars = new Map<string, Value>();
  readonly functions = new Map<string, FunctionSummary>();
  constructor(readonly parent?: Scope) {}

  lookup(name: string): Value | undefined {
    return this.vars.get(name) ?? this.parent?.lookup(name);
  }

  /** Whether `name` is a variable anywhere up the chain (so it shadows an import or builtin). */
  has(name: string): boolean {
    return this.vars.has(name) || (this.parent?.has(name) ?? false);
  }

  lookupFunction(name: string): FunctionSummary | undefined {
    return this.functions.get(name) ?? this.parent?.lookupFunction(name);
  }

  /** Binds in this scope (Python, JS declarations). A weak update (inside a branch or loop) merges. */
  bind(name: string, value: Value, weak: boolean): void {
    this.vars.set(name, weak ? widen(this.vars.get(name), value) : value);
  }

  /** Assigns where the variable was declared, or here (JS assignment without a declaration). */
  assign(name: string, value: Value, weak: boolean): void {
    const owner = this.owner(name);
    // Assigning from an inner function (a callback) is never a strong update of the outer variable.
    if (owner) owner.bind(name, value, weak || owner !== this);
    else this.bind(name, value, weak);
  }

  private owner(name: string): Scope | undefined {
    return this.vars.has(name) ? this : this.parent?.owner(name);
  }
}

/** Evaluated call arguments. */
export interface Args {
  pos: Value[];
  kw: Map<string, Value>;
}

export const argAt = (args: Args, index: number, keyword?: string): Value | undefined =>
  args.pos[index] ?? (keyword === undefined ? undefined : args.kw.get(keyword));

export function allArgs(args: Args): Value {
  return args.kw.size === 0 ? union(...args.pos) : union(...args.pos, ...args.kw.values());
}

/** Maps positional and keyword arguments onto a summary's parameter list. */
export function argsForParams(summary: FunctionSummary, args: Args, offset = 0): (Value | undefined)[] {
  const out: (Value | undefined)[] = summary.params.map((_, i) => args.pos[i + offset]);
  summary.params.forEach((name, i) => {
    const kw = args.kw.get(name);
    if (kw) out[i] = kw;
  });
  return out;
}

/** What a library-call handler needs to know about the call it handles. */
export interface CallContext {
  args: Args;
  /** The method receiver, for calls on a value. */
  receiver?: Value;
  /** `file:line` of the call. */
  at: string;
  summary: FunctionSummary | undefined;
  site(kind: SinkKind, api: string, dest?: string): SinkSite;
}
