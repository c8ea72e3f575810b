// Rego compiler: modules → a rule tree under `data` (rules grouped by their full path, so a ref walks to its
// rules in one step), with each rule's free names resolved (package rules and imports become `data.…` refs,
// `_` becomes a fresh var) and its body reordered so every var is bound before it is read. Checks: rule kinds
// that clash at one path, and unsafe vars are reported as rego_compile_error with file:line:col.

import type { Expr, Module, Rule, Term } from './ast.js';
import { RegoError } from './errors.js';
import { parseModule } from './parser.js';

export interface RuleNode {
  children: Map<string, RuleNode>;
  rules: Rule[];
  /** Default rule at this path (complete rules and functions). */
  defaultRule?: Rule;
}

export interface Compiled {
  root: RuleNode;
  modules: Module[];
}

export interface SourceFile {
  file: string;
  source: string;
}

export function newNode(): RuleNode {
  return { children: new Map(), rules: [] };
}

export function compileModules(files: SourceFile[]): Compiled {
  const modules = files.map((f) => parseModule(f.file, f.source));
  const root = newNode();
  // names of each package's rules (first path segment), for resolving free vars in rule bodies
  const pkgNames = new Map<string, Set<string>>();
  for (const m of modules) {
    const key = m.pkg.join('.');
    const set = pkgNames.get(key) ?? new Set<string>();
    for (const r of m.rules) set.add(r.path[0]!);
    pkgNames.set(key, set);
  }
  for (const m of modules) {
    // an empty package is still a document ({})
    let pnode = root;
    for (const seg of m.pkg) {
      let child = pnode.children.get(seg);
      if (!child) pnode.children.set(seg, (child = newNode()));
      pnode = child;
    }
    const names = pkgNames.get(m.pkg.join('.'))!;
    const imports = new Map<string, Term>();
    for (const imp of m.imports) {
      const t = imp.path;
      const head = t.type === 'var' ? t.name : t.type === 'ref' && t.head.type === 'var' ? t.head.name : '';
      if (head !== 'data' && head !== 'input') continue; // rego.v1, future.keywords
      const last = t.type === 'ref' ? t.path[t.path.length - 1] : undefined;
      const alias = imp.alias ?? (last && last.type === 'scalar' ? String(last.value) : head);
      imports.set(alias, t);
    }
    for (const r of m.rules) {
      resolveRule(r, m.pkg, names, imports);
      let node = root;
      for (const seg of ['data', ...m.pkg, ...r.path].slice(1)) {
        let child = node.children.get(seg);
        if (!child) node.children.set(seg, (child = newNode()));
        node = child;
      }
      if (r.isDefault) node.defaultRule = r;
      else node.rules.push(r);
    }
  }
  checkKinds(root, ['data']);
  checkRecursion(root);
  return { root, modules };
}

/** The rule paths a rule reads through ground `data.…` refs (a ref to a package reads every rule in it). */
function dependencies(root: RuleNode, r: Rule): string[] {
  const out = new Set<string>();
  const visit = (t: Term): void =>
    walkTerm(t, (x) => {
      const ref = x.type === 'ref' ? x : x.type === 'call' && x.fn.type === 'ref' ? x.fn : undefined;
      if (!ref || ref.head.type !== 'var' || ref.head.name !== 'data') return;
      let node: RuleNode | undefined = root;
      const path: string[] = [];
      for (const p of ref.path) {
        // a dynamic key is resolved at evaluation (where the depth budget bounds it), not here
        if (p.type !== 'scalar' || typeof p.value !== 'string') return;
        node = node.children.get(p.value);
        if (!node) return;
        path.push(p.value);
        if (node.rules.length > 0 || node.defaultRule) {
          out.add(path.join('.'));
          return;
        }
      }
      // a ground ref that stops above the rules reads all of them
      const all = (n: RuleNode, at: string[]): void => {
        if (n.rules.length > 0 || n.defaultRule) out.add(at.join('.'));
        for (const [k, c] of n.children) all(c, [...at, k]);
      };
      all(node, path);
    });
  const visitBody = (body: Expr[]): void => body.forEach((e) => resolveExpr(e, (t) => (visit(t), t)));
  visit(r.value);
  r.keys.forEach(visit);
  visitBody(r.body);
  for (const e of r.elses) {
    visit(e.value);
    visitBody(e.body);
  }
  return [...out];
}

