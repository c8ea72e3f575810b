// Rego v1 parser: tokens → Module (package, imports, rules) with source locations. Operators become calls of
// the builtins OPA maps them to (`a + b` → plus(a, b), `x in xs` → internal.member(x, xs)).

import type { Expr, Import, Module, Rule, Term, With } from './ast.js';
import { RegoError, type Location } from './errors.js';
import { holeEnd, lex, type Token } from './lexer.js';
import { normNum } from './value.js';

const KEYWORDS = new Set(['as', 'default', 'else', 'import', 'package', 'not', 'with', 'some', 'in', 'every', 'contains', 'if']);

const REL: Record<string, string> = { '==': 'equal', '!=': 'neq', '<': 'lt', '<=': 'lte', '>': 'gt', '>=': 'gte' };
const ARITH: Record<string, string> = { '+': 'plus', '-': 'minus' };
const FACTOR: Record<string, string> = { '*': 'mul', '/': 'div', '%': 'rem' };

export function parseModule(file: string, source: string): Module {
  return new Parser(file, lex(file, source)).module();
}

/** A query (body) such as `data.p.q = x; y := 1`. */
export function parseQuery(source: string, file = 'query'): Expr[] {
  const p = new Parser(file, lex(file, source));
  const body = p.bodyUntil('eof');
  return body;
}

/** A single term such as an `input_term`. */
export function parseTerm(source: string, file = 'term'): Term {
  const p = new Parser(file, lex(file, source));
  const t = p.term();
  p.expectEnd();
  return t;
}

export function callTerm(name: string, args: Term[], loc: Location): Term {
  const parts = name.split('.');
  const head: Term = { type: 'var', name: parts[0]!, loc };
  const fn: Term = parts.length === 1 ? head : { type: 'ref', head, path: parts.slice(1).map((s) => ({ type: 'scalar', value: s, loc })), loc };
  return { type: 'call', fn, args, loc };
}

class Parser {
  private pos = 0;
  /** >0 inside brackets/parens, where newlines are not separators. */
  private nlDepth = 0;

  constructor(
    private readonly file: string,
    private readonly toks: Token[],
  ) {}

  private fail(msg: string, loc?: Location): never {
    throw new RegoError('rego_parse_error', msg, loc ?? this.peek().loc);
  }

  private peek(offset = 0): Token {
    let i = this.pos;
    let seen = 0;
    for (;;) {
      const t = this.toks[i]!;
      if (t.kind === 'nl' && this.nlDepth > 0) {
        i++;
        continue;
      }
      if (seen === offset || t.kind === 'eof') return t;
      seen++;
      i++;
    }
  }

  private next(): Token {
    for (;;) {
      const t = this.toks[this.pos]!;
      if (t.kind === 'eof') return t;
      this.pos++;
      if (t.kind === 'nl' && this.nlDepth > 0) continue;
      return t;
    }
  }

  private isOp(text: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t.kind === 'op' && t.text === text;
  }

  /** Whether the next token is keyword `text` (not a ref that merely starts with it, as `not.foo`). */
  private isKw(text: string, offset = 0): boolean {
    const t = this.peek(offset);
    if (t.kind !== 'ident' || t.text !== text) return false;
    const i = this.toks.indexOf(t);
    const n = this.toks[i + 1]!;
    return !(n.kind === 'op' && (n.text === '.' || n.text === '(') && !n.spaceBefore);
  }

  private expectOp(text: string): Token {
    const t = this.next();
    if (t.kind !== 'op' || t.text !== text) this.fail(`unexpected ${describe(t)} token: expected ${text}`, t.loc);
    return t;
  }

  /** The items of an array or set after `first`: `, term` until `close` (a trailing comma allowed), then `close`. */
  private restItems(first: Term, close: ']' | '}'): Term[] {
    const items = [first];
    while (this.isOp(',')) {
      this.next();
      if (this.isOp(close)) break;
      items.push(this.term());
    }
    this.expectOp(close);
    return items;
  }

  private skipNl(): void {
    while (this.toks[this.pos]!.kind === 'nl') this.pos++;
  }

  expectEnd(): void {
    this.skipNl();
    const t = this.peek();
    if (t.kind !== 'eof') this.fail(`unexpected ${describe(t)} token`, t.loc);
  }

  private nested<T>(depth: number, f: () => T): T {
    const saved = this.nlDepth;
    this.nlDepth = depth;
    try {
      return f();
    } finally {
      this.nlDepth = saved;
    }
  }

