// GraphQL builtins: a parser for schema (SDL) and executable documents producing the AST shape OPA returns
// (gqlparser's, empty lists and absent values dropped), parse errors worded as gqlparser words them, and a
// validator covering the rules policies rely on (types, interfaces, unions, fields and required arguments).
// Written here rather than on graphql-js (the maintained JavaScript implementation) because OPA's answers are
// gqlparser's AST shape and error texts, which policies and OPA's conformance cases compare against and which
// graphql-js words and shapes differently.

import { builtinError, typeError } from '../errors.js';
import { fromJSON, RObject, toJSON, typeName, type Value } from '../value.js';
import { def } from './registry.js';

type J = Record<string, unknown>;

interface Tok {
  kind: 'name' | 'punct' | 'int' | 'float' | 'string' | 'block' | 'eof' | 'invalid';
  text: string;
  value: string;
  line: number;
  col: number;
}

class GqlError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly col: number,
  ) {
    super(message);
  }
}

function lexGql(src: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  while (i <= src.length) {
    const c = src[i];
    if (c === undefined) {
      out.push({ kind: 'eof', text: '<EOF>', value: '', line, col: i - lineStart + 1 });
      break;
    }
    if (c === '\n') {
      i++;
      line++;
      lineStart = i;
      continue;
    }
    if (c === ' ' || c === '\t' || c === ',' || c === '\r' || c === '\ufeff') {
      i++;
      continue;
    }
    if (c === '#') {
      while (i < src.length && src[i] !== '\n') i++;
      continue;
    }
    const col = [...src.slice(lineStart, i)].length + 1;
    const rest = src.slice(i);
    let m: RegExpExecArray | null;
    if (rest.startsWith('...')) {
      out.push({ kind: 'punct', text: '...', value: '...', line, col });
      i += 3;
    } else if ('!$&()[]{}:=@|'.includes(c)) {
      out.push({ kind: 'punct', text: c, value: c, line, col });
      i++;
    } else if ((m = /^[_A-Za-z][_0-9A-Za-z]*/.exec(rest))) {
      out.push({ kind: 'name', text: m[0], value: m[0], line, col });
      i += m[0].length;
    } else if ((m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(rest))) {
      out.push({ kind: m[2] || m[3] ? 'float' : 'int', text: m[0], value: m[0], line, col });
      i += m[0].length;
    } else if (rest.startsWith('"""')) {
      const end = src.indexOf('"""', i + 3);
      if (end < 0) throw new GqlError('Unterminated string.', line, col);
      let j = i + 3;
      while (true) {
        const k = src.indexOf('"""', j);
        if (k > 0 && src[k - 1] === '\\') {
          j = k + 3;
          continue;
        }
        const raw = src.slice(i + 3, k).replace(/\\"""/g, '"""');
        out.push({ kind: 'block', text: src.slice(i, k + 3), value: blockValue(raw), line, col });
        for (const ch of src.slice(i, k + 3)) if (ch === '\n') line++;
        if (src.slice(i, k + 3).includes('\n')) lineStart = src.lastIndexOf('\n', k) + 1;
        i = k + 3;
        break;
      }
    } else if (c === '"') {
      let j = i + 1;
      let value = '';
      for (;;) {
        const d = src[j];
        if (d === undefined || d === '\n') throw new GqlError('Unterminated string.', line, col);
        if (d === '"') break;
        if (d === '\\') {
          const e = src[j + 1];
          const map: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '"': '"', '\\': '\\', '/': '/' };
          if (e === 'u') {
            value += String.fromCharCode(parseInt(src.slice(j + 2, j + 6), 16));
            j += 6;
            continue;
          }
          value += map[e ?? ''] ?? '';
          j += 2;
          continue;
        }
        value += d;
        j++;
      }
      out.push({ kind: 'string', text: src.slice(i, j + 1), value, line, col });
      i = j + 1;
    } else {
      out.push({ kind: 'invalid', text: '<Invalid>', value: c, line, col });
      i++;
    }
  }
  return out;
}

