// Python taint evaluator: walks a module's syntax in order, keeping an abstract value per variable, computing a
// summary for every function where it is defined (parameters bound to `param` sources), and handing calls to
// the library catalog (python-calls.ts) or to the summaries of local and imported functions.
//
// Limits: one pass per statement list (loops are not iterated to a fixpoint); attributes of objects other than
// `self` are approximated by the object; parameter flows stored in `self.x` are dropped; lambdas, decorators'
// behaviour, getattr() and other reflection are not followed.
import { defineIn, type FunctionSummary } from './engine.js';
import { isCredentialContainer } from './catalog.js';
import { TaintEvaluator, type Frame } from './evaluator.js';
import { asCredential, elementOf, envVar } from './library.js';
import { pythonLibraryCall, pythonMethodCall, pythonGlobal } from './python-calls.js';
import { argsForParams, Scope, type Args, type CallContext } from './scope.js';
import { loopElements, type PyModuleResolver } from './modules.js';
import { field, fields, type SyntaxNode } from './syntax.js';
import { concat, EMPTY, plain, sourced, step, union, widen, type Value } from './values.js';

const STATEMENT = /_statement$|^block$|_clause$|_definition$|^module$/;
const ENTRYPOINT_DECORATOR = /\b(?:click|typer|app)\s*\.\s*(?:command|argument|option)\b|@(?:command|argument|option)\b/;

export class PythonEvaluator extends TaintEvaluator<PyModuleResolver> {
  private readonly starModules: string[] = [];

  // ---- statements ----------------------------------------------------------------------------------------

  protected override stmt(node: SyntaxNode, f: Frame): void {
    if (!this.a.tick()) return;
    switch (node.type) {
      case 'module':
      case 'block':
      case 'expression_statement':
      case 'else_clause':
      case 'finally_clause':
        for (const child of node.children) this.stmt(child, f);
        return;
      case 'function_definition':
        this.defineFunction(node, f, []);
        return;
      case 'decorated_definition': {
        const def = field(node, 'definition');
        const decorators = node.children.filter((c) => c.type === 'decorator');
        if (def?.type === 'function_definition') this.defineFunction(def, f, decorators);
        else if (def) this.stmt(def, f);
        return;
      }
      case 'class_definition':
        this.defineClass(node, f);
        return;
      case 'return_statement': {
        const value = node.children[0] ? this.expr(node.children[0], f) : EMPTY;
        f.returns?.push(step(value, this.at(node)));
        return;
      }
      case 'if_statement':
      case 'elif_clause':
      case 'while_statement': {
        const condition = field(node, 'condition');
        if (condition) this.expr(condition, f);
        this.branch(node.children.filter((c) => c !== condition), f);
        return;
      }
      case 'for_statement': {
        const right = field(node, 'right');
        const iterable = right ? this.expr(right, f) : EMPTY;
        const left = field(node, 'left');
        const body = node.children.filter((c) => c.field === 'body' || c.field === 'alternative');
        // A short literal list (`for p in ("~/.npmrc", "~/.netrc")`) runs once per element, so paths and URLs
        // keep their text; anything else runs once with the element as the whole iterable.
        for (const element of loopElements(iterable)) {
          f.weak++;
          if (left) this.bind(left, element, f, node);
          f.weak--;
          this.branch(body, f);
        }
        return;
      }
      case 'try_statement':
        for (const child of node.children) {
          if (child.field === 'body') this.stmt(child, f);
          else this.branch([child], f);
        }
        return;
      case 'except_clause':
        for (const child of node.children) {
          if (child.type === 'block') this.stmt(child, f);
          else if (child.type === 'as_pattern') this.bindAsPattern(child, f, node);
        }
        return;
      case 'with_statement':
        for (const item of field(node, 'with_clause')?.children ?? node.children.filter((c) => c.type === 'with_clause').flatMap((c) => c.children)) {
          const value = field(item, 'value');
          if (value?.type === 'as_pattern') this.bindAsPattern(value, f, node);
          else if (value) this.expr(value, f);
        }
        for (const child of node.children) if (child.field === 'body') this.stmt(child, f);
        return;
      case 'import_statement':
      case 'import_from_statement':
        this.importStatement(node);
        return;
      case 'future_import_statement':
      case 'global_statement':
      case 'nonlocal_statement':
      case 'pass_statement':
      case 'break_statement':
      case 'continue_statement':
      case 'comment':
        return;
      default:
        if (STATEMENT.test(node.type)) for (const child of node.children) this.stmt(child, f);
        else this.expr(node, f);
    }
  }