/** Rego forbids recursion: a rule that depends on itself is a rego_recursion_error at compile time. */
function checkRecursion(root: RuleNode): void {
  const rulesAt = new Map<string, Rule[]>();
  const collect = (n: RuleNode, at: string[]): void => {
    const rules = [...n.rules, ...(n.defaultRule ? [n.defaultRule] : [])];
    if (rules.length) rulesAt.set(at.join('.'), rules);
    for (const [k, c] of n.children) collect(c, [...at, k]);
  };
  collect(root, []);
  const deps = new Map<string, string[]>();
  for (const [path, rules] of rulesAt) deps.set(path, [...new Set(rules.flatMap((r) => dependencies(root, r)))]);
  const state = new Map<string, 'active' | 'done'>();
  const stack: string[] = [];
  const dfs = (p: string): void => {
    if (state.get(p) === 'done') return;
    if (state.get(p) === 'active') {
      const cycle = [...stack.slice(stack.indexOf(p)), p].map((x) => 'data.' + x);
      throw new RegoError('rego_recursion_error', `rule ${cycle[0]} is recursive: ${cycle.join(' -> ')}`, rulesAt.get(p)![0]!.loc);
    }
    state.set(p, 'active');
    stack.push(p);
    for (const d of deps.get(p) ?? []) dfs(d);
    stack.pop();
    state.set(p, 'done');
  };
  for (const p of rulesAt.keys()) dfs(p);
}

function checkKinds(node: RuleNode, path: string[]): void {
  const kinds = new Set(node.rules.map((r) => (r.kind === 'object' && r.keys.length > 0 ? 'object' : r.kind)));
  if (kinds.size > 1 && !(kinds.size === 2 && kinds.has('object') && kinds.has('set'))) {
    const r = node.rules[1]!;
    throw new RegoError('rego_compile_error', `conflicting rules ${path.join('.')} found`, r.loc);
  }
  for (const [k, c] of node.children) checkKinds(c, [...path, k]);
}

/** Names a rule's body declares (args, `some`, `:=`, `every` and `some … in` vars): they shadow package rules. */
function declaredNames(r: Rule): Set<string> {
  const out = new Set<string>();
  const addVars = (t: Term | undefined): void => {
    if (!t) return;
    walkTerm(t, (x) => {
      if (x.type === 'var') out.add(x.name);
    });
  };
  for (const a of r.args ?? []) addVars(a);
  const visitBody = (body: Expr[]): void => {
    for (const e of body) visitExpr(e);
  };
  const visitExpr = (e: Expr): void => {
    switch (e.type) {
      case 'some':
        e.vars.forEach((v) => out.add(v));
        break;
      case 'somein':
        addVars(e.key);
        addVars(e.value);
        visitTermBodies(e.collection);
        break;
      case 'every':
        addVars(e.key);
        addVars(e.value);
        visitBody(e.body);
        break;
      case 'assign':
        addVars(e.left);
        visitTermBodies(e.right);
        break;
      case 'not':
        visitExpr(e.expr);
        break;
      case 'unify':
        visitTermBodies(e.left);
        visitTermBodies(e.right);
        break;
      case 'term':
        visitTermBodies(e.term);
        break;
    }
  };
  const visitTermBodies = (t: Term): void =>
    walkTerm(t, (x) => {
      if (x.type === 'arraycomp' || x.type === 'setcomp' || x.type === 'objectcomp') visitBody(x.body);
    });
  visitBody(r.body);
  for (const e of r.elses) visitBody(e.body);
  return out;
}

