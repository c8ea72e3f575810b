// The Rego engine's one public entry: compile modules and data once, then evaluate queries (or a rule path)
// against an input. Solutions are binding objects, one per way the query holds.

import type { Expr, Term } from './ast.js';
import { Budget, DEFAULT_LIMITS, type Limits } from './budget.js';
import { compileModules, resolveExpr, resolveTerm, walkTerm, type Compiled, type RuleNode, type SourceFile } from './compiler.js';
import { Evaluator, type ConstantMemo } from './eval.js';
import { constantRules } from './memo.js';
import { parseQuery, parseTerm } from './parser.js';
import { fromJSON, RObject, type Value } from './value.js';

export { RegoError, type Location } from './errors.js';
export type { Limits } from './budget.js';
export type { SourceFile } from './compiler.js';
export { compare, equal, formatJSON, fromJSON, keyOf as keyOfValue, RObject, RSet, toJSON, type Value } from './value.js';

export interface QueryOptions {
  /** The input document as a Rego value (see `fromJSON`). */
  input?: Value;
  /** Builtin errors abort the query instead of making the expression undefined. */
  strictBuiltinErrors?: boolean;
  limits?: Partial<Limits>;
}

export type Bindings = Map<string, Value>;

export class RegoPolicy {
  private constructor(
    private readonly compiled: Compiled,
    /** The rules whose value depends on modules and data only (memo.ts), judged once per compile. */
    private readonly constants: Set<RuleNode>,
    private readonly data: Value,
  ) {}

  /** Parses and compiles the modules; `data` is the base document (JSON or Rego value). */
  static compile(modules: SourceFile[], data: unknown = {}): RegoPolicy {
    const compiled = compileModules(modules);
    return new RegoPolicy(compiled, constantRules(compiled.root), data instanceof RObject ? data : fromJSON(data));
  }

  /** The same compiled modules over another base document (compiling is the costly part; data changes often). */
  withData(data: unknown): RegoPolicy {
    return new RegoPolicy(this.compiled, this.constants, data instanceof RObject ? data : fromJSON(data));
  }

  /**
   * Values of the constant rules, computed on first use and kept for this policy's life. Kept apart per
   * strictness and limits, since a builtin error or an exceeded budget may leave a rule undefined or fail.
   */
  private readonly constantValues = new Map<string, ConstantMemo>();

  private memoFor(strict: boolean, limits: Partial<Limits> | undefined): ConstantMemo {
    const key = `${strict}\0${limits === undefined ? '' : JSON.stringify(limits)}`;
    let memo = this.constantValues.get(key);
    if (!memo) {
      if (this.constantValues.size >= 100) this.constantValues.clear();
      this.constantValues.set(key, (memo = { rules: this.constants, values: new Map() }));
    }
    return memo;
  }

  /** Parsed queries: a policy is asked the same few questions again and again. */
  private readonly prepared = new Map<string, { body: Expr[]; names: string[] }>();

  /** Every solution of a query body, as the bindings of its named vars. */
  query(query: string, opts: QueryOptions = {}): Bindings[] {
    let q = this.prepared.get(query);
    if (!q) {
      const body = prepareQuery(query);
      q = { body, names: queryVars(body) };
      if (this.prepared.size >= 1000) this.prepared.clear();
      this.prepared.set(query, q);
    }
    const { body, names } = q;
    const strict = opts.strictBuiltinErrors ?? false;
    const ev = new Evaluator(this.compiled.root, this.data, opts.input, {
      strict,
      budget: new Budget({ ...DEFAULT_LIMITS, ...opts.limits }),
      constants: this.memoFor(strict, opts.limits),
    });
    const out: Bindings[] = [];
    ev.each(ev.body(body), () => {
      const b: Bindings = new Map();
      for (const n of names) {
        const v = ev.env.get(n);
        if (v !== undefined) b.set(n, v);
      }
      out.push(b);
    });
    return out;
  }

  /** The value of a rule or document path such as `data.pkg.allow`; undefined when it is not defined. */
  evaluate(path: string, opts: QueryOptions = {}): Value | undefined {
    const solutions = this.query(`__result__ = ${path}`, opts);
    return solutions[0]?.get('__result__');
  }
}

/** Parses a Rego term (an `input_term`), evaluating only its literal structure. */
export function parseValue(source: string): Value {
  const t = parseTerm(source);
  const ev = new Evaluator({ children: new Map(), rules: [] }, new RObject(), undefined, { strict: true, budget: new Budget(DEFAULT_LIMITS) });
  for (const v of ev.term(t)) return v;
  throw new Error('term has no value');
}

function prepareQuery(query: string): Expr[] {
  return parseQuery(query).map((e) => resolveExpr(e, (t) => resolveTerm(t, () => undefined)));
}

/** Named vars of a query, in order of appearance (not `_`, not inside comprehensions). */
function queryVars(body: Expr[]): string[] {
  const out: string[] = [];
  const add = (t: Term): void =>
    walkTerm(t, (x) => {
      if (x.type === 'var' && !x.name.startsWith('_$') && x.name !== 'input' && x.name !== 'data' && !out.includes(x.name)) out.push(x.name);
    });
  const visit = (e: Expr): void => {
    switch (e.type) {
      case 'term':
        add(stripCalls(e.term));
        break;
      case 'assign':
      case 'unify':
        add(stripCalls(e.left));
        add(stripCalls(e.right));
        break;
      case 'some':
        e.vars.forEach((v) => !out.includes(v) && out.push(v));
        break;
      case 'somein':
        if (e.key) add(e.key);
        add(e.value);
        add(stripCalls(e.collection));
        break;
      case 'not':
      case 'every':
        break;
    }
  };
  body.forEach(visit);
  return out;
}

/** A term with call names and comprehension bodies removed, so only value vars remain. */
function stripCalls(t: Term): Term {
  switch (t.type) {
    case 'call':
      return { type: 'array', items: t.args.map(stripCalls), loc: t.loc };
    case 'ref':
      return { ...t, head: stripCalls(t.head), path: t.path.map(stripCalls) };
    case 'array':
    case 'set':
      return { ...t, items: t.items.map(stripCalls) };
    case 'object':
      return { ...t, items: t.items.map(([k, v]) => [stripCalls(k), stripCalls(v)] as [Term, Term]) };
    case 'arraycomp':
    case 'setcomp':
    case 'objectcomp':
      return { type: 'scalar', value: null, loc: t.loc };
    default:
      return t;
  }
}