  /** `with open(p) as fh:` / `except E as e:` — binds the alias to the value. */
  private bindAsPattern(node: SyntaxNode, f: Frame, at: SyntaxNode): void {
    const alias = field(node, 'alias');
    const valueNode = node.children.find((c) => c.field !== 'alias');
    const value = valueNode ? this.expr(valueNode, f) : EMPTY;
    const target = alias?.children[0] ?? alias;
    if (target) this.bind(target, value, f, at);
  }

  private importStatement(node: SyntaxNode): void {
    if (node.type === 'import_statement') {
      for (const name of fields(node, 'name')) {
        const dotted = name.type === 'aliased_import' ? this.txt(field(name, 'name')) : this.txt(name);
        const alias = name.type === 'aliased_import' ? this.txt(field(name, 'alias')) : dotted.split('.')[0]!;
        const local = this.resolve(this.m.file, dotted, 0);
        if (name.type === 'aliased_import') this.aliases.set(alias, local ? `@${local}` : dotted);
        else this.aliases.set(alias, local && !dotted.includes('.') ? `@${local}` : alias);
      }
      return;
    }
    const moduleNode = field(node, 'module_name');
    const moduleText = this.txt(moduleNode);
    const level = /^\.*/.exec(moduleText)![0].length;
    const dotted = moduleText.slice(level);
    const local = this.resolve(this.m.file, dotted, level);
    if (node.children.some((c) => c.type === 'wildcard_import')) {
      if (local) this.starModules.push(local);
      return;
    }
    for (const name of fields(node, 'name')) {
      const imported = name.type === 'aliased_import' ? this.txt(field(name, 'name')) : this.txt(name);
      const alias = name.type === 'aliased_import' ? this.txt(field(name, 'alias')) : imported;
      const qualified = dotted ? `${dotted}.${imported}` : imported;
      if (local) {
        this.aliases.set(alias, `@${local}#${imported}`);
        continue;
      }
      const submodule = this.resolve(this.m.file, qualified, level); // from . import helper
      this.aliases.set(alias, submodule ? `@${submodule}` : qualified);
    }
  }

  private defineClass(node: SyntaxNode, f: Frame): void {
    const name = this.txt(field(node, 'name'));
    if (!this.classFields.has(name)) this.classFields.set(name, new Map());
    const body = field(node, 'body');
    if (body) this.stmt(body, { scope: new Scope(f.scope), summary: f.summary, weak: f.weak, cls: name });
  }

  private defineFunction(node: SyntaxNode, f: Frame, decorators: readonly SyntaxNode[]): void {
    const name = this.txt(field(node, 'name'));
    const isMethod = f.cls !== undefined && !decorators.some((d) => /staticmethod/.test(this.txt(d)));
    const entry = decorators.some((d) => ENTRYPOINT_DECORATOR.test(this.txt(d)));
    const declared = this.parameters(field(node, 'parameters'));
    const params = isMethod ? declared.slice(1) : declared;
    const summary: FunctionSummary = { name, params: params.map((p) => p.name), sinks: [], returns: EMPTY };
    // A method's body sees module globals, not the class body; a nested function sees its enclosing scope.
    const scope = new Scope(isMethod ? this.scope : f.scope);
    const at = this.at(node);
    const frame: Frame = { scope, summary, returns: [], weak: 0, cls: isMethod ? f.cls : undefined };
    if (isMethod && declared[0]) scope.bind(declared[0].name, EMPTY, false);
    params.forEach((p, i) => {
      // click/typer commands are entry points: their parameters are command-line input, not caller data.
      const source = entry
        ? sourced({ kind: 'user_input', label: `command-line argument ${p.name}`, at })
        : sourced({ kind: 'param', label: p.name, at, param: i });
      scope.bind(p.name, p.default ? union(source, this.expr(p.default, f)) : source, false);
    });
    const body = field(node, 'body');
    if (body) this.stmt(body, frame);
    summary.returns = frame.returns!.length === 1 ? frame.returns![0]! : union(...frame.returns!);
    if (isMethod) defineIn(this.table, `${f.cls}.${name}`, summary);
    else if (f.scope === this.scope) defineIn(this.table, name, summary);
    else f.scope.functions.set(name, summary);
  }