/** Block string value: common indentation removed, blank first/last lines dropped. */
function blockValue(raw: string): string {
  const lines = raw.split(/\r\n|\n|\r/);
  let common: number | undefined;
  for (const l of lines.slice(1)) {
    const ind = l.length - l.trimStart().length;
    if (ind < l.length && (common === undefined || ind < common)) common = ind;
  }
  const out = lines.map((l, i) => (i === 0 || common === undefined ? l : l.slice(common)));
  while (out.length && out[0]!.trim() === '') out.shift();
  while (out.length && out[out.length - 1]!.trim() === '') out.pop();
  return out.join('\n');
}

function describe(t: Tok): string {
  if (t.kind === 'eof') return '<EOF>';
  if (t.kind === 'invalid') return '<Invalid>';
  if (t.kind === 'name') return `Name "${t.value}"`;
  if (t.kind === 'string' || t.kind === 'block') return `String "${t.value}"`;
  if (t.kind === 'int') return `Int "${t.value}"`;
  if (t.kind === 'float') return `Float "${t.value}"`;
  return t.text;
}

class GqlParser {
  private pos = 0;
  constructor(private readonly toks: Tok[]) {}

  peek(): Tok {
    return this.toks[this.pos]!;
  }
  next(): Tok {
    const t = this.toks[this.pos]!;
    if (t.kind !== 'eof') this.pos++;
    return t;
  }
  is(text: string): boolean {
    const t = this.peek();
    return t.kind === 'punct' && t.text === text;
  }
  isName(text?: string): boolean {
    const t = this.peek();
    return t.kind === 'name' && (text === undefined || t.value === text);
  }
  fail(t: Tok, msg: string): never {
    throw new GqlError(msg, t.line, t.col);
  }
  unexpected(t = this.peek()): never {
    this.fail(t, `Unexpected ${describe(t)}`);
  }
  expect(text: string): Tok {
    const t = this.next();
    if (t.kind !== 'punct' || t.text !== text) this.fail(t, `Expected ${text}, found ${describe(t)}`);
    return t;
  }
  expectKeyword(word: string): void {
    const t = this.next();
    if (t.kind !== 'name' || t.value !== word) this.fail(t, `Expected "${word}", found ${describe(t)}`);
  }
  name(): string {
    const t = this.next();
    if (t.kind !== 'name') this.fail(t, `Expected Name, found ${describe(t)}`);
    return t.value;
  }
  /** open item* close, with at least one item. */
  many<T>(open: string, item: () => T, close: string): T[] {
    this.expect(open);
    const out: T[] = [];
    do {
      if (this.is(close) && out.length === 0) this.fail(this.peek(), `expected at least one definition, found ${close}`);
      out.push(item());
    } while (!this.is(close));
    this.next();
    return out;
  }
  optionalMany<T>(open: string, item: () => T, close: string): T[] {
    if (!this.is(open)) return [];
    return this.many(open, item, close);
  }

  // ---- values, types, directives ----

  value(isConst: boolean): J {
    const t = this.peek();
    const v = (kind: number, raw: string, children?: J[]): J => ({ ...(children && children.length ? { Children: children } : {}), ExpectedTypeHasDefault: false, Kind: kind, Raw: raw });
    if (t.kind === 'punct') {
      if (t.text === '$' && !isConst) {
        this.next();
        return v(0, this.name());
      }
      if (t.text === '[') {
        this.next();
        const items: J[] = [];
        while (!this.is(']')) {
          if (this.peek().kind === 'eof') this.unexpected();
          items.push({ Name: '', Value: this.value(isConst) });
        }
        this.next();
        return v(8, '', items);
      }
      if (t.text === '{') {
        this.next();
        const items: J[] = [];
        while (!this.is('}')) {
          const n = this.name();
          this.expect(':');
          items.push({ Name: n, Value: this.value(isConst) });
        }
        this.next();
        return v(9, '', items);
      }
      this.unexpected();
    }
    this.next();
    switch (t.kind) {
      case 'int':
        return v(1, t.value);
      case 'float':
        return v(2, t.value);
      case 'string':
        return v(3, t.value);
      case 'block':
        return v(4, t.value);
      case 'name':
        if (t.value === 'true' || t.value === 'false') return v(5, t.value);
        if (t.value === 'null') return v(6, t.value);
        return v(7, t.value);
    }
    return this.unexpected(t);
  }

