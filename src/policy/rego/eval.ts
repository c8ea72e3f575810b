// Top-down Rego evaluator. A body is a chain of generators: each expression yields once per way it can be
// satisfied, binding vars in a mutable environment and unbinding them (in `finally`) when backtracking. Rules,
// functions and comprehensions are evaluated eagerly to values (rules cached per query and `with` scope, and
// constant rules per policy, see memo.ts; single-valued terms skip the generators, see `single`);
// refs into `data` walk the rule tree and the base document together, so virtual and base documents merge.

import type { Expr, Rule, Term, With } from './ast.js';
import { BUILTINS, MultiResult, type BuiltinContext } from './builtins/index.js';
import type { Budget } from './budget.js';
import type { RuleNode } from './compiler.js';
import { BuiltinError, RegoError, type Location } from './errors.js';
import { refName } from './parser.js';
import { equal, formatRego, keyOf, lookup, members, RObject, RSet, type Value } from './value.js';

type Env = Map<string, Value>;

interface Scope {
  input: Value | undefined;
  /** `with data.… as` replacements: path key → value. */
  dataOverrides: Map<string, { path: string[]; value: Value }>;
  /** `with <function> as` replacements: function name or data path → value or function ref. */
  mocks: Map<string, { value?: Value; fn?: Term }>;
  /** Rule values computed in this scope (a node stands for its one path). */
  cache: Map<RuleNode, Value | undefined>;
}

export interface EvalOptions {
  strict: boolean;
  budget: Budget;
  now?: bigint;
  /** Values of the policy's constant rules (see memo.ts), shared across queries; used outside `with` scopes only. */
  constants?: ConstantMemo;
}

export interface ConstantMemo {
  rules: Set<RuleNode>;
  values: Map<RuleNode, Value | undefined>;
}

export class Evaluator {
  env: Env = new Map();
  scope: Scope;
  /** The query's own scope: only here may constant rules come from, or go to, the policy's memo. */
  private readonly rootScope: Scope;
  private readonly bctx: BuiltinContext;

  constructor(
    private readonly root: RuleNode,
    private readonly data: Value,
    input: Value | undefined,
    private readonly opts: EvalOptions,
  ) {
    this.scope = this.rootScope = { input, dataOverrides: new Map(), mocks: new Map(), cache: new Map() };
    this.bctx = { now: opts.now ?? BigInt(Date.now()) * 1_000_000n, strict: opts.strict, memo: new Map() };
  }

  // ---- bodies and expressions ----

  *body(body: Expr[], i = 0): Generator<void> {
    if (i === body.length) {
      yield;
      return;
    }
    const e = body[i]!;
    yield* this.and(this.expr(e), () => this.body(body, i + 1));
  }

  private *expr(e: Expr): Generator<void> {
    this.opts.budget.step(e.loc);
    if (e.with.length > 0) {
      yield* this.withScope(e.with, () => this.exprInner(e));
      return;
    }
    yield* this.exprInner(e);
  }

  private *exprInner(e: Expr): Generator<void> {
    switch (e.type) {
      case 'some': {
        // `some x` declares fresh locals: hide outer bindings of the same name while the rest runs
        const saved = e.vars.filter((v) => this.env.has(v)).map((v) => [v, this.env.get(v)!] as const);
        for (const [v] of saved) this.env.delete(v);
        try {
          yield;
        } finally {
          for (const [v, x] of saved) this.env.set(v, x);
        }
        return;
      }
      case 'term': {
        const one = this.single(e.term);
        if (one !== COMPLEX) {
          if (one !== undefined && one !== false) yield;
          return;
        }
        for (const v of this.term(e.term)) if (v !== false) yield;
        return;
      }
      case 'assign':
      case 'unify':
        yield* this.unify(e.left, e.right);
        return;
      case 'not': {
        const it = this.expr(e.expr);
        const r = it.next();
        it.return(undefined);
        if (r.done) yield;
        return;
      }
      case 'somein':
        for (const coll of this.term(e.collection)) {
          for (const [k, v] of members(coll)) {
            this.opts.budget.step(e.loc);
            if (e.key) {
              yield* this.and(this.unifyValue(e.key, k), () => this.unifyValue(e.value, v));
            } else yield* this.unifyValue(e.value, v);
          }
        }
        return;
      case 'every':
        for (const coll of this.term(e.collection)) {
          if (!(Array.isArray(coll) || coll instanceof RSet || coll instanceof RObject)) continue;
          let all = true;
          for (const [k, v] of members(coll)) {
            const keyVars = e.key ? varsOf(e.key) : [];
            const saved = [...keyVars, ...varsOf(e.value)].filter((n) => this.env.has(n)).map((n) => [n, this.env.get(n)!] as const);
            for (const [n] of saved) this.env.delete(n);
            let ok = false;
            try {
              const bind = e.key ? this.and(this.unifyValue(e.key, k), () => this.unifyValue(e.value, v)) : this.unifyValue(e.value, v);
              this.each(bind, () => {
                const it = this.body(e.body);
                ok = !it.next().done;
                it.return(undefined);
                return ok;
              });
            } finally {
              for (const [n, x] of saved) this.env.set(n, x);
            }
            if (!ok) {
              all = false;
              break;
            }
          }
          if (all) yield;
        }
        return;
    }
  }