  module(): Module {
    this.skipNl();
    if (!this.isKw('package')) this.fail('package expected');
    this.next();
    const pkg = this.refPath(this.term());
    const imports: Import[] = [];
    const rules: Rule[] = [];
    for (;;) {
      this.skipNl();
      const t = this.peek();
      if (t.kind === 'eof') break;
      if (this.isKw('import')) {
        this.next();
        const path = this.term();
        let alias: string | undefined;
        if (this.isKw('as')) {
          this.next();
          alias = this.next().text;
        }
        imports.push({ path, loc: t.loc, ...(alias ? { alias } : {}) });
        continue;
      }
      rules.push(...this.rule(pkg));
    }
    return { file: this.file, pkg, imports, rules };
  }

  /** The string path of a ground ref such as `a.b["c"]` (package names, rule heads). */
  private refPath(t: Term): string[] {
    if (t.type === 'var') return [t.name];
    if (t.type === 'ref' && t.head.type === 'var') {
      return [t.head.name, ...t.path.map((p) => (p.type === 'scalar' && typeof p.value === 'string' ? p.value : this.fail('package path must be a ground string ref', p.loc)))];
    }
    return this.fail('expected a ref', t.loc);
  }

  private rule(pkg: string[]): Rule[] {
    const start = this.peek();
    let isDefault = false;
    if (this.isKw('default')) {
      this.next();
      isDefault = true;
    }
    const head = this.nested(0, () => this.termNoOps());
    let args: Term[] | undefined;
    let ref: Term = head;
    if (head.type === 'call') {
      args = head.args;
      ref = head.fn;
    }
    // split the head ref into its ground path and the key terms after it
    let path: string[];
    let keys: Term[] = [];
    if (ref.type === 'var') path = [ref.name];
    else if (ref.type === 'ref' && ref.head.type === 'var') {
      path = [ref.head.name];
      let i = 0;
      for (; i < ref.path.length; i++) {
        const p = ref.path[i]!;
        if (p.type === 'scalar' && typeof p.value === 'string') path.push(p.value);
        else break;
      }
      keys = ref.path.slice(i);
    } else return this.fail('invalid rule head', start.loc);
    let kind: Rule['kind'] = args ? 'function' : keys.length > 0 ? 'object' : 'complete';
    let value: Term | undefined;
    if (this.isKw('contains')) {
      this.next();
      value = this.term();
      kind = 'set';
    } else if (this.isOp(':=') || this.isOp('=')) {
      this.next();
      value = this.term();
    }
    const loc = start.loc;
    const trueTerm: Term = { type: 'scalar', value: true, loc };
    let body: Expr[] = [];
    if (this.isKw('if')) {
      this.next();
      body = this.ruleBody();
    } else if (this.isOp('{') && this.peek().loc.row === (this.toks[this.pos - 1]?.loc.row ?? -1)) {
      body = this.braceBody();
    }
    if (body.length === 0) body = [{ type: 'term', term: trueTerm, negated: false, with: [], loc }];
    const elses: Rule['elses'] = [];
    for (;;) {
      const save = this.pos;
      this.skipNl();
      if (!this.isKw('else')) {
        this.pos = save;
        break;
      }
      const et = this.next();
      let ev: Term = trueTerm;
      if (this.isOp(':=') || this.isOp('=')) {
        this.next();
        ev = this.term();
      }
      let eb: Expr[] = [{ type: 'term', term: trueTerm, negated: false, with: [], loc: et.loc }];
      if (this.isKw('if')) {
        this.next();
        eb = this.ruleBody();
      } else if (this.isOp('{')) eb = this.braceBody();
      elses.push({ value: ev, body: eb, loc: et.loc });
    }
    return [{ path, keys, kind, isDefault, ...(args ? { args } : {}), value: value ?? trueTerm, body, elses, loc, file: this.file, pkg }];
  }

  private ruleBody(): Expr[] {
    if (this.isOp('{')) {
      // `if {` opens a body, unless what follows only parses as a term (`if {x: 1 | …}`)
      const save = this.pos;
      try {
        return this.braceBody();
      } catch (err) {
        this.pos = save;
        try {
          return [this.literal()];
        } catch {
          throw err;
        }
      }
    }
    return [this.literal()];
  }

  private braceBody(): Expr[] {
    this.expectOp('{');
    return this.nested(0, () => this.bodyUntil('}'));
  }