  type(): J {
    let t: J;
    if (this.is('[')) {
      this.next();
      const elem = this.type();
      this.expect(']');
      t = { Elem: elem, NamedType: '', NonNull: false };
    } else t = { NamedType: this.name(), NonNull: false };
    if (this.is('!')) {
      this.next();
      t.NonNull = true;
    }
    return t;
  }

  arguments(isConst: boolean): J[] {
    return this.optionalMany(
      '(',
      () => {
        const n = this.name();
        this.expect(':');
        return { Name: n, Value: this.value(isConst) };
      },
      ')',
    );
  }

  directives(isConst: boolean): J[] {
    const out: J[] = [];
    while (this.is('@')) {
      this.next();
      const n = this.name();
      const args = this.arguments(isConst);
      out.push({ ...(args.length ? { Arguments: args } : {}), Location: '', Name: n });
    }
    return out;
  }

  // ---- executable documents ----

  document(): J {
    const ops: J[] = [];
    const frags: J[] = [];
    do {
      const t = this.peek();
      if (t.kind === 'punct' && t.text === '{') ops.push(this.operation());
      else if (t.kind === 'name' && ['query', 'mutation', 'subscription'].includes(t.value)) ops.push(this.operation());
      else if (t.kind === 'name' && t.value === 'fragment') frags.push(this.fragment());
      else this.unexpected();
    } while (this.peek().kind !== 'eof');
    return { ...(frags.length ? { Fragments: frags } : {}), ...(ops.length ? { Operations: ops } : {}) };
  }

  operation(): J {
    if (this.is('{')) return { Name: '', Operation: 'query', SelectionSet: this.selectionSet() };
    const op = this.name();
    const n = this.isName() ? this.name() : '';
    const vars = this.variableDefinitions();
    const dirs = this.directives(false);
    return { ...(dirs.length ? { Directives: dirs } : {}), Name: n, Operation: op, SelectionSet: this.selectionSet(), ...(vars.length ? { VariableDefinitions: vars } : {}) };
  }

  variableDefinitions(): J[] {
    return this.optionalMany(
      '(',
      () => {
        this.expect('$');
        const n = this.name();
        const { type, def, dirs } = this.typedDefault();
        return { ...(def ? { DefaultValue: def } : {}), ...(dirs.length ? { Directives: dirs } : {}), Type: type, Used: false, Variable: n };
      },
      ')',
    );
  }

  fragment(): J {
    this.expectKeyword('fragment');
    if (this.isName('on')) this.unexpected();
    const n = this.name();
    const vars = this.variableDefinitions();
    this.expectKeyword('on');
    const cond = this.name();
    const dirs = this.directives(false);
    return { ...(dirs.length ? { Directives: dirs } : {}), Name: n, SelectionSet: this.selectionSet(), TypeCondition: cond, ...(vars.length ? { VariableDefinition: vars } : {}) };
  }

  selectionSet(): J[] {
    return this.many('{', () => this.selection(), '}');
  }

  selection(): J {
    if (this.is('...')) {
      this.next();
      if (this.isName() && !this.isName('on')) {
        const n = this.name();
        const dirs = this.directives(false);
        return { ...(dirs.length ? { Directives: dirs } : {}), Name: n };
      }
      let cond = '';
      if (this.isName('on')) {
        this.next();
        cond = this.name();
      }
      const dirs = this.directives(false);
      return { ...(dirs.length ? { Directives: dirs } : {}), SelectionSet: this.selectionSet(), TypeCondition: cond };
    }
    let alias = this.name();
    let n = alias;
    if (this.is(':')) {
      this.next();
      n = this.name();
    }
    const args = this.arguments(false);
    const dirs = this.directives(false);
    const sel = this.is('{') ? this.selectionSet() : [];
    if (!alias) alias = n;
    return { Alias: alias, ...(args.length ? { Arguments: args } : {}), ...(dirs.length ? { Directives: dirs } : {}), Name: n, ...(sel.length ? { SelectionSet: sel } : {}) };
  }