  /** Conjunction: `then` runs once per solution of `first` (both unbind on backtracking). */
  private *and<T>(first: Generator<void>, then: () => Generator<T>): Generator<T> {
    try {
      while (!first.next().done) yield* then();
    } finally {
      first.return(undefined);
    }
  }

  /** Runs `f` once per solution of `gen`, eagerly; `f` returning true stops early. */
  each(gen: Generator<void>, f: () => boolean | void): void {
    try {
      while (!gen.next().done) if (f() === true) return;
    } finally {
      gen.return(undefined);
    }
  }

  // ---- with ----

  /** Runs the expression in a scope changed by its `with` modifiers; the rest of the body runs in the outer one. */
  private *withScope(withs: With[], inner: () => Generator<void>): Generator<void> {
    const outer = this.scope;
    let s = outer;
    for (const w of withs) s = this.applyWith(s, w, this.isFunctionRef(w.value) ? null : this.first(w.value));
    const it = inner();
    try {
      for (;;) {
        this.scope = s;
        let r: IteratorResult<void>;
        try {
          r = it.next();
        } finally {
          this.scope = outer;
        }
        if (r.done) return;
        yield;
      }
    } finally {
      this.scope = s;
      try {
        it.return(undefined);
      } finally {
        this.scope = outer;
      }
    }
  }

  private applyWith(outer: Scope, w: With, v: Value): Scope {
    const s: Scope = { input: outer.input, dataOverrides: new Map(outer.dataOverrides), mocks: new Map(outer.mocks), cache: new Map() };
    const t = w.target;
    const headName = t.type === 'var' ? t.name : t.type === 'ref' && t.head.type === 'var' ? t.head.name : '';
    const path = t.type === 'ref' ? t.path.map((p) => (p.type === 'scalar' ? (p.value as Value) : this.first(p))) : [];
    if (headName === 'input') {
      s.input = path.length === 0 ? v : setPath(outer.input, path, v);
      return s;
    }
    if (headName === 'data') {
      const strs = path.map(String);
      const node = this.node(strs);
      if (node && node.rules.some((r) => r.kind === 'function')) {
        s.mocks.set('data.' + strs.join('.'), this.mockOf(w.value, v));
        return s;
      }
      s.dataOverrides.set(strs.join('\u0000'), { path: strs, value: v });
      return s;
    }
    const name = refName(t);
    if (name) s.mocks.set(name, this.mockOf(w.value, v));
    return s;
  }

  private isFunctionRef(t: Term): boolean {
    const name = refName(t);
    if (!name || (t.type === 'var' && this.env.has(t.name))) return false;
    if (BUILTINS.has(name)) return true;
    const n = name.startsWith('data.') ? this.node(name.split('.').slice(1)) : undefined;
    return !!n && (n.rules.some((r) => r.kind === 'function') || n.defaultRule?.kind === 'function');
  }

  private mockOf(t: Term, v: Value): { value?: Value; fn?: Term } {
    return this.isFunctionRef(t) ? { fn: t } : { value: v };
  }

  private first(t: Term): Value {
    for (const v of this.term(t)) return v;
    throw new RegoError('eval_type_error', 'with target path is undefined', t.loc);
  }

  // ---- unification ----

  private isUnbound(t: Term): boolean {
    return t.type === 'var' && !this.env.has(t.name) && t.name !== 'input' && t.name !== 'data';
  }

  private isPattern(t: Term): boolean {
    if (this.isUnbound(t)) return true;
    if (t.type === 'array') return t.items.some((x) => this.isPattern(x));
    if (t.type === 'object') return t.items.some(([, v]) => this.isPattern(v));
    return false;
  }

