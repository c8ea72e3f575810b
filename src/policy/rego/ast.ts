// The Rego syntax tree the parser builds and the compiler and evaluator read. Every node carries its source
// location so errors can name file, line and column.

import type { Location } from './errors.js';
import type { Value } from './value.js';

export type Term =
  | { type: 'scalar'; value: Value; loc: Location }
  | { type: 'var'; name: string; loc: Location }
  | { type: 'ref'; head: Term; path: Term[]; loc: Location }
  | { type: 'array'; items: Term[]; loc: Location }
  | { type: 'set'; items: Term[]; loc: Location }
  | { type: 'object'; items: [Term, Term][]; loc: Location }
  | { type: 'call'; fn: Term; args: Term[]; loc: Location }
  | { type: 'arraycomp'; term: Term; body: Expr[]; loc: Location }
  | { type: 'setcomp'; term: Term; body: Expr[]; loc: Location }
  | { type: 'objectcomp'; key: Term; value: Term; body: Expr[]; loc: Location }
  | { type: 'template'; parts: (string | Term)[]; loc: Location };

export interface With {
  target: Term;
  value: Term;
  loc: Location;
}

export type Expr =
  | { type: 'term'; term: Term; negated: boolean; with: With[]; loc: Location }
  | { type: 'some'; vars: string[]; loc: Location; with: With[]; negated: false }
  | { type: 'somein'; key?: Term; value: Term; collection: Term; loc: Location; with: With[]; negated: boolean }
  | { type: 'every'; key?: Term; value: Term; collection: Term; body: Expr[]; loc: Location; with: With[]; negated: boolean }
  | { type: 'assign'; left: Term; right: Term; loc: Location; with: With[]; negated: boolean }
  | { type: 'unify'; left: Term; right: Term; loc: Location; with: With[]; negated: boolean }
  | { type: 'not'; expr: Expr; loc: Location; with: With[]; negated: false };

export type RuleKind = 'complete' | 'set' | 'object' | 'function';

export interface Rule {
  /** Ground path below the package, e.g. ['a', 'b'] for `a.b[x] := …`. */
  path: string[];
  /** Key terms after the ground path (object rules) — the set element lives in `value` for set rules. */
  keys: Term[];
  kind: RuleKind;
  isDefault: boolean;
  args?: Term[];
  value: Term;
  body: Expr[];
  elses: { value: Term; body: Expr[]; loc: Location }[];
  loc: Location;
  file: string;
  pkg: string[];
}

export interface Import {
  path: Term;
  alias?: string;
  loc: Location;
}

export interface Module {
  file: string;
  pkg: string[];
  imports: Import[];
  rules: Rule[];
}