  // ---- schema documents ----

  description(): string {
    const t = this.peek();
    if (t.kind === 'string' || t.kind === 'block') {
      this.next();
      return t.value;
    }
    return '';
  }

  schemaDocument(): J {
    const out: Record<string, J[]> = { Definitions: [], Extensions: [], Directives: [], Schema: [], SchemaExtension: [] };
    while (this.peek().kind !== 'eof') {
      const desc = this.description();
      const t = this.peek();
      if (t.kind !== 'name') this.unexpected();
      if (t.value === 'extend') {
        if (desc) this.unexpected(this.toks[this.pos - 1]);
        this.next();
        const what = this.peek();
        if (what.kind === 'name' && what.value === 'schema') {
          this.next();
          out.SchemaExtension!.push(this.schemaDef('', true));
        } else out.Extensions!.push(this.typeDef('', true));
      } else if (t.value === 'schema') {
        this.next();
        out.Schema!.push(this.schemaDef(desc, false));
      } else if (t.value === 'directive') {
        this.next();
        out.Directives!.push(this.directiveDef(desc));
      } else out.Definitions!.push(this.typeDef(desc, false));
    }
    const doc: J = {};
    for (const [k, v] of Object.entries(out)) if (v.length) doc[k] = v;
    return doc;
  }

  schemaDef(desc: string, extension: boolean): J {
    const dirs = this.directives(true);
    const ops = extension && !this.is('{')
      ? []
      : this.many(
          '{',
          () => {
            const op = this.name();
            this.expect(':');
            return { Operation: op, Type: this.name() };
          },
          '}',
        );
    if (extension && !dirs.length && !ops.length) this.unexpected();
    return { Description: desc, ...(dirs.length ? { Directives: dirs } : {}), ...(ops.length ? { OperationTypes: ops } : {}) };
  }

  directiveDef(desc: string): J {
    this.expect('@');
    const n = this.name();
    const args = this.argumentDefs();
    let repeatable = false;
    if (this.isName('repeatable')) {
      this.next();
      repeatable = true;
    }
    this.expectKeyword('on');
    if (this.is('|')) this.next();
    const locs: string[] = [];
    const LOCATIONS = ['QUERY', 'MUTATION', 'SUBSCRIPTION', 'FIELD', 'FRAGMENT_DEFINITION', 'FRAGMENT_SPREAD', 'INLINE_FRAGMENT', 'VARIABLE_DEFINITION', 'SCHEMA', 'SCALAR', 'OBJECT', 'FIELD_DEFINITION', 'ARGUMENT_DEFINITION', 'INTERFACE', 'UNION', 'ENUM', 'ENUM_VALUE', 'INPUT_OBJECT', 'INPUT_FIELD_DEFINITION'];
    do {
      const t = this.peek();
      const l = this.name();
      if (!LOCATIONS.includes(l)) this.unexpected(t);
      locs.push(l);
    } while (this.is('|') && this.next());
    return { ...(args.length ? { Arguments: args } : {}), Description: desc, IsRepeatable: repeatable, Locations: locs, Name: n };
  }

  argumentDefs(): J[] {
    return this.optionalMany('(', () => this.inputValueDef(), ')');
  }

  inputValueDef(): J {
    const desc = this.description();
    const n = this.name();
    const { type, def, dirs } = this.typedDefault();
    return { ...(def ? { DefaultValue: def } : {}), Description: desc, ...(dirs.length ? { Directives: dirs } : {}), Name: n, Type: type };
  }

  /** `: Type [= default] @directives`, shared by variable and input value definitions. */
  typedDefault(): { type: J; def: J | undefined; dirs: J[] } {
    this.expect(':');
    const type = this.type();
    let def: J | undefined;
    if (this.is('=')) {
      this.next();
      def = this.value(true);
    }
    return { type, def, dirs: this.directives(true) };
  }