  private parameters(node: SyntaxNode | undefined): { name: string; default?: SyntaxNode }[] {
    const out: { name: string; default?: SyntaxNode }[] = [];
    for (const p of node?.children ?? []) {
      if (p.type === 'identifier') out.push({ name: this.txt(p) });
      else if (p.type === 'default_parameter' || p.type === 'typed_default_parameter') out.push({ name: this.txt(field(p, 'name')), default: field(p, 'value') });
      else if (p.type === 'typed_parameter' || p.type === 'list_splat_pattern' || p.type === 'dictionary_splat_pattern') {
        const id = p.children.find((c) => c.type === 'identifier') ?? p.children[0]?.children.find((c) => c.type === 'identifier');
        if (id) out.push({ name: this.txt(id) });
      }
    }
    return out;
  }

  // ---- assignment ----------------------------------------------------------------------------------------

  private bind(target: SyntaxNode, value: Value, f: Frame, at: SyntaxNode): void {
    const stepped = step(value, this.at(at));
    switch (target.type) {
      case 'identifier':
        f.scope.bind(this.txt(target), stepped, f.weak > 0);
        return;
      case 'attribute': {
        const object = field(target, 'object');
        const attr = this.txt(field(target, 'attribute'));
        const marked = isCredentialContainer(attr) ? asCredential(stepped, attr) : stepped;
        if (object && f.cls && (this.txt(object) === 'self' || this.txt(object) === 'cls')) {
          // Parameter flows are the method's own; kept in a field they would be replayed against other methods.
          const fieldsOfClass = this.classFields.get(f.cls);
          const real = { ...marked, flows: marked.flows.filter((fl) => fl.source.kind !== 'param') };
          fieldsOfClass?.set(attr, widen(fieldsOfClass.get(attr), real));
        }
        f.scope.bind(this.txt(target), marked, f.weak > 0);
        if (object) this.taintContainer(object, marked, f, at);
        return;
      }
      case 'subscript': {
        const container = field(target, 'value');
        const key = field(target, 'subscript');
        const keyValue = key ? this.expr(key, f) : EMPTY;
        if (!container) return;
        if (this.expr(container, f).kind === 'env_mapping') return; // os.environ['X'] = … sets, does not leak
        this.taintContainer(container, keyValue.text ? asCredential(stepped, keyValue.text) : stepped, f, at);
        return;
      }
      case 'pattern_list':
      case 'tuple_pattern':
      case 'list_pattern':
      case 'tuple':
      case 'list':
        for (const child of target.children) this.bind(child, plain(value), f, at);
        return;
      case 'list_splat_pattern':
      case 'parenthesized_expression':
        for (const child of target.children) this.bind(child, value, f, at);
        return;
      default:
        return;
    }
  }

  /** `payload["k"] = v` / `req.body = v`: the container now carries v's flows too. */
  private taintContainer(container: SyntaxNode, value: Value, f: Frame, at: SyntaxNode): void {
    if (value.flows.length === 0) return;
    if (container.type === 'identifier') {
      const name = this.txt(container);
      if (this.aliases.has(name) && !f.scope.has(name)) return; // openai.api_key = … configures a module
      const before = f.scope.lookup(name);
      f.scope.bind(name, { ...(before ?? EMPTY), flows: union(before, value).flows }, false);
    } else if (container.type === 'attribute' || container.type === 'subscript') {
      this.bind(container, union(this.expr(container, f), value), { ...f, weak: 1 }, at);
    }
  }

  // ---- expressions ---------------------------------------------------------------------------------------