  *unify(a: Term, b: Term): Generator<void> {
    if (this.isPattern(a) && this.isPattern(b)) {
      if (a.type === 'array' && b.type === 'array') {
        if (a.items.length !== b.items.length) return;
        yield* this.unifyPairs(a.items.map((x, i) => [x, b.items[i]!] as [Term, Term]), 0);
        return;
      }
      if (a.type === 'object' && b.type === 'object') {
        if (a.items.length !== b.items.length) return;
        const bk = new Map<string, Term>();
        for (const [k, v] of b.items) bk.set(keyOf(this.first(k)), v);
        const pairs: [Term, Term][] = [];
        for (const [k, v] of a.items) {
          const o = bk.get(keyOf(this.first(k)));
          if (!o) return;
          pairs.push([v, o]);
        }
        yield* this.unifyPairs(pairs, 0);
        return;
      }
      if (this.isUnbound(a) || this.isUnbound(b)) {
        const [u, other] = this.isUnbound(a) ? [a, b] : [b, a];
        throw new RegoError('rego_unsafe_var_error', `var ${u.type === 'var' ? u.name : ''} is unsafe`, other.loc);
      }
      return;
    }
    const [pattern, other] = this.isPattern(a) ? [a, b] : [b, a];
    const one = this.single(other);
    if (one !== COMPLEX) {
      if (one !== undefined) yield* this.unifyValue(pattern, one);
      return;
    }
    for (const v of this.term(other)) yield* this.unifyValue(pattern, v);
  }

  private *unifyPairs(pairs: [Term, Term][], i: number): Generator<void> {
    if (i === pairs.length) {
      yield;
      return;
    }
    yield* this.and(this.unify(pairs[i]![0], pairs[i]![1]), () => this.unifyPairs(pairs, i + 1));
  }

  /** Matches a term against a value, binding the term's unbound vars. */
  *unifyValue(t: Term, v: Value): Generator<void> {
    if (t.type === 'var' && t.name !== 'input' && t.name !== 'data') {
      if (this.env.has(t.name)) {
        if (equal(this.env.get(t.name)!, v)) yield;
        return;
      }
      this.env.set(t.name, v);
      try {
        yield;
      } finally {
        this.env.delete(t.name);
      }
      return;
    }
    if (t.type === 'array' && this.isPattern(t)) {
      if (!Array.isArray(v) || v.length !== t.items.length) return;
      yield* this.unifyItems(t.items, v, 0);
      return;
    }
    if (t.type === 'object' && this.isPattern(t)) {
      if (!(v instanceof RObject) || v.size !== t.items.length) return;
      const vals: Value[] = [];
      for (const [k] of t.items) {
        const kv = this.first(k);
        const x = v.get(kv);
        if (x === undefined) return;
        vals.push(x);
      }
      yield* this.unifyItems(
        t.items.map(([, x]) => x),
        vals,
        0,
      );
      return;
    }
    for (const x of this.term(t)) if (equal(x, v)) yield;
  }

  private *unifyItems(ts: Term[], vs: Value[], i: number): Generator<void> {
    if (i === ts.length) {
      yield;
      return;
    }
    yield* this.and(this.unifyValue(ts[i]!, vs[i]!), () => this.unifyItems(ts, vs, i + 1));
  }

  // ---- terms ----

  /** Every value a term can take (refs with unbound vars iterate and bind them). */
  *term(t: Term): Generator<Value> {
    switch (t.type) {
      case 'scalar':
        yield t.value;
        return;
      case 'var': {
        const v = this.env.get(t.name);
        if (v !== undefined) {
          yield v;
          return;
        }
        if (t.name === 'input') {
          if (this.scope.input !== undefined) yield this.scope.input;
          return;
        }
        if (t.name === 'data') {
          const d = this.dataDoc([], this.root, this.data);
          if (d !== undefined) yield d;
          return;
        }
        throw new RegoError('rego_unsafe_var_error', `var ${t.name.startsWith('_$') ? '_' : t.name} is unsafe`, t.loc);
      }
      case 'ref':
        yield* this.ref(t);
        return;
      case 'array': {
        const g = groundValue(t);
        if (g !== undefined) {
          yield g;
          return;
        }
        yield* this.terms(t.items, 0, []);
        return;
      }
      case 'set':
        for (const items of this.terms(t.items, 0, [])) yield new RSet(items);
        return;
      case 'object': {
        const g = groundValue(t);
        if (g !== undefined) {
          yield g;
          return;
        }
        const flat = t.items.flat();
        for (const vals of this.terms(flat, 0, [])) {
          const o = new RObject();
          for (let i = 0; i < vals.length; i += 2) o.set(vals[i]!, vals[i + 1]!);
          yield o;
        }
        return;
      }
      case 'call':
        yield* this.call(t);
        return;
      case 'arraycomp': {
        const out: Value[] = [];
        this.each(this.body(t.body), () => {
          for (const v of this.term(t.term)) out.push(v);
          this.opts.budget.output(out.length, t.loc);
        });
        yield out;
        return;
      }
      case 'setcomp': {
        const out = new RSet();
        this.each(this.body(t.body), () => {
          for (const v of this.term(t.term)) out.add(v);
          this.opts.budget.output(out.size, t.loc);
        });
        yield out;
        return;
      }
      case 'objectcomp': {
        const out = new RObject();
        this.each(this.body(t.body), () => {
          for (const k of this.term(t.key))
            for (const v of this.term(t.value)) {
              const old = out.get(k);
              if (old !== undefined && !equal(old, v)) throw new RegoError('eval_conflict_error', 'object keys must be unique', t.loc);
              out.set(k, v);
            }
          this.opts.budget.output(out.size, t.loc);
        });
        yield out;
        return;
      }
      case 'template': {
        let s = '';
        for (const p of t.parts) {
          if (typeof p === 'string') {
            s += p;
            continue;
          }
          const vals = [...this.term(p)];
          if (vals.length === 0) s += '<undefined>';
          else if (vals.length > 1) throw new RegoError('eval_conflict_error', 'template expression produced multiple outputs', p.loc);
          else s += typeof vals[0] === 'string' ? vals[0] : formatRego(vals[0]!);
        }
        yield s;
        return;
      }
    }
  }