  fieldDef(): J {
    const desc = this.description();
    const n = this.name();
    const args = this.argumentDefs();
    this.expect(':');
    const type = this.type();
    const dirs = this.directives(true);
    return { ...(args.length ? { Arguments: args } : {}), Description: desc, ...(dirs.length ? { Directives: dirs } : {}), Name: n, Type: type };
  }

  typeDef(desc: string, extension: boolean): J {
    const kw = this.peek();
    const word = this.name();
    const KINDS: Record<string, string> = { type: 'OBJECT', interface: 'INTERFACE', union: 'UNION', enum: 'ENUM', input: 'INPUT_OBJECT', scalar: 'SCALAR' };
    const kind = KINDS[word];
    if (!kind) this.unexpected(kw);
    const n = this.name();
    const def: J = { BuiltIn: false, Description: desc, Kind: kind, Name: n };
    const extras: J = {};
    const interfaces: string[] = [];
    if ((kind === 'OBJECT' || kind === 'INTERFACE') && this.isName('implements')) {
      this.next();
      if (this.is('&')) this.next();
      interfaces.push(this.name());
      while (this.is('&')) {
        this.next();
        interfaces.push(this.name());
      }
    }
    const dirs = this.directives(true);
    let body = false;
    if (kind === 'OBJECT' || kind === 'INTERFACE') {
      if (this.is('{')) {
        extras.Fields = this.many('{', () => this.fieldDef(), '}');
        body = true;
      }
    } else if (kind === 'INPUT_OBJECT') {
      if (this.is('{')) {
        extras.Fields = this.many('{', () => this.inputValueDef(), '}');
        body = true;
      }
    } else if (kind === 'ENUM') {
      if (this.is('{')) {
        extras.EnumValues = this.many(
          '{',
          () => {
            const d = this.description();
            const v = this.name();
            const vd = this.directives(true);
            return { Description: d, ...(vd.length ? { Directives: vd } : {}), Name: v };
          },
          '}',
        );
        body = true;
      }
    } else if (kind === 'UNION') {
      if (this.is('=')) {
        this.next();
        if (this.is('|')) this.next();
        const types = [this.name()];
        while (this.is('|')) {
          this.next();
          types.push(this.name());
        }
        extras.Types = types;
        body = true;
      }
    }
    if (extension && !body && !dirs.length && !interfaces.length) this.unexpected();
    if (dirs.length) def.Directives = dirs;
    if (extras.EnumValues) def.EnumValues = extras.EnumValues;
    if (extras.Fields) def.Fields = extras.Fields;
    if (interfaces.length) def.Interfaces = interfaces;
    if (extras.Types) def.Types = extras.Types;
    return sortKeys(def);
  }
}

function sortKeys(o: J): J {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)));
}

function parseWith<T>(fname: string, src: string, f: (p: GqlParser) => T): T {
  try {
    return f(new GqlParser(lexGql(src)));
  } catch (err) {
    if (err instanceof GqlError) throw builtinError(`${fname}: ${err.message} in GraphQL string at location ${err.line}:${err.col}`);
    throw err;
  }
}

// ---- validation ----

const SCALARS = new Set(['Int', 'Float', 'String', 'Boolean', 'ID']);
const DIRECTIVES = new Set(['deprecated', 'include', 'skip', 'specifiedBy', 'oneOf', 'defer']);

interface Schema {
  types: Map<string, J>;
  ops: Map<string, string>;
}