  /** Literals separated by `;` or newlines, up to the closing token (consumed unless eof). */
  bodyUntil(close: '}' | ']' | 'eof'): Expr[] {
    const out: Expr[] = [];
    for (;;) {
      while (this.toks[this.pos]!.kind === 'nl' || this.isOp(';')) this.pos++;
      const t = this.peek();
      if (close === 'eof' ? t.kind === 'eof' : t.kind === 'op' && t.text === close) {
        if (close !== 'eof') this.next();
        return out;
      }
      if (t.kind === 'eof') this.fail(`unexpected eof token: expected ${close}`, t.loc);
      out.push(this.literal());
      const n = this.toks[this.pos]!;
      if (!(n.kind === 'nl' || n.kind === 'eof' || (n.kind === 'op' && (n.text === ';' || n.text === close)))) this.fail(`unexpected ${describe(n)} token`, n.loc);
    }
  }

  private literal(): Expr {
    const t = this.peek();
    const loc = t.loc;
    if (this.isKw('some')) {
      this.next();
      const terms = [this.termRel()];
      while (this.isOp(',')) {
        this.next();
        terms.push(this.termRel());
      }
      if (this.isKw('in')) {
        this.next();
        const collection = this.termRel();
        if (terms.length > 2) this.fail('unexpected , in some declaration', loc);
        const e: Expr = terms.length === 2 ? { type: 'somein', key: terms[0]!, value: terms[1]!, collection, loc, with: [], negated: false } : { type: 'somein', value: terms[0]!, collection, loc, with: [], negated: false };
        e.with = this.withs();
        return e;
      }
      // `some x in xs` where the whole `x in xs` parsed as one term
      if (terms.length === 1 && terms[0]!.type === 'call' && isCallTo(terms[0]!, 'internal.member')) {
        const [v, c] = terms[0]!.args;
        return { type: 'somein', value: v!, collection: c!, loc, with: this.withs(), negated: false };
      }
      return { type: 'some', vars: terms.map((x) => (x.type === 'var' ? x.name : this.fail('expected var in some declaration', x.loc))), loc, with: [], negated: false };
    }
    if (this.isKw('not')) {
      this.next();
      const inner = this.literal();
      return { type: 'not', expr: inner, loc, with: [], negated: false };
    }
    if (this.isKw('every')) {
      this.next();
      const first = this.termRel();
      let key: Term | undefined;
      let value = first;
      if (this.isOp(',')) {
        this.next();
        key = first;
        value = this.termRel();
      }
      if (!this.isKw('in')) this.fail('expected in in every');
      this.next();
      const collection = this.termRel();
      const body = this.braceBody();
      return { type: 'every', ...(key ? { key } : {}), value, collection, body, loc, with: this.withs(), negated: false };
    }
    let left = this.term();
    if (this.isOp(',')) {
      // `k, v in xs` as an expression
      this.next();
      const rest = this.term();
      if (rest.type === 'call' && isCallTo(rest, 'internal.member')) left = callTerm('internal.member_3', [left, rest.args[0]!, rest.args[1]!], loc);
      else this.fail('unexpected , token', rest.loc);
    }
    let e: Expr;
    if (this.isOp(':=')) {
      this.next();
      e = { type: 'assign', left, right: this.term(), loc, with: [], negated: false };
    } else if (this.isOp('=')) {
      this.next();
      e = { type: 'unify', left, right: this.term(), loc, with: [], negated: false };
    } else e = { type: 'term', term: left, negated: false, with: [], loc };
    e.with = this.withs();
    return e;
  }

  private withs(): With[] {
    const out: With[] = [];
    for (;;) {
      let j = this.pos;
      while (this.toks[j]!.kind === 'nl') j++;
      const w = this.toks[j]!;
      const after = this.toks[j + 1]!;
      if (w.kind !== 'ident' || w.text !== 'with' || (after.kind === 'op' && after.text === '.' && !after.spaceBefore)) break;
      this.pos = j;
      const t = this.next();
      const target = this.termNoOps();
      if (!this.isKw('as')) this.fail('expected as in with');
      this.next();
      out.push({ target, value: this.term(), loc: t.loc });
    }
    return out;
  }

  /** A full term: `in` binds loosest, then relations, `|`, `&`, `+ -`, `* / %`. */
  term(noPipe = false): Term {
    let left = this.termRel(noPipe);
    while (this.isKw('in')) {
      const t = this.next();
      const right = this.termRel(noPipe);
      left = callTerm('internal.member', [left, right], t.loc);
    }
    return left;
  }

  private termRel(noPipe = false): Term {
    let left = this.termOr(noPipe);
    for (;;) {
      const t = this.peek();
      if (t.kind === 'op' && REL[t.text]) {
        this.next();
        left = callTerm(REL[t.text]!, [left, this.termOr(noPipe)], left.loc);
      } else return left;
    }
  }