  /**
   * The value of a term that has at most one and binds nothing (a scalar, a bound var, `input`, or a ground
   * ref from one of those or to a leaf rule), taken without a generator; undefined when it has none, COMPLEX
   * when the term needs the general evaluation.
   */
  private single(t: Term): Value | undefined | typeof COMPLEX {
    switch (t.type) {
      case 'scalar':
        return t.value;
      case 'var':
        return this.env.get(t.name) ?? COMPLEX;
      case 'ref': {
        const h = t.head;
        if (h.type !== 'var' || !t.path.every((p) => p.type === 'scalar')) return COMPLEX;
        const local = this.env.has(h.name);
        const hit = !local && h.name === 'data' && this.scope.dataOverrides.size === 0 ? leafRuleOf(this.root, t) : undefined;
        if (!local && h.name !== 'input' && !hit) return COMPLEX;
        this.opts.budget.step(t.loc);
        let v = local ? this.env.get(h.name) : hit ? this.ruleValue(hit.node) : this.scope.input;
        for (let i = hit?.next ?? 0; i < t.path.length && v !== undefined; i++) v = lookup(v, (t.path[i] as { value: Value }).value);
        return v;
      }
      case 'call': {
        // a call of a function of one value (not the `walk` relation, no mocks in force, no output argument)
        // whose arguments are all single is single too; arguments are checked before any is evaluated
        if (this.scope.mocks.size > 0 || !t.args.every((a) => this.isSingle(a))) return COMPLEX;
        const name = calleeName(t.fn);
        if (name === undefined || name === 'walk' || this.arity(name) !== t.args.length) return COMPLEX;
        this.opts.budget.step(t.loc);
        const args: Value[] = [];
        for (const a of t.args) {
          const v = this.single(a);
          if (v === undefined || v === COMPLEX) return undefined;
          args.push(v);
        }
        const r = this.invoke(name, args, t.loc);
        return r instanceof MultiResult ? COMPLEX : r;
      }
      default:
        return COMPLEX;
    }
  }

  /** Whether `single` takes this term without the general evaluation (decided without evaluating it). */
  private isSingle(t: Term): boolean {
    switch (t.type) {
      case 'scalar':
        return true;
      case 'var':
        return this.env.has(t.name);
      case 'ref': {
        const h = t.head;
        if (h.type !== 'var' || !t.path.every((p) => p.type === 'scalar')) return false;
        if (this.env.has(h.name) || h.name === 'input') return true;
        return h.name === 'data' && this.scope.dataOverrides.size === 0 && !!leafRuleOf(this.root, t);
      }
      case 'call':
        return t.args.every((a) => this.isSingle(a));
      default:
        return false;
    }
  }

  private *terms(ts: Term[], i: number, acc: Value[]): Generator<Value[]> {
    // scalars and bound vars have one value and bind nothing: take them in a loop, not a generator level each
    // (every tuple yielded from a nested generator pays one hop per level)
    for (; i < ts.length; i++) {
      const v = this.single(ts[i]!);
      if (v === COMPLEX) break;
      if (v === undefined) return;
      acc.push(v);
    }
    if (i === ts.length) {
      yield acc.slice();
      return;
    }
    const start = acc.length;
    for (const v of this.term(ts[i]!)) {
      acc.push(v);
      yield* this.terms(ts, i + 1, acc);
      acc.length = start;
    }
  }