export function walkTerm(t: Term, f: (t: Term) => void): void {
  f(t);
  switch (t.type) {
    case 'ref':
      walkTerm(t.head, f);
      t.path.forEach((p) => walkTerm(p, f));
      break;
    case 'array':
    case 'set':
      t.items.forEach((x) => walkTerm(x, f));
      break;
    case 'object':
      t.items.forEach(([k, v]) => {
        walkTerm(k, f);
        walkTerm(v, f);
      });
      break;
    case 'call':
      walkTerm(t.fn, f);
      t.args.forEach((x) => walkTerm(x, f));
      break;
    case 'arraycomp':
    case 'setcomp':
      walkTerm(t.term, f);
      break;
    case 'objectcomp':
      walkTerm(t.key, f);
      walkTerm(t.value, f);
      break;
    case 'template':
      t.parts.forEach((p) => typeof p !== 'string' && walkTerm(p, f));
      break;
  }
}

let wildcard = 0;

/** Rewrites a rule in place: free names that are package rules or imports become `data.…` refs. */
function resolveRule(r: Rule, pkg: string[], names: Set<string>, imports: Map<string, Term>): void {
  const locals = declaredNames(r);
  const resolve = (t: Term): Term => resolveTerm(t, (name, loc): Term | undefined => {
    if (locals.has(name) || name === 'input' || name === 'data') return undefined;
    const imp = imports.get(name);
    if (imp) return imp;
    if (names.has(name)) return { type: 'ref', head: { type: 'var', name: 'data', loc }, path: [...pkg, name].map((p): Term => ({ type: 'scalar', value: p, loc })), loc };
    return undefined;
  });
  const fix = (body: Expr[]): Expr[] => body.map((e) => resolveExpr(e, resolve));
  r.keys = r.keys.map(resolve);
  r.value = resolve(r.value);
  if (r.args) r.args = r.args.map((a) => resolveTerm(a, () => undefined));
  r.body = fix(r.body);
  r.elses = r.elses.map((e) => ({ ...e, value: resolve(e.value), body: fix(e.body) }));
}

export function resolveExpr(e: Expr, f: (t: Term) => Term): Expr {
  const withs = e.with.map((w) => ({ ...w, target: f(w.target), value: f(w.value) }));
  switch (e.type) {
    case 'term':
      return { ...e, term: f(e.term), with: withs };
    case 'assign':
    case 'unify':
      return { ...e, left: f(e.left), right: f(e.right), with: withs };
    case 'somein':
      return { ...e, ...(e.key ? { key: f(e.key) } : {}), value: f(e.value), collection: f(e.collection), with: withs };
    case 'every':
      return { ...e, ...(e.key ? { key: f(e.key) } : {}), value: f(e.value), collection: f(e.collection), body: e.body.map((x) => resolveExpr(x, f)), with: withs };
    case 'not':
      return { ...e, expr: resolveExpr(e.expr, f), with: withs };
    case 'some':
      return e;
  }
}

/** Replaces free vars by what `lookup` gives (undefined keeps the var) and `_` by fresh vars, recursively. */
export function resolveTerm(t: Term, lookup: (name: string, loc: Term['loc']) => Term | undefined): Term {
  const rec = (x: Term): Term => resolveTerm(x, lookup);
  switch (t.type) {
    case 'scalar':
      return t;
    case 'var': {
      if (t.name === '_') return { ...t, name: `_$${wildcard++}` };
      return lookup(t.name, t.loc) ?? t;
    }
    case 'ref': {
      const head = rec(t.head);
      const path = t.path.map(rec);
      if (head.type === 'ref') return { ...t, head: head.head, path: [...head.path, ...path] };
      return { ...t, head, path };
    }
    case 'array':
    case 'set':
      return { ...t, items: t.items.map(rec) };
    case 'object':
      return { ...t, items: t.items.map(([k, v]) => [rec(k), rec(v)] as [Term, Term]) };
    case 'call':
      return { ...t, fn: rec(t.fn), args: t.args.map(rec) };
    case 'arraycomp':
    case 'setcomp':
      return { ...t, term: rec(t.term), body: t.body.map((e) => resolveExpr(e, rec)) };
    case 'objectcomp':
      return { ...t, key: rec(t.key), value: rec(t.value), body: t.body.map((e) => resolveExpr(e, rec)) };
    case 'template':
      return { ...t, parts: t.parts.map((p) => (typeof p === 'string' ? p : rec(p))) };
  }
}