/** Builds and checks a schema; a string error names the first rule broken. */
function buildSchema(doc: J): Schema | string {
  const types = new Map<string, J>();
  for (const d of (doc.Definitions as J[] | undefined) ?? []) {
    if (types.has(d.Name as string)) return `Cannot redeclare type ${String(d.Name)}.`;
    types.set(d.Name as string, { ...d });
  }
  for (const e of (doc.Extensions as J[] | undefined) ?? []) {
    const base = types.get(e.Name as string);
    if (!base) {
      types.set(e.Name as string, { ...e });
      continue;
    }
    for (const k of ['Fields', 'Interfaces', 'Types', 'EnumValues', 'Directives']) if (e[k]) base[k] = [...((base[k] as unknown[]) ?? []), ...(e[k] as unknown[])];
  }
  const directives = new Set([...DIRECTIVES, ...((doc.Directives as J[] | undefined) ?? []).map((d) => d.Name as string)]);
  const exists = (n: string): boolean => SCALARS.has(n) || types.has(n);
  const named = (t: J): string => (t.Elem ? named(t.Elem as J) : (t.NamedType as string));
  const checkDirs = (ds: unknown): string | undefined => {
    for (const d of (ds as J[] | undefined) ?? []) if (!directives.has(d.Name as string)) return `Undefined directive ${String(d.Name)}.`;
    return undefined;
  };
  for (const [name, t] of types) {
    const e = checkDirs(t.Directives);
    if (e) return e;
    for (const f of (t.Fields as J[] | undefined) ?? []) {
      const ft = named(f.Type as J);
      if (!exists(ft)) return `Undefined type ${ft}.`;
      if (t.Kind === 'INPUT_OBJECT' && ['OBJECT', 'INTERFACE', 'UNION'].includes(types.get(ft)?.Kind as string)) return `${name}.${String(f.Name)} must be an input type.`;
      for (const a of (f.Arguments as J[] | undefined) ?? []) {
        const at = named(a.Type as J);
        if (!exists(at)) return `Undefined type ${at}.`;
      }
      const fe = checkDirs(f.Directives);
      if (fe) return fe;
    }
    for (const i of (t.Interfaces as string[] | undefined) ?? []) {
      const it = types.get(i);
      if (!it || it.Kind !== 'INTERFACE') return `${name} must implement an interface, ${i} is not one.`;
      for (const f of (it.Fields as J[] | undefined) ?? []) if (!((t.Fields as J[] | undefined) ?? []).some((g) => g.Name === f.Name)) return `For ${name} to implement ${i} it must have a field called ${String(f.Name)}.`;
    }
    for (const u of (t.Types as string[] | undefined) ?? []) if (types.get(u)?.Kind !== 'OBJECT') return `${name} union member ${u} must be an object type.`;
  }
  const ops = new Map<string, string>();
  for (const s of [...((doc.Schema as J[] | undefined) ?? []), ...((doc.SchemaExtension as J[] | undefined) ?? [])]) {
    for (const o of (s.OperationTypes as J[] | undefined) ?? []) {
      if (!types.has(o.Type as string)) return `Undefined type ${String(o.Type)}.`;
      ops.set(o.Operation as string, o.Type as string);
    }
  }
  for (const [op, t] of [
    ['query', 'Query'],
    ['mutation', 'Mutation'],
    ['subscription', 'Subscription'],
  ] as const)
    if (!ops.has(op) && types.has(t)) ops.set(op, t);
  return { types, ops };
}

/** Checks a query against a schema; a string error names the first problem. */
function validateQuery(q: J, s: Schema): string | undefined {
  const frags = new Map(((q.Fragments as J[] | undefined) ?? []).map((f) => [f.Name as string, f]));
  const named = (t: J): string => (t.Elem ? named(t.Elem as J) : (t.NamedType as string));
  const checkSel = (sel: J[], typeName: string): string | undefined => {
    const t = s.types.get(typeName);
    for (const f of sel) {
      if (f.Alias === undefined) {
        if (f.TypeCondition !== undefined) {
          const e = checkSel(f.SelectionSet as J[], (f.TypeCondition as string) || typeName);
          if (e) return e;
        } else {
          const fr = frags.get(f.Name as string);
          if (!fr) return `Unknown fragment "${String(f.Name)}".`;
          const e = checkSel(fr.SelectionSet as J[], fr.TypeCondition as string);
          if (e) return e;
        }
        continue;
      }
      if ((f.Name as string).startsWith('__')) continue;
      const def = ((t?.Fields as J[] | undefined) ?? []).find((x) => x.Name === f.Name);
      if (!def) return `Cannot query field "${String(f.Name)}" on type "${typeName}".`;
      const args = (f.Arguments as J[] | undefined) ?? [];
      for (const a of args) if (!((def.Arguments as J[] | undefined) ?? []).some((x) => x.Name === a.Name)) return `Unknown argument "${String(a.Name)}" on field "${typeName}.${String(f.Name)}".`;
      for (const a of (def.Arguments as J[] | undefined) ?? []) {
        const ty = a.Type as J;
        if (ty.NonNull && !a.DefaultValue && !args.some((x) => x.Name === a.Name)) return `Field "${String(f.Name)}" argument "${String(a.Name)}" of type "${typeText(ty)}" is required, but it was not provided.`;
      }
      if (f.SelectionSet) {
        const e = checkSel(f.SelectionSet as J[], named(def.Type as J));
        if (e) return e;
      }
    }
    return undefined;
  };
  for (const op of (q.Operations as J[] | undefined) ?? []) {
    const root = s.ops.get(op.Operation as string);
    if (!root) return `Schema does not support operation type "${String(op.Operation)}"`;
    const e = checkSel(op.SelectionSet as J[], root);
    if (e) return e;
  }
  return undefined;
}