  // ---- refs ----

  private *ref(t: Extract<Term, { type: 'ref' }>): Generator<Value> {
    this.opts.budget.step(t.loc);
    const h = t.head;
    if (h.type === 'var' && h.name === 'data' && !this.env.has('data')) {
      const hit = this.scope.dataOverrides.size === 0 ? leafRuleOf(this.root, t) : undefined;
      if (hit) {
        const v = this.ruleValue(hit.node);
        if (v !== undefined) yield* this.walk(v, t.path, hit.next);
        return;
      }
      yield* this.dataRef(t.path, 0, [], this.root, this.data);
      return;
    }
    for (const base of this.term(h)) yield* this.walk(base, t.path, 0);
  }

  /** Walks a plain value along ref path terms from index i. */
  private *walk(v: Value, path: Term[], i: number): Generator<Value> {
    // ground keys step in a loop: a nested generator per key would cost every yielded value one hop per key
    for (; i < path.length; i++) {
      const k = path[i]!;
      if (k.type !== 'scalar') break;
      const child = lookup(v, k.value);
      if (child === undefined) return;
      v = child;
    }
    if (i === path.length) {
      yield v;
      return;
    }
    const k = path[i]!;
    if (this.isPattern(k)) {
      for (const [key, child] of members(v)) {
        this.opts.budget.step(k.loc);
        yield* this.and(this.unifyValue(k, key), () => this.walk(child, path, i + 1));
      }
      return;
    }
    for (const key of this.term(k)) {
      const child = lookup(v, key);
      if (child !== undefined) yield* this.walk(child, path, i + 1);
    }
  }

  private override(path: string[]): Value | undefined {
    if (this.scope.dataOverrides.size === 0) return undefined;
    return this.scope.dataOverrides.get(path.join('\u0000'))?.value;
  }

  /** Walks `data`: rule tree node and base document together. */
  private *dataRef(path: Term[], i: number, at: string[], node: RuleNode | undefined, base: Value | undefined): Generator<Value> {
    // ground keys above the rules step in a loop, for the same reason as in walk
    for (;;) {
      const ov = this.override(at);
      if (ov !== undefined) {
        yield* this.walk(ov, path, i);
        return;
      }
      if (!node || i === path.length || node.rules.length > 0 || node.defaultRule) break;
      const k = path[i]!;
      if (k.type !== 'scalar' || typeof k.value !== 'string') break;
      node = node.children.get(k.value);
      base = base instanceof RObject ? base.get(k.value) : undefined;
      at = [...at, k.value];
      i++;
    }
    if (!node) {
      if (base !== undefined && !this.overridesBelow(at)) yield* this.walk(base, path, i);
      else if (this.overridesBelow(at)) {
        const d = this.dataDoc(at, undefined, base);
        if (d !== undefined) yield* this.walk(d, path, i);
      }
      return;
    }
    if (i === path.length) {
      const d = this.dataDoc(at, node, base);
      if (d !== undefined) yield d;
      return;
    }
    const k = path[i]!;
    if (node.rules.length > 0 || node.defaultRule) {
      if (isFunctionNode(node)) return;
      const d = this.dataDoc(at, node, base);
      if (d !== undefined) yield* this.walk(d, path, i);
      return;
    }
    if (this.isPattern(k)) {
      const d = this.dataDoc(at, node, base);
      if (d !== undefined) yield* this.walk(d, path, i);
      return;
    }
    for (const key of k.type === 'scalar' ? [k.value] : this.term(k)) {
      if (typeof key !== 'string') {
        // base documents are JSON: a number key reaches the object key with the same text
        if (typeof key === 'number' && base instanceof RObject) {
          const b = base.get(String(key));
          if (b !== undefined) yield* this.walk(b, path, i + 1);
        }
        continue;
      }
      const child = node.children.get(key);
      const b = base instanceof RObject ? base.get(key) : undefined;
      yield* this.dataRef(path, i + 1, [...at, key], child, b);
    }
  }

  private overridesBelow(at: string[]): boolean {
    if (this.scope.dataOverrides.size === 0) return false;
    const prefix = at.join('\u0000');
    for (const k of this.scope.dataOverrides.keys()) if (k.startsWith(prefix)) return true;
    return false;
  }

  private node(path: string[]): RuleNode | undefined {
    let n: RuleNode | undefined = this.root;
    for (const p of path) {
      n = n?.children.get(p);
      if (!n) return undefined;
    }
    return n;
  }