  private expr(node: SyntaxNode, f: Frame): Value {
    if (!this.a.tick()) return EMPTY;
    switch (node.type) {
      case 'identifier':
        return this.identifier(this.txt(node), node, f);
      case 'attribute':
        return this.attribute(node, f);
      case 'subscript':
        return this.subscript(node, f);
      case 'call':
        return this.call(node, f);
      case 'string':
        return this.string(node, f);
      case 'concatenated_string':
        return concat(node.children.map((c) => this.expr(c, f)));
      case 'binary_operator': {
        const left = field(node, 'left');
        const right = field(node, 'right');
        const l = left ? this.expr(left, f) : EMPTY;
        const r = right ? this.expr(right, f) : EMPTY;
        const op = left && right ? this.m.source.slice(left.end, right.start).trim() : '';
        if (op === '+') return concat([l, r]);
        if (op === '/' && l.kind === 'path') return { kind: 'path', flows: union(l, r).flows, text: `${l.text ?? '\u0000'}/${r.text ?? '\u0000'}` };
        return union(l, r);
      }
      case 'boolean_operator': {
        const values = node.children.map((c) => this.expr(c, f));
        return { ...union(...values), kind: values[0]?.kind, text: values[0]?.text };
      }
      case 'comparison_operator':
      case 'not_operator':
        for (const c of node.children) this.expr(c, f);
        return EMPTY;
      case 'assignment':
      case 'augmented_assignment':
        return this.assignment(node, f);
      case 'named_expression': {
        const value = this.expr(field(node, 'value') ?? node, f);
        const name = field(node, 'name');
        if (name) this.bind(name, value, f, node);
        return value;
      }
      case 'dictionary':
        return this.dictionary(node, f);
      case 'list':
      case 'tuple': {
        const items = node.children.map((c) => this.expr(c, f));
        return { flows: union(...items).flows, items };
      }
      case 'list_comprehension':
      case 'set_comprehension':
      case 'dictionary_comprehension':
      case 'generator_expression':
        return this.comprehension(node, f);
      case 'integer':
        return { flows: [], text: this.txt(node) };
      case 'lambda':
      case 'float':
      case 'true':
      case 'false':
      case 'none':
      case 'ellipsis':
      case 'comment':
      case 'type':
        return EMPTY;
      case 'yield': {
        const value = union(...node.children.map((c) => this.expr(c, f)));
        f.returns?.push(value);
        return EMPTY;
      }
      case 'parenthesized_expression':
      case 'await':
      case 'list_splat':
      case 'dictionary_splat':
      case 'unary_operator':
        return node.children.length === 1 ? this.expr(node.children[0]!, f) : union(...node.children.map((c) => this.expr(c, f)));
      default: {
        const values: Value[] = [];
        for (const child of node.children) {
          if (STATEMENT.test(child.type)) this.stmt(child, f);
          else values.push(plain(this.expr(child, f)));
        }
        return union(...values);
      }
    }
  }

  private assignment(node: SyntaxNode, f: Frame): Value {
    const left = field(node, 'left');
    const right = field(node, 'right');
    if (!left || !right) return EMPTY;
    let value = this.expr(right, f);
    if (node.type === 'augmented_assignment') {
      const old = this.expr(left, f);
      value = this.m.source.slice(left.end, right.start).includes('+') ? concat([old, value]) : union(old, value);
    }
    this.bind(left, value, f, node);
    return value;
  }

  private identifier(name: string, node: SyntaxNode, f: Frame): Value {
    const local = f.scope.lookup(name);
    if (local) return local;
    const q = this.aliases.get(name) ?? name;
    return pythonGlobal(q, this.at(node)) ?? EMPTY;
  }

  /** The dotted name a callee or attribute stands for, through import aliases (`sp.run` → `subprocess.run`). */
  private qualify(node: SyntaxNode, f: Frame): string | undefined {
    if (node.type === 'identifier') {
      const name = this.txt(node);
      if (f.scope.has(name)) return undefined;
      return this.aliases.get(name) ?? name;
    }
    if (node.type === 'attribute') {
      const object = field(node, 'object');
      const base = object ? this.qualify(object, f) : undefined;
      if (!base) return undefined;
      const attr = this.txt(field(node, 'attribute'));
      return base.startsWith('@') && !base.includes('#') ? `${base}#${attr}` : `${base}.${attr}`;
    }
    return undefined;
  }

  private attribute(node: SyntaxNode, f: Frame): Value {
    const object = field(node, 'object');
    const attr = this.txt(field(node, 'attribute'));
    if (object && f.cls && (this.txt(object) === 'self' || this.txt(object) === 'cls')) {
      return union(this.classFields.get(f.cls)?.get(attr), f.scope.lookup(this.txt(node)));
    }
    const q = this.qualify(node, f);
    const known = q ? pythonGlobal(q, this.at(node)) : undefined;
    if (known) return known;
    const assigned = f.scope.lookup(this.txt(node));
    const base = object ? this.expr(object, f) : EMPTY;
    if (base.kind === 'env_mapping') return base;
    return assigned ? union(assigned, plain(base)) : { flows: base.flows };
  }

