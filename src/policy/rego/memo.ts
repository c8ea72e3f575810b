// Which rules a compiled policy may compute once and reuse across queries: those whose value depends only on
// the modules and the base document. A rule qualifies when nothing it reads, transitively, is `input`, a
// non-deterministic builtin, or a `with` modifier (which changes what a body sees). A `RegoPolicy` keeps the
// values of these rules (data changes build a new policy, so a new memo); queries under `with` bypass it.

import type { Expr, Rule, Term } from './ast.js';
import { BUILTINS } from './builtins/index.js';
import type { RuleNode } from './compiler.js';

/** Builtins whose answer is not a function of their arguments (time, randomness, the network, output). */
const NON_DETERMINISTIC = new Set([
  'time.now_ns',
  'rand.intn',
  'uuid.rfc4122',
  'http.send',
  'net.lookup_ip_addr',
  'opa.runtime',
  'io.jwt.decode_verify',
  'print',
  'trace',
]);

/** The rule nodes of a compiled tree whose value is the same for every input (see the file header). */
export function constantRules(root: RuleNode): Set<RuleNode> {
  const verdict = new Map<RuleNode, boolean>();
  const judge = (node: RuleNode): boolean => {
    const known = verdict.get(node);
    if (known !== undefined) return known;
    // recursion is a compile error, so a node met again while judging it cannot happen; assume not constant
    verdict.set(node, false);
    const rules = [...node.rules, ...(node.defaultRule ? [node.defaultRule] : [])];
    const ok = rules.every((r) => ruleIsConstant(r, root, judge));
    verdict.set(node, ok);
    return ok;
  };
  const out = new Set<RuleNode>();
  const visit = (n: RuleNode): void => {
    if ((n.rules.length > 0 || n.defaultRule) && judge(n)) out.add(n);
    for (const c of n.children.values()) visit(c);
  };
  visit(root);
  return out;
}

function ruleIsConstant(r: Rule, root: RuleNode, judge: (n: RuleNode) => boolean): boolean {
  const term = (t: Term): boolean => {
    switch (t.type) {
      case 'scalar':
        return true;
      case 'var':
        // `input` is the point; a bare `data` reads every rule, which is too broad to track
        return t.name !== 'input' && t.name !== 'data';
      case 'ref':
        if (t.head.type === 'var' && t.head.name === 'data') return dataRef(t.path) && t.path.every(term);
        return term(t.head) && t.path.every(term);
      case 'array':
      case 'set':
        return t.items.every(term);
      case 'object':
        return t.items.every(([k, v]) => term(k) && term(v));
      case 'call':
        return callee(t.fn) && t.args.every(term);
      case 'arraycomp':
      case 'setcomp':
        return term(t.term) && body(t.body);
      case 'objectcomp':
        return term(t.key) && term(t.value) && body(t.body);
      case 'template':
        return t.parts.every((p) => typeof p === 'string' || term(p));
    }
  };
  /** A `data.…` ref: constant when every rule it can reach is (a dynamic key above the rules reaches all below). */
  const dataRef = (path: Term[]): boolean => {
    let node: RuleNode | undefined = root;
    for (const p of path) {
      if (node.rules.length > 0 || node.defaultRule) return judge(node);
      if (p.type !== 'scalar' || typeof p.value !== 'string') return subtree(node);
      node = node.children.get(p.value);
      if (!node) return true; // base data only
    }
    return subtree(node);
  };
  const subtree = (n: RuleNode): boolean => (n.rules.length === 0 && !n.defaultRule ? true : judge(n)) && [...n.children.values()].every(subtree);
  const callee = (fn: Term): boolean => {
    if (fn.type === 'ref' && fn.head.type === 'var' && fn.head.name === 'data') return dataRef(fn.path);
    const name = fn.type === 'var' ? fn.name : fn.type === 'ref' && fn.head.type === 'var' && fn.path.every((p) => p.type === 'scalar') ? [fn.head.name, ...fn.path.map((p) => String((p as { value: unknown }).value))].join('.') : undefined;
    return name !== undefined && BUILTINS.has(name) && !NON_DETERMINISTIC.has(name);
  };
  const expr = (e: Expr): boolean => {
    if (e.with.length > 0) return false;
    switch (e.type) {
      case 'term':
        return term(e.term);
      case 'assign':
      case 'unify':
        return term(e.left) && term(e.right);
      case 'somein':
        return (!e.key || term(e.key)) && term(e.value) && term(e.collection);
      case 'every':
        return (!e.key || term(e.key)) && term(e.value) && term(e.collection) && body(e.body);
      case 'not':
        return expr(e.expr);
      case 'some':
        return true;
    }
  };
  const body = (b: Expr[]): boolean => b.every(expr);
  return term(r.value) && r.keys.every(term) && (r.args ?? []).every(term) && body(r.body) && r.elses.every((e) => term(e.value) && body(e.body));
}