  /** The whole document at a data path: base data merged with the rules beneath, with overrides applied. */
  private dataDoc(at: string[], node: RuleNode | undefined, base: Value | undefined): Value | undefined {
    const ov = this.override(at);
    if (ov !== undefined) return ov;
    let own: Value | undefined;
    if (node && (node.rules.length > 0 || node.defaultRule)) {
      if (isFunctionNode(node)) return undefined;
      own = this.ruleValue(node);
      if (node.children.size === 0) return own;
    }
    const hasBelow = (node && node.children.size > 0) || this.overridesBelow(at);
    // an empty package (or a rule-less path) is an empty document
    if (!hasBelow) return own ?? base ?? (node && node.rules.length === 0 && !node.defaultRule ? new RObject() : undefined);
    const out = new RObject();
    const seed = own ?? base;
    if (seed instanceof RObject) for (const [k, v] of seed.entries()) out.set(k, v);
    else if (seed !== undefined) return seed;
    if (node) {
      for (const [k, child] of node.children) {
        const v = this.dataDoc([...at, k], child, base instanceof RObject ? base.get(k) : undefined);
        if (v !== undefined) {
          const old = out.get(k);
          out.set(k, old === undefined ? v : mergeDocs(old, v, own !== undefined, child.rules[0]?.loc));
        }
      }
    }
    for (const { path, value } of this.scope.dataOverrides.values()) {
      if (path.length > at.length && at.every((p, j) => path[j] === p)) {
        const rest = path.slice(at.length);
        const merged = setPath(out, rest, value);
        if (merged instanceof RObject) for (const [k, v] of merged.entries()) out.set(k, v);
      }
    }
    return out;
  }

  // ---- rules ----

  private ruleValue(node: RuleNode): Value | undefined {
    const cached = this.scope.cache.get(node);
    if (cached !== undefined || this.scope.cache.has(node)) return cached;
    const memo = this.scope === this.rootScope && this.opts.constants?.rules.has(node) ? this.opts.constants.values : undefined;
    if (memo?.has(node)) return memo.get(node);
    const rule0 = node.rules[0] ?? node.defaultRule!;
    this.opts.budget.enter(rule0.loc);
    const savedEnv = this.env;
    try {
      const v = this.computeRule(node);
      this.scope.cache.set(node, v);
      memo?.set(node, v);
      return v;
    } finally {
      this.env = savedEnv;
      this.opts.budget.leave();
    }
  }

  private computeRule(node: RuleNode): Value | undefined {
    const rules = node.rules;
    const kind = rules[0]?.kind ?? 'complete';
    if (kind === 'complete') {
      let result: Value | undefined;
      let resultRule: Rule | undefined;
      for (const r of rules) {
        for (const v of this.ruleOutputs(r)) {
          if (result !== undefined && !equal(result, v)) throw new RegoError('eval_conflict_error', 'complete rules must not produce multiple outputs', (resultRule === r ? r : r).loc);
          result = v;
          resultRule = r;
        }
      }
      if (result === undefined && node.defaultRule) {
        this.env = new Map();
        for (const v of this.term(node.defaultRule.value)) return v;
      }
      return result;
    }
    // partial sets and objects (possibly with several key levels)
    let out: Value = kind === 'set' && rules.every((r) => r.keys.length === 0) ? new RSet() : new RObject();
    for (const r of rules) {
      this.env = new Map();
      this.each(this.body(r.body), () => {
        if (r.kind === 'set' && r.keys.length === 0) {
          for (const v of this.term(r.value)) (out as RSet).add(v);
          this.opts.budget.output((out as RSet).size, r.loc);
          return;
        }
        for (const keys of this.terms(r.keys, 0, [])) for (const v of this.term(r.value)) out = insertPath(out as RObject, keys, v, r);
        this.opts.budget.output((out as RObject).size, r.loc);
      });
    }
    return out;
  }

  /** Distinct values one complete rule (with its else chain) produces. */
  private ruleOutputs(r: Rule): Value[] {
    const chain = [{ value: r.value, body: r.body }, ...r.elses];
    for (const c of chain) {
      this.env = new Map();
      const out: Value[] = [];
      let any = false;
      this.each(this.body(c.body), () => {
        any = true;
        for (const v of this.term(c.value)) if (!out.some((o) => equal(o, v))) out.push(v);
      });
      if (any) return out;
    }
    return [];
  }

  // ---- calls ----