  private termOr(noPipe: boolean): Term {
    let left = this.termAnd();
    while (!noPipe && this.isOp('|')) {
      this.next();
      left = callTerm('or', [left, this.termAnd()], left.loc);
    }
    return left;
  }

  private termAnd(): Term {
    let left = this.termArith();
    while (this.isOp('&')) {
      this.next();
      left = callTerm('and', [left, this.termArith()], left.loc);
    }
    return left;
  }

  private termArith(): Term {
    let left = this.termFactor();
    for (;;) {
      const t = this.peek();
      if (t.kind === 'op' && ARITH[t.text]) {
        this.next();
        left = callTerm(ARITH[t.text]!, [left, this.termFactor()], left.loc);
      } else return left;
    }
  }

  private termFactor(): Term {
    let left = this.termNoOps();
    for (;;) {
      const t = this.peek();
      if (t.kind === 'op' && FACTOR[t.text]) {
        this.next();
        left = callTerm(FACTOR[t.text]!, [left, this.termNoOps()], left.loc);
      } else return left;
    }
  }

  /** A primary term with its ref and call suffixes. */
  termNoOps(): Term {
    let t = this.primary();
    for (;;) {
      const n = this.toks[this.pos]!;
      if (n.kind === 'op' && n.text === '.' && !n.spaceBefore) {
        this.next();
        const id = this.next();
        if (id.kind !== 'ident') this.fail(`unexpected ${describe(id)} token: expected ident`, id.loc);
        t = appendRef(t, { type: 'scalar', value: id.text, loc: id.loc });
      } else if (n.kind === 'op' && n.text === '[' && !n.spaceBefore) {
        this.next();
        const key = this.nested(1, () => this.term());
        this.nested(1, () => this.expectOp(']'));
        t = appendRef(t, key);
      } else if (n.kind === 'op' && n.text === '(' && !n.spaceBefore && (t.type === 'var' || t.type === 'ref')) {
        this.next();
        const args = this.nested(1, () => {
          const a: Term[] = [];
          while (!this.isOp(')')) {
            a.push(this.term());
            if (!this.isOp(')')) this.expectOp(',');
          }
          this.next();
          return a;
        });
        t = { type: 'call', fn: t, args, loc: t.loc };
      } else return t;
    }
  }

  private primary(): Term {
    const t = this.next();
    const loc = t.loc;
    switch (t.kind) {
      case 'number':
        return { type: 'scalar', value: parseNumber(t.text), loc };
      case 'string':
        return { type: 'scalar', value: t.value!, loc };
      case 'template':
        return this.template(t);
      case 'ident': {
        const n = this.toks[this.pos]!;
        if (n.kind === 'op' && (n.text === '.' || (n.text === '(' && KEYWORDS.has(t.text))) && !n.spaceBefore) return { type: 'var', name: t.text, loc };
        if (t.text === 'true' || t.text === 'false') return { type: 'scalar', value: t.text === 'true', loc };
        if (t.text === 'null') return { type: 'scalar', value: null, loc };
        if (t.text === 'set' && this.isOp('(') && this.isOp(')', 1) && !this.toks[this.pos]!.spaceBefore) {
          this.next();
          this.next();
          return { type: 'set', items: [], loc };
        }
        if (KEYWORDS.has(t.text)) this.fail(`unexpected ${t.text} keyword`, loc);
        return { type: 'var', name: t.text, loc };
      }
      case 'op':
        break;
      default:
        return this.fail(`unexpected ${describe(t)} token`, loc);
    }
    switch (t.text) {
      case '-': {
        const n = this.toks[this.pos]!;
        if (n.kind === 'number' && !n.spaceBefore) {
          this.next();
          const v = parseNumber(n.text);
          return { type: 'scalar', value: typeof v === 'bigint' ? normNum(-v) : -v, loc };
        }
        const inner = this.termNoOps();
        return callTerm('minus', [{ type: 'scalar', value: 0, loc }, inner], loc);
      }
      case '(': {
        const inner = this.nested(1, () => {
          const first = this.term();
          if (!this.isOp(',')) return first;
          this.next();
          const rest = this.term();
          if (rest.type === 'call' && isCallTo(rest, 'internal.member')) return callTerm('internal.member_3', [first, rest.args[0]!, rest.args[1]!], loc);
          return this.fail('unexpected , token', rest.loc);
        });
        this.nested(1, () => this.expectOp(')'));
        return inner;
      }
      case '[':
        return this.nested(1, () => {
          if (this.isOp(']')) {
            this.next();
            return { type: 'array', items: [], loc } as Term;
          }
          const first = this.term(true);
          if (this.isOp('|')) {
            this.next();
            const body = this.nested(0, () => this.bodyUntil(']'));
            return { type: 'arraycomp', term: first, body, loc } as Term;
          }
          return { type: 'array', items: this.restItems(first, ']'), loc } as Term;
        });
      case '{':
        return this.nested(1, () => {
          if (this.isOp('}')) {
            this.next();
            return { type: 'object', items: [], loc } as Term;
          }
          const first = this.term(true);
          if (this.isOp(':')) {
            this.next();
            const v = this.term(true);
            if (this.isOp('|')) {
              this.next();
              const body = this.nested(0, () => this.bodyUntil('}'));
              return { type: 'objectcomp', key: first, value: v, body, loc } as Term;
            }
            const items: [Term, Term][] = [[first, v]];
            while (this.isOp(',')) {
              this.next();
              if (this.isOp('}')) break;
              const k = this.term();
              this.expectOp(':');
              items.push([k, this.term()]);
            }
            this.expectOp('}');
            return { type: 'object', items, loc } as Term;
          }
          if (this.isOp('|')) {
            this.next();
            const body = this.nested(0, () => this.bodyUntil('}'));
            return { type: 'setcomp', term: first, body, loc } as Term;
          }
          return { type: 'set', items: this.restItems(first, '}'), loc } as Term;
        });
    }
    return this.fail(`unexpected ${describe(t)} token`, loc);
  }