  private subscript(node: SyntaxNode, f: Frame): Value {
    const container = field(node, 'value');
    const base = container ? this.expr(container, f) : EMPTY;
    const keys = fields(node, 'subscript').map((k) => this.expr(k, f));
    const key = keys[0];
    if (base.kind === 'env_mapping') return envVar(key?.text, this.txt(node), this.at(node));
    return elementOf(base, key?.text);
  }

  private string(node: SyntaxNode, f: Frame): Value {
    const parts: Value[] = [];
    const start = node.children.find((c) => c.type === 'string_start');
    const end = node.children.find((c) => c.type === 'string_end');
    let cursor = start ? start.end : node.start;
    for (const child of node.children) {
      if (child.type !== 'interpolation') continue;
      parts.push({ flows: [], text: this.m.source.slice(cursor, child.start) });
      const inner = field(child, 'expression') ?? child.children[0];
      parts.push(inner ? plain(this.expr(inner, f)) : EMPTY);
      cursor = child.end;
    }
    parts.push({ flows: [], text: this.m.source.slice(cursor, end ? end.start : node.end) });
    return parts.length === 1 ? parts[0]! : concat(parts);
  }

  private dictionary(node: SyntaxNode, f: Frame): Value {
    const props = new Map<string, Value>();
    const values: Value[] = [];
    for (const child of node.children) {
      if (child.type === 'pair') {
        const key = field(child, 'key');
        const valueNode = field(child, 'value');
        const keyValue = key ? this.expr(key, f) : EMPTY;
        let value = valueNode ? this.expr(valueNode, f) : EMPTY;
        if (keyValue.text !== undefined) value = asCredential(value, keyValue.text);
        if (keyValue.text !== undefined) props.set(keyValue.text, value);
        values.push(value, keyValue);
      } else values.push(this.expr(child, f));
    }
    return { flows: union(...values).flows, props };
  }

  private comprehension(node: SyntaxNode, f: Frame): Value {
    for (const clause of node.children) {
      if (clause.type !== 'for_in_clause') continue;
      const right = field(clause, 'right');
      const left = field(clause, 'left');
      if (right && left) this.bind(left, plain(this.expr(right, f)), { ...f, weak: 1 }, clause);
    }
    const body = field(node, 'body') ?? node.children[0];
    return body ? plain(this.expr(body, f)) : EMPTY;
  }

  // ---- calls ---------------------------------------------------------------------------------------------

  private args(node: SyntaxNode | undefined, f: Frame): Args {
    const args: Args = { pos: [], kw: new Map() };
    for (const child of node?.children ?? []) {
      if (child.type === 'keyword_argument') {
        const name = this.txt(field(child, 'name'));
        const valueNode = field(child, 'value');
        const value = valueNode ? this.expr(valueNode, f) : EMPTY;
        // auth=…, cookies=…, api_key=…, token=… carry credentials, whatever the call.
        args.kw.set(name, asCredential(value, name));
      } else if (child.type === 'comment') continue;
      else args.pos.push(this.expr(child, f));
    }
    return args;
  }

  /** Functions passed by name to be called later with the call's other arguments: Thread(target=f,
   *  args=(…)), executor.submit(f, …), asyncio.to_thread(f, …), loop.run_in_executor(None, f, …), map(f, …). */
  private functionArguments(node: SyntaxNode | undefined, args: Args, f: Frame, at: string): void {
    if (!node) return;
    const positional = node.children.filter((c) => c.type !== 'keyword_argument' && c.type !== 'comment');
    positional.forEach((child, i) => {
      const fn = this.functionRef(child, f);
      if (fn) this.a.applySummary(fn, argsForParams(fn, { pos: args.pos.slice(i + 1), kw: new Map() }), at, f.summary);
    });
    const target = node.children.find((c) => c.type === 'keyword_argument' && this.txt(field(c, 'name')) === 'target');
    const targetValue = target ? field(target, 'value') : undefined;
    const fn = targetValue ? this.functionRef(targetValue, f) : undefined;
    if (fn) this.a.applySummary(fn, argsForParams(fn, { pos: [...(args.kw.get('args')?.items ?? [])], kw: new Map() }), at, f.summary);
  }