  private *call(t: Extract<Term, { type: 'call' }>): Generator<Value> {
    this.opts.budget.step(t.loc);
    const name = calleeName(t.fn);
    if (name === undefined) throw new RegoError('rego_compile_error', 'invalid function call', t.loc);
    for (const args of this.callArgs(t.args.filter((_, i) => !this.isOutputArg(name, t.args, i)))) {
      const result = this.invoke(name, args, t.loc);
      if (result === undefined) continue;
      const multi = result instanceof MultiResult ? result.values : [result];
      for (const r of multi) {
        if (t.args.length > args.length) {
          yield* this.and(this.unifyValue(t.args[t.args.length - 1]!, r), function* () {
            yield true as Value;
          });
        } else yield r;
      }
    }
  }

  /** Argument values, evaluating unbound-var arguments after the others (which may bind them). */
  private *callArgs(args: Term[]): Generator<Value[]> {
    const late = args.map((a) => this.isUnbound(a));
    if (!late.some(Boolean)) {
      yield* this.terms(args, 0, []);
      return;
    }
    const order = [...args.keys()].sort((a, b) => Number(late[a]) - Number(late[b]));
    for (const vals of this.terms(order.map((i) => args[i]!), 0, [])) {
      const out: Value[] = new Array<Value>(args.length);
      order.forEach((i, j) => (out[i] = vals[j]!));
      yield out;
    }
  }

  private arity(name: string): number | undefined {
    const b = BUILTINS.get(name);
    if (b && !this.scope.mocks.has(name)) return b.arity;
    if (name.startsWith('data.')) {
      const n = this.node(name.split('.').slice(1));
      const r = n?.rules[0] ?? n?.defaultRule;
      if (r?.args) return r.args.length;
    }
    return b?.arity;
  }

  private isOutputArg(name: string, args: Term[], i: number): boolean {
    const ar = this.arity(name);
    return ar !== undefined && i === ar && args.length === ar + 1;
  }

  invoke(name: string, args: Value[], loc: Location): Value | MultiResult | undefined {
    const mock = this.scope.mocks.get(name);
    if (mock) {
      if (mock.value !== undefined) return mock.value;
      const target = refName(mock.fn!)!;
      // a mock's own calls see the builtin, not the mock
      const saved = this.scope;
      this.scope = { ...saved, mocks: new Map([...saved.mocks].filter(([k]) => k !== name)) };
      try {
        return this.invoke(target, args, loc);
      } finally {
        this.scope = saved;
      }
    }
    if (name.startsWith('data.')) {
      const path = name.split('.').slice(1);
      const node = this.node(path);
      if (node && (node.rules.some((r) => r.kind === 'function') || node.defaultRule?.kind === 'function')) return this.callFunction(node, args, loc);
      if (!node && !BUILTINS.has(name)) throw new RegoError('rego_compile_error', `undefined function ${name}`, loc);
    }
    const b = BUILTINS.get(name);
    if (!b) throw new RegoError('rego_compile_error', `undefined function ${name}`, loc);
    try {
      const r = b.fn(args, this.bctx);
      return r;
    } catch (err) {
      if (err instanceof BuiltinError) {
        if (this.opts.strict) throw new RegoError(err.code, err.message, loc);
        return undefined;
      }
      if (err instanceof RegoError) throw err;
      if (this.opts.strict) throw new RegoError('eval_builtin_error', `${name}: ${(err as Error).message}`, loc);
      return undefined;
    }
  }

  private callFunction(node: RuleNode, args: Value[], loc: Location): Value | undefined {
    this.opts.budget.enter(loc);
    const savedEnv = this.env;
    try {
      let result: Value | undefined;
      for (const r of node.rules) {
        const chain = [{ value: r.value, body: r.body }, ...r.elses];
        for (const c of chain) {
          this.env = new Map();
          let any = false;
          this.each(this.and(this.unifyItems(r.args!, args, 0), () => this.body(c.body)), () => {
            any = true;
            for (const v of this.term(c.value)) {
              if (result !== undefined && !equal(result, v)) throw new RegoError('eval_conflict_error', 'functions must not produce multiple outputs for same inputs', r.loc);
              result = v;
            }
          });
          if (any) break;
        }
      }
      if (result === undefined && node.defaultRule) {
        this.env = new Map();
        for (const v of this.term(node.defaultRule.value)) return v;
      }
      return result;
    } finally {
      this.env = savedEnv;
      this.opts.budget.leave();
    }
  }
}

/**
 * Array and object literals of scalars only (action triples, tables) are built once per syntax tree, not once
 * per evaluation; values are never mutated once made, so sharing them is safe. `null` marks a non-ground literal.
 */
const groundLiterals = new WeakMap<Term, Value | null>();