  /** `$"…{expr}…"`: literal parts and interpolated terms. */
  private template(t: Token): Term {
    const raw = t.text.startsWith('$`');
    const src = t.value!;
    const parts: (string | Term)[] = [];
    let lit = '';
    let i = 0;
    while (i < src.length) {
      const c = src[i]!;
      if (c === '\\' && raw && src[i + 1] === '{') {
        lit += '{';
        i += 2;
        continue;
      }
      if (c === '\\' && !raw) {
        if (src[i + 1] === '{' || src[i + 1] === '}') {
          lit += src[i + 1];
          i += 2;
          continue;
        }
        const m = /^\\(u[0-9a-fA-F]{4}|.)/.exec(src.slice(i))!;
        lit += JSON.parse('"' + m[0] + '"') as string;
        i += m[0].length;
        continue;
      }
      if (c === '{') {
        const j = holeEnd(src, i + 1);
        if (j < 0) this.fail('non-terminated template expression', t.loc);
        if (lit) parts.push(lit);
        lit = '';
        const inner = src.slice(i + 1, j - 1);
        const p = new Parser(this.file, lex(this.file, inner).map((k) => ({ ...k, loc: { ...k.loc, row: t.loc.row + k.loc.row - 1, col: k.loc.row === 1 ? t.loc.col + 2 + i + k.loc.col : k.loc.col } })));
        p.nlDepth = 1;
        parts.push(p.term());
        i = j;
        continue;
      }
      lit += c;
      i++;
    }
    if (lit) parts.push(lit);
    return { type: 'template', parts, loc: t.loc };
  }
}

function appendRef(t: Term, key: Term): Term {
  if (t.type === 'ref') return { ...t, path: [...t.path, key] };
  return { type: 'ref', head: t, path: [key], loc: t.loc };
}

function isCallTo(t: Term, name: string): boolean {
  return t.type === 'call' && refName(t.fn) === name;
}

/** `a.b.c` for a ground string ref or var, else undefined. */
export function refName(t: Term): string | undefined {
  if (t.type === 'var') return t.name;
  if (t.type === 'ref' && t.head.type === 'var') {
    const parts = [t.head.name];
    for (const p of t.path) {
      if (p.type !== 'scalar' || typeof p.value !== 'string') return undefined;
      parts.push(p.value);
    }
    return parts.join('.');
  }
  return undefined;
}

/** Integers (also `1e6`, `1.5e3`) stay exact; other numbers are floats. */
function parseNumber(text: string): number | bigint {
  const m = /^(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (m) {
    const frac = (m[2] ?? '').replace(/0+$/, '');
    const exp = Number(m[3] ?? 0) - frac.length;
    if (exp >= 0 && exp < 400) return normNum(BigInt(m[1]! + frac) * 10n ** BigInt(exp));
  }
  return Number(text);
}

function describe(t: Token): string {
  if (t.kind === 'eof') return 'eof';
  if (t.kind === 'ident') return KEYWORDS.has(t.text) ? t.text : 'ident';
  if (t.kind === 'nl') return 'newline';
  return t.kind === 'op' ? t.text : t.kind;
}