function typeText(t: J): string {
  const inner = t.Elem ? `[${typeText(t.Elem as J)}]` : (t.NamedType as string);
  return inner + (t.NonNull ? '!' : '');
}

function schemaArg(fname: string, v: Value, i: number): J {
  if (typeof v === 'string') return parseWith(fname, v, (p) => p.schemaDocument());
  if (v instanceof RObject) return toJSON(v) as J;
  throw typeError(`${fname}: operand ${i + 1} must be one of {string, object} but got ${typeName(v)}`);
}

function queryArg(fname: string, v: Value, i: number): J {
  if (typeof v === 'string') return parseWith(fname, v, (p) => p.document());
  if (v instanceof RObject) return toJSON(v) as J;
  throw typeError(`${fname}: operand ${i + 1} must be one of {string, object} but got ${typeName(v)}`);
}

def('graphql.parse_query', 1, ([v]) => {
  if (typeof v !== 'string') throw typeError(`graphql.parse_query: operand 1 must be string but got ${typeName(v!)}`);
  return fromJSON(queryArg('graphql.parse_query', v, 0));
});
def('graphql.parse_schema', 1, ([v]) => {
  if (typeof v !== 'string') throw typeError(`graphql.parse_schema: operand 1 must be string but got ${typeName(v!)}`);
  return fromJSON(schemaArg('graphql.parse_schema', v, 0));
});
def('graphql.schema_is_valid', 1, ([v]) => {
  try {
    return typeof buildSchema(schemaArg('graphql.schema_is_valid', v!, 0)) !== 'string';
  } catch {
    return false;
  }
});
def('graphql.is_valid', 2, ([q, s]) => {
  try {
    const schema = buildSchema(schemaArg('graphql.is_valid', s!, 1));
    if (typeof schema === 'string') return false;
    return validateQuery(queryArg('graphql.is_valid', q!, 0), schema) === undefined;
  } catch {
    return false;
  }
});
def('graphql.parse_and_verify', 2, ([q, s]) => {
  const fail: Value = [false, new RObject(), new RObject()];
  try {
    const sdoc = schemaArg('graphql.parse_and_verify', s!, 1);
    const qdoc = queryArg('graphql.parse_and_verify', q!, 0);
    const schema = buildSchema(sdoc);
    if (typeof schema === 'string' || validateQuery(qdoc, schema) !== undefined) return fail;
    return [true, fromJSON(qdoc), fromJSON(sdoc)];
  } catch {
    return fail;
  }
});
def('graphql.parse', 2, ([q, s]) => {
  const sdoc = schemaArg('graphql.parse', s!, 1);
  const qdoc = queryArg('graphql.parse', q!, 0);
  const schema = buildSchema(sdoc);
  if (typeof schema === 'string') throw builtinError(`graphql.parse: ${schema}`);
  const err = validateQuery(qdoc, schema);
  if (err) throw builtinError(`graphql.parse: ${err}`);
  return [fromJSON(qdoc), fromJSON(sdoc)];
});