  private functionRef(node: SyntaxNode, f: Frame): FunctionSummary | undefined {
    if (node.type === 'identifier') {
      const name = this.txt(node);
      if (f.scope.has(name)) return undefined;
      const alias = this.aliases.get(name);
      return f.scope.lookupFunction(name) ?? this.moduleFunction(name) ?? (alias ? this.localTarget(alias) : undefined);
    }
    const object = node.type === 'attribute' ? field(node, 'object') : undefined;
    if (object && f.cls && this.txt(object) === 'self') return this.table.functions.get(`${f.cls}.${this.txt(field(node, 'attribute'))}`);
    return undefined;
  }

  private call(node: SyntaxNode, f: Frame): Value {
    const callee = field(node, 'function');
    const args = this.args(field(node, 'arguments'), f);
    const at = this.at(node);
    if (!callee) return EMPTY;
    this.functionArguments(field(node, 'arguments'), args, f, at);
    const ctx: CallContext = {
      args, at, summary: f.summary,
      site: (kind, api, dest) => this.site(node, kind, api, dest),
    };

    if (callee.type === 'identifier') {
      const name = this.txt(callee);
      const local = f.scope.lookupFunction(name) ?? (f.scope.has(name) ? undefined : this.moduleFunction(name));
      if (local) return this.a.applySummary(local, argsForParams(local, args), at, f.summary);
      const init = this.table.functions.get(`${name}.__init__`);
      if (init) {
        this.a.applySummary(init, argsForParams(init, args), at, f.summary);
        return union(...args.pos, ...args.kw.values());
      }
    }
    if (callee.type === 'attribute') {
      const object = field(callee, 'object');
      const method = this.txt(field(callee, 'attribute'));
      if (object && f.cls && this.txt(object) === 'self') {
        const own = this.table.functions.get(`${f.cls}.${method}`);
        if (own) return this.a.applySummary(own, argsForParams(own, args), at, f.summary);
      }
    }
    const q = this.qualify(callee, f);
    const target = q ? this.localTarget(q) : undefined;
    if (target) return this.a.applySummary(target, argsForParams(target, args), at, f.summary);
    if (q !== undefined) {
      const handled = pythonLibraryCall(q, ctx, this.a);
      if (handled) return handled;
    }
    if (callee.type === 'attribute') {
      const object = field(callee, 'object');
      const method = this.txt(field(callee, 'attribute'));
      const receiver = object && q === undefined ? this.expr(object, f) : EMPTY;
      const handled = pythonMethodCall(method, { ...ctx, receiver }, this.a);
      if (handled) return handled;
      const byName = this.methodByName(method);
      if (byName) return this.a.applySummary(byName, argsForParams(byName, args), at, f.summary);
      return union(plain(receiver), ...args.pos, ...args.kw.values());
    }
    if (q === undefined) return union(this.expr(callee, f), ...args.pos, ...args.kw.values());
    return union(...args.pos, ...args.kw.values());
  }

  private moduleFunction(name: string): FunctionSummary | undefined {
    const own = this.table.functions.get(name);
    if (own) return own;
    for (const star of this.starModules) {
      const fn = this.a.modules.get(star)?.functions.get(name);
      if (fn) return fn;
    }
    return undefined;
  }

  /** `@path#name`, or `pkg.helper.send` naming a module file of the skill → that module's function (or the
   *  `__init__` of its class). */
  private localTarget(q: string): FunctionSummary | undefined {
    let path: string | undefined;
    let name: string;
    if (q.startsWith('@')) {
      const hash = q.indexOf('#');
      if (hash < 0) return undefined;
      path = q.slice(1, hash);
      name = q.slice(hash + 1);
    } else {
      const dot = q.lastIndexOf('.');
      if (dot < 0) return undefined;
      path = this.resolve(this.m.file, q.slice(0, dot), 0);
      name = q.slice(dot + 1);
    }
    const table = path ? this.a.modules.get(path) : undefined;
    return table?.functions.get(name) ?? table?.functions.get(`${name}.__init__`);
  }
}