function groundValue(t: Extract<Term, { type: 'array' | 'object' }>): Value | undefined {
  let v = groundLiterals.get(t);
  if (v === undefined) {
    v = null;
    if (t.type === 'array' && t.items.every((x) => x.type === 'scalar')) v = t.items.map((x) => (x as { value: Value }).value);
    if (t.type === 'object' && t.items.every(([k, x]) => k.type === 'scalar' && x.type === 'scalar')) {
      const o = new RObject();
      for (const [k, x] of t.items) o.set((k as { value: Value }).value, (x as { value: Value }).value);
      v = o;
    }
    groundLiterals.set(t, v);
  }
  return v ?? undefined;
}

/** `Evaluator.single`'s answer for a term that needs the general, generator-based evaluation. */
const COMPLEX = Symbol('complex');

/**
 * The rule a `data.…` ref names by ground keys, when that rule has nothing beneath it and is not a function:
 * then (without `with data` overrides) the ref is that rule's value walked by the rest of the path, and the
 * tree walk is done once per syntax tree. Null when the ref needs the general walk.
 */
const leafRules = new WeakMap<Term, { node: RuleNode; next: number } | null>();

function leafRuleOf(root: RuleNode, t: Extract<Term, { type: 'ref' }>): { node: RuleNode; next: number } | undefined {
  let hit = leafRules.get(t);
  if (hit === undefined) {
    hit = null;
    let node: RuleNode | undefined = root;
    for (let i = 0; i < t.path.length && node; i++) {
      const k = t.path[i]!;
      if (k.type !== 'scalar' || typeof k.value !== 'string') break;
      node = node.children.get(k.value);
      if (node && (node.rules.length > 0 || node.defaultRule)) {
        if (node.children.size === 0 && !isFunctionNode(node)) hit = { node, next: i + 1 };
        break;
      }
    }
    leafRules.set(t, hit);
  }
  return hit ?? undefined;
}

/** A call's function name, joined once per syntax tree (calls are the hot path of most policies). */
const calleeNames = new WeakMap<Term, string | null>();

function calleeName(fn: Term): string | undefined {
  let name = calleeNames.get(fn);
  if (name === undefined) calleeNames.set(fn, (name = refName(fn) ?? null));
  return name ?? undefined;
}

function isFunctionNode(node: RuleNode): boolean {
  return node.rules.some((r) => r.kind === 'function') || node.defaultRule?.kind === 'function';
}

/**
 * Two documents at one path: objects merge and sets unite. Where two rules give different values the query
 * fails with eval_conflict_error; where a rule meets base data, the base document wins, as in OPA.
 */
function mergeDocs(a: Value, b: Value, virtual: boolean, loc: Location | undefined): Value {
  if (a instanceof RObject && b instanceof RObject) {
    const out = new RObject(a.entries());
    for (const [k, v] of b.entries()) {
      const old = out.get(k);
      out.set(k, old === undefined ? v : mergeDocs(old, v, virtual, loc));
    }
    return out;
  }
  if (a instanceof RSet && b instanceof RSet) return new RSet([...a.values(), ...b.values()]);
  if (equal(a, b) || !virtual) return a;
  throw new RegoError('eval_conflict_error', 'object keys must be unique', loc);
}

function varsOf(t: Term): string[] {
  const out: string[] = [];
  const rec = (x: Term): void => {
    if (x.type === 'var') out.push(x.name);
    else if (x.type === 'array') x.items.forEach(rec);
    else if (x.type === 'object') x.items.forEach(([, v]) => rec(v));
  };
  rec(t);
  return out;
}

/** A copy of `base` with `value` at `path` (objects created along the way). */
function setPath(base: Value | undefined, path: Value[], value: Value): Value {
  if (path.length === 0) return value;
  const [k, ...rest] = path;
  const o = new RObject(base instanceof RObject ? base.entries() : []);
  o.set(k!, setPath(o.get(k!), rest, value));
  return o;
}

function insertPath(out: RObject, keys: Value[], v: Value, r: Rule): RObject {
  let o = out;
  for (let i = 0; i < keys.length - 1; i++) {
    let next = o.get(keys[i]!);
    if (next === undefined) o.set(keys[i]!, (next = new RObject()));
    if (!(next instanceof RObject)) throw new RegoError('eval_conflict_error', 'object keys must be unique', r.loc);
    o = next;
  }
  const last = keys[keys.length - 1]!;
  if (r.kind === 'set') {
    let s = o.get(last);
    if (s === undefined) o.set(last, (s = new RSet()));
    if (s instanceof RSet) s.add(v);
    return out;
  }
  const old = o.get(last);
  if (old !== undefined && !equal(old, v)) throw new RegoError('eval_conflict_error', 'object keys must be unique', r.loc);
  o.set(last, v);
  return out;
}

