// JavaScript / TypeScript taint evaluator: the same model as the Python one (values per variable, a summary per
// function, library calls by qualified name through import/require aliases), plus inline callbacks: a
// function literal passed to a call runs with its parameters bound to what the call produces (the response
// of https.get, the content of fs.readFile, the receiver of .then()/.on()), so promise chains and stream
// handlers carry flows.
//
// Limits: loops run once (short literal arrays once per element); `this` outside classes, prototype methods,
// dynamic property names, getters/setters and re-exports (`export * from`) are not followed.
import { isCredentialContainer } from './catalog.js';
import { TaintEvaluator, type Frame } from './evaluator.js';
import { defineIn, type FunctionSummary } from './engine.js';
import { jsGlobal, jsLibraryCall, jsMethodCall } from './javascript-calls.js';
import { asCredential, elementOf, envVar } from './library.js';
import { argsForParams, Scope, type Args, type CallContext } from './scope.js';
import { loopElements, type JsModuleResolver } from './modules.js';
import { field, type SyntaxNode } from './syntax.js';
import { concat, EMPTY, plain, sourced, step, union, widen, type Value } from './values.js';

const STATEMENT = /_statement$|_declaration$|^statement_block$|_clause$|^program$/;
const FUNCTION_LITERAL = new Set(['arrow_function', 'function_expression', 'function', 'generator_function']);
const TYPE_ONLY = /^(?:type_annotation|type_arguments|type_parameters|predefined_type|type_identifier|generic_type|interface_declaration|type_alias_declaration)$/;

export class JavaScriptEvaluator extends TaintEvaluator<JsModuleResolver> {
  // ---- statements ----------------------------------------------------------------------------------------

  protected override stmt(node: SyntaxNode, f: Frame): void {
    if (!this.a.tick()) return;
    switch (node.type) {
      case 'lexical_declaration':
      case 'variable_declaration':
        for (const d of node.children) if (d.type === 'variable_declarator') this.declarator(d, f);
        return;
      case 'function_declaration':
      case 'generator_function_declaration': {
        const name = this.txt(field(node, 'name'));
        this.defineFunction(name, node, f);
        return;
      }
      case 'class_declaration':
      case 'class':
        this.defineClass(node, f);
        return;
      case 'return_statement': {
        const value = node.children[0] ? this.expr(node.children[0], f) : EMPTY;
        f.returns?.push(step(value, this.at(node)));
        return;
      }
      case 'if_statement':
      case 'while_statement':
      case 'do_statement':
      case 'switch_statement': {
        const condition = field(node, 'condition') ?? field(node, 'value');
        if (condition) this.expr(condition, f);
        this.branch(node.children.filter((c) => c !== condition), f);
        return;
      }
      case 'for_statement':
        this.branch(node.children, f);
        return;
      case 'for_in_statement': {
        const right = field(node, 'right');
        const left = field(node, 'left');
        const iterable = right ? this.expr(right, f) : EMPTY;
        const isOf = /\bof\b/.test(this.m.source.slice(left?.end ?? node.start, right?.start ?? node.end));
        for (const element of isOf ? loopElements(iterable) : [plain(iterable)]) {
          f.weak++;
          if (left) this.bindPattern(left, element, f, node, true);
          f.weak--;
          this.branch(node.children.filter((c) => c.field === 'body'), f);
        }
        return;
      }
      case 'try_statement':
        for (const child of node.children) {
          if (child.field === 'body') this.stmt(child, f);
          else this.branch([child], f);
        }
        return;
      case 'catch_clause':
        for (const child of node.children) if (child.field === 'body') this.stmt(child, f);
        return;
      case 'export_statement':
        this.exportStatement(node, f);
        return;
      case 'import_statement':
        this.importStatement(node);
        return;
      case 'expression_statement':
        for (const child of node.children) this.expr(child, f);
        return;
      case 'comment':
      case 'empty_statement':
      case 'debugger_statement':
      case 'break_statement':
      case 'continue_statement':
      case 'interface_declaration':
      case 'type_alias_declaration':
      case 'enum_declaration':
      case 'ambient_declaration':
        return;
      default:
        if (STATEMENT.test(node.type)) for (const child of node.children) this.stmt(child, f);
        else this.expr(node, f);
    }
  }

  private declarator(node: SyntaxNode, f: Frame): void {
    const name = field(node, 'name');
    const value = field(node, 'value');
    if (!name) return;
    if (value && FUNCTION_LITERAL.has(value.type) && name.type === 'identifier') {
      this.defineFunction(this.txt(name), value, f);
      return;
    }
    if (value && this.aliasFrom(name, value, f)) return;
    this.bindPattern(name, value ? this.expr(value, f) : EMPTY, f, node, true);
  }

  /** `const cp = require('child_process')`, `const { exec } = require('child_process')`, `const run = cp.exec`,
   *  `const execP = util.promisify(exec)`: names for library functions, resolved at call time. */
  private aliasFrom(name: SyntaxNode, value: SyntaxNode, f: Frame): boolean {
    const inner = unwrap(value);
    let q: string | undefined;
    if (inner.type === 'call_expression' && this.txt(field(inner, 'function')) === 'require') q = this.requireTarget(inner);
    else if (inner.type === 'call_expression' && /^(?:util\.)?promisify$/.test(this.txt(field(inner, 'function')))) {
      const arg = field(inner, 'arguments')?.children[0];
      q = arg ? this.qualify(arg, f) : undefined;
    } else if (inner.type === 'member_expression' || (inner.type === 'identifier' && this.aliases.has(this.txt(inner)))) {
      const target = this.qualify(inner, f);
      if (target && (target.startsWith('@') || /^(?:child_process|fs|https?|net|tls|vm|axios|zlib|os|path|dns)\b/.test(target))) q = target;
    }
    if (q === undefined) return false;
    if (name.type === 'identifier') {
      this.aliases.set(this.txt(name), q);
      return true;
    }
    if (name.type === 'object_pattern') {
      for (const p of name.children) {
        if (p.type === 'shorthand_property_identifier_pattern') this.aliases.set(this.txt(p), memberOf(q, this.txt(p)));
        else if (p.type === 'pair_pattern') this.aliases.set(this.txt(field(p, 'value')), memberOf(q, stripQuotes(this.txt(field(p, 'key')))));
      }
      return true;
    }
    return false;
  }

  private requireTarget(call: SyntaxNode): string | undefined {
    const spec = field(call, 'arguments')?.children[0];
    if (!spec || spec.type !== 'string') return undefined;
    return this.moduleName(stripQuotes(this.txt(spec)));
  }

  /** `node:fs/promises` → `fs.promises`; `./helper.js` → `@scripts/helper.js` when it is a file of the skill. */
  private moduleName(spec: string): string {
    if (spec.startsWith('.') || spec.startsWith('/')) {
      const local = this.resolve(this.m.file, spec);
      return local ? `@${local}` : spec;
    }
    const name = spec.replace(/^node:/, '');
    if (name === 'node-fetch' || name === 'cross-fetch' || name === 'isomorphic-fetch') return 'fetch';
    return name.replace(/\//g, '.');
  }

  private importStatement(node: SyntaxNode): void {
    const source = field(node, 'source');
    if (!source) return;
    const module = this.moduleName(stripQuotes(this.txt(source)));
    const clause = node.children.find((c) => c.type === 'import_clause');
    for (const part of clause?.children ?? []) {
      if (part.type === 'identifier') this.aliases.set(this.txt(part), module); // default import
      else if (part.type === 'namespace_import') {
        const id = part.children.find((c) => c.type === 'identifier');
        if (id) this.aliases.set(this.txt(id), module);
      } else if (part.type === 'named_imports') {
        for (const spec of part.children) {
          if (spec.type !== 'import_specifier') continue;
          const imported = this.txt(field(spec, 'name'));
          const alias = this.txt(field(spec, 'alias')) || imported;
          this.aliases.set(alias, memberOf(module, imported));
        }
      }
    }
  }

  private exportStatement(node: SyntaxNode, f: Frame): void {
    const declaration = field(node, 'declaration');
    if (declaration) {
      this.stmt(declaration, f);
      return;
    }
    const value = field(node, 'value') ?? node.children.find((c) => c.type !== 'export_clause' && c.type !== 'string' && c.type !== 'comment');
    const isDefault = /^export\s+default\b/.test(this.txt(node));
    if (value && isDefault) {
      if (FUNCTION_LITERAL.has(value.type) || value.type === 'function_declaration') this.defineFunction('default', value, f);
      else if (value.type === 'identifier' && this.table.functions.has(this.txt(value))) defineIn(this.table, 'default', this.table.functions.get(this.txt(value))!);
      else this.expr(value, f);
    }
    for (const clause of node.children.filter((c) => c.type === 'export_clause')) {
      for (const spec of clause.children) {
        const local = this.txt(field(spec, 'name'));
        const exported = this.txt(field(spec, 'alias')) || local;
        const fn = this.table.functions.get(local);
        if (fn) defineIn(this.table, exported, fn);
      }
    }
  }

  private defineClass(node: SyntaxNode, f: Frame): void {
    const name = this.txt(field(node, 'name')) || 'anonymous';
    if (!this.classFields.has(name)) this.classFields.set(name, new Map());
    const body = field(node, 'body');
    for (const member of body?.children ?? []) {
      if (member.type === 'method_definition') {
        this.defineFunction(`${name}.${stripQuotes(this.txt(field(member, 'name')))}`, member, { ...f, cls: name });
      } else if (member.type === 'field_definition' || member.type === 'public_field_definition') {
        const key = field(member, 'property') ?? field(member, 'name');
        const value = field(member, 'value');
        if (key && value) this.classFields.get(name)!.set(this.txt(key), this.expr(value, { ...f, cls: name }));
      }
    }
  }

  /** Summarises a function where it is defined: parameters are `param` sources, sinks they reach are kept. */
  private defineFunction(name: string, node: SyntaxNode, f: Frame): FunctionSummary {
    const paramsNode = field(node, 'parameters') ?? field(node, 'parameter');
    const params = paramsNode ? (paramsNode.type === 'identifier' ? [paramsNode] : paramsNode.children.filter((c) => !TYPE_ONLY.test(c.type) && c.type !== 'comment')) : [];
    const summary: FunctionSummary = { name, params: params.map((p, i) => this.paramName(p) ?? `arg${i}`), sinks: [], returns: EMPTY };
    const frame: Frame = { scope: new Scope(f.scope), summary, returns: [], weak: 0, cls: f.cls };
    const at = this.at(node);
    params.forEach((p, i) => this.bindParam(p, sourced({ kind: 'param', label: summary.params[i]!, at, param: i }), frame, node));
    this.runBody(node, frame);
    summary.returns = union(...frame.returns!);
    if (f.cls && name.startsWith(`${f.cls}.`)) defineIn(this.table, name, summary);
    else if (f.scope === this.scope) defineIn(this.table, name, summary);
    else f.scope.functions.set(name, summary);
    return summary;
  }

  private runBody(fn: SyntaxNode, frame: Frame): void {
    const body = field(fn, 'body');
    if (!body) return;
    if (body.type === 'statement_block') this.stmt(body, frame);
    else frame.returns!.push(this.expr(body, frame)); // concise arrow body
  }

  private paramName(p: SyntaxNode): string | undefined {
    const pattern = field(p, 'pattern') ?? field(p, 'left') ?? p;
    return pattern.type === 'identifier' ? this.txt(pattern) : undefined;
  }

  private bindParam(p: SyntaxNode, value: Value, f: Frame, at: SyntaxNode): void {
    const pattern = field(p, 'pattern') ?? p;
    const fallback = field(p, 'value');
    this.bindPattern(pattern, fallback ? union(value, this.expr(fallback, f)) : value, f, at, true);
  }

  // ---- assignment ----------------------------------------------------------------------------------------

  private bindPattern(target: SyntaxNode, value: Value, f: Frame, at: SyntaxNode, declare: boolean): void {
    const v = step(value, this.at(at));
    switch (target.type) {
      case 'identifier':
      case 'shorthand_property_identifier_pattern':
        if (declare) f.scope.bind(this.txt(target), v, f.weak > 0);
        else f.scope.assign(this.txt(target), v, f.weak > 0);
        return;
      case 'object_pattern':
        for (const p of target.children) {
          if (p.type === 'shorthand_property_identifier_pattern') this.bindPattern(p, this.property(value, this.txt(p)), f, at, declare);
          else if (p.type === 'pair_pattern') {
            const inner = field(p, 'value');
            if (inner) this.bindPattern(inner, this.property(value, stripQuotes(this.txt(field(p, 'key')))), f, at, declare);
          } else if (p.type === 'object_assignment_pattern') {
            const left = field(p, 'left');
            const right = field(p, 'right');
            if (left) this.bindPattern(left, union(this.property(value, this.txt(left)), right ? this.expr(right, f) : EMPTY), f, at, declare);
          } else if (p.type === 'rest_pattern') for (const c of p.children) this.bindPattern(c, plain(value), f, at, declare);
        }
        return;
      case 'array_pattern':
      case 'rest_pattern':
        for (const c of target.children) this.bindPattern(c, plain(value), f, at, declare);
        return;
      case 'assignment_pattern': {
        const left = field(target, 'left');
        const right = field(target, 'right');
        if (left) this.bindPattern(left, union(value, right ? this.expr(right, f) : EMPTY), f, at, declare);
        return;
      }
      case 'member_expression':
      case 'subscript_expression':
        this.assignMember(target, v, f, at);
        return;
      case 'parenthesized_expression':
      case 'non_null_expression':
      case 'as_expression':
        if (target.children[0]) this.bindPattern(target.children[0], value, f, at, declare);
        return;
      default:
        return;
    }
  }

  /** `obj.x = v`, `obj["k"] = v`, `this.x = v`, `module.exports.x = fn`. */
  private assignMember(target: SyntaxNode, value: Value, f: Frame, at: SyntaxNode): void {
    const object = field(target, 'object');
    const keyNode = field(target, 'property') ?? field(target, 'index');
    const key = keyNode ? (keyNode.type === 'property_identifier' ? this.txt(keyNode) : this.expr(keyNode, f).text) : undefined;
    if (!object) return;
    const marked = key !== undefined && (target.type === 'subscript_expression' || isCredentialContainer(key)) ? asCredential(value, key) : value;
    if (object.type === 'this' && f.cls && key !== undefined) {
      const fieldsOfClass = this.classFields.get(f.cls);
      const real = { ...marked, flows: marked.flows.filter((fl) => fl.source.kind !== 'param') };
      fieldsOfClass?.set(key, widen(fieldsOfClass.get(key), real));
      return;
    }
    if (this.expr(object, f).kind === 'env_mapping') return; // process.env.X = … sets, does not leak
    f.scope.assign(this.txt(target), marked, f.weak > 0);
    if (marked.flows.length === 0) return;
    if (object.type === 'identifier') {
      const name = this.txt(object);
      if (this.aliases.has(name) && !f.scope.has(name)) return; // axios.defaults… = configures a module
      const before = f.scope.lookup(name);
      f.scope.assign(name, { ...(before ?? EMPTY), flows: union(before, marked).flows }, false);
    } else if (object.type === 'member_expression' || object.type === 'subscript_expression') {
      this.assignMember(object, union(this.expr(object, f), marked), { ...f, weak: 1 }, at);
    }
  }

  /** `module.exports = {send}`, `exports.send = (d) => …`: exported functions for cross-file calls. */
  private exportsAssignment(left: SyntaxNode, right: SyntaxNode, f: Frame): boolean {
    const target = this.txt(left).replace(/\s+/g, '');
    const member = /^(?:module\.)?exports\.(\w+)$/.exec(target)?.[1];
    if (target !== 'module.exports' && !member) return false;
    const value = unwrap(right);
    if (member) {
      if (FUNCTION_LITERAL.has(value.type)) this.defineFunction(member, value, f);
      else if (value.type === 'identifier' && this.table.functions.has(this.txt(value))) defineIn(this.table, member, this.table.functions.get(this.txt(value))!);
      else return false;
      return true;
    }
    if (FUNCTION_LITERAL.has(value.type)) {
      this.defineFunction('default', value, f);
      return true;
    }
    if (value.type === 'identifier' && this.table.functions.has(this.txt(value))) {
      defineIn(this.table, 'default', this.table.functions.get(this.txt(value))!);
      return true;
    }
    if (value.type !== 'object') return false;
    for (const p of value.children) {
      if (p.type === 'shorthand_property_identifier') {
        const fn = this.table.functions.get(this.txt(p));
        if (fn) defineIn(this.table, this.txt(p), fn);
      } else if (p.type === 'pair') {
        const key = stripQuotes(this.txt(field(p, 'key')));
        const v = field(p, 'value');
        if (v && FUNCTION_LITERAL.has(v.type)) this.defineFunction(key, v, f);
        else if (v?.type === 'identifier' && this.table.functions.has(this.txt(v))) defineIn(this.table, key, this.table.functions.get(this.txt(v))!);
      } else if (p.type === 'method_definition') {
        this.defineFunction(stripQuotes(this.txt(field(p, 'name'))), p, f);
      }
    }
    return true;
  }

  // ---- expressions ---------------------------------------------------------------------------------------

  private expr(node: SyntaxNode, f: Frame): Value {
    if (!this.a.tick()) return EMPTY;
    switch (node.type) {
      case 'identifier':
        return this.identifier(node, f);
      case 'member_expression':
      case 'subscript_expression':
        return this.member(node, f);
      case 'call_expression':
        return this.call(node, f);
      case 'new_expression':
        return this.newCall(node, f);
      case 'string':
        return { flows: [], text: this.txt(node).slice(1, -1) };
      case 'template_string':
        return this.template(node, f);
      case 'binary_expression': {
        const left = field(node, 'left');
        const right = field(node, 'right');
        const l = left ? this.expr(left, f) : EMPTY;
        const r = right ? this.expr(right, f) : EMPTY;
        const op = left && right ? this.m.source.slice(left.end, right.start).trim() : '';
        if (op === '+') return concat([l, r]);
        if (op === '||' || op === '??' || op === '&&') return { ...union(l, r), kind: l.kind ?? r.kind, text: l.text ?? r.text };
        if (/^(?:[=!]==?|[<>]=?|instanceof|in)$/.test(op)) return EMPTY;
        return union(l, r);
      }
      case 'unary_expression': {
        const arg = field(node, 'argument') ?? node.children[0];
        const v = arg ? this.expr(arg, f) : EMPTY;
        return /^(?:typeof|void|delete|!)/.test(this.txt(node)) ? EMPTY : v;
      }
      case 'number':
        return { flows: [], text: this.txt(node) };
      case 'update_expression':
      case 'true':
      case 'false':
      case 'null':
      case 'undefined':
      case 'regex':
      case 'this':
      case 'super':
      case 'comment':
        return EMPTY;
      case 'assignment_expression': {
        const left = field(node, 'left');
        const right = field(node, 'right');
        if (!left || !right) return EMPTY;
        if (this.exportsAssignment(left, right, f)) return EMPTY;
        if (FUNCTION_LITERAL.has(right.type) && left.type === 'identifier') {
          this.defineFunction(this.txt(left), right, f);
          return EMPTY;
        }
        const value = this.expr(right, f);
        this.bindPattern(left, value, f, node, false);
        return value;
      }
      case 'augmented_assignment_expression': {
        const left = field(node, 'left');
        const right = field(node, 'right');
        if (!left || !right) return EMPTY;
        const old = this.expr(left, f);
        const add = this.expr(right, f);
        const value = this.m.source.slice(left.end, right.start).includes('+') ? concat([old, add]) : union(old, add);
        this.bindPattern(left, value, f, node, false);
        return value;
      }
      case 'object':
        return this.object(node, f);
      case 'array': {
        const items = node.children.map((c) => this.expr(c, f));
        return { flows: union(...items).flows, items };
      }
      case 'ternary_expression':
        return union(...node.children.map((c) => this.expr(c, f)));
      case 'sequence_expression': {
        const values = node.children.map((c) => this.expr(c, f));
        return values[values.length - 1] ?? EMPTY;
      }
      case 'arrow_function':
      case 'function_expression':
      case 'function':
      case 'generator_function':
        return EMPTY;
      case 'class':
        this.defineClass(node, f);
        return EMPTY;
      case 'await_expression':
      case 'parenthesized_expression':
      case 'spread_element':
      case 'as_expression':
      case 'satisfies_expression':
      case 'non_null_expression':
      case 'type_assertion':
      case 'yield_expression': {
        const inner = node.children.find((c) => !TYPE_ONLY.test(c.type));
        const v = inner ? this.expr(inner, f) : EMPTY;
        if (node.type === 'yield_expression') f.returns?.push(v);
        return v;
      }
      default: {
        const values: Value[] = [];
        for (const child of node.children) {
          if (STATEMENT.test(child.type)) this.stmt(child, f);
          else if (!TYPE_ONLY.test(child.type)) values.push(plain(this.expr(child, f)));
        }
        return union(...values);
      }
    }
  }

  private identifier(node: SyntaxNode, f: Frame): Value {
    const name = this.txt(node);
    const local = f.scope.lookup(name);
    if (local) return local;
    return jsGlobal(this.aliases.get(name) ?? name, this.at(node)) ?? EMPTY;
  }

  /** The qualified name a callee stands for: `cp.exec` → `child_process.exec`, `require('fs').readFileSync`. */
  private qualify(node: SyntaxNode, f: Frame): string | undefined {
    const n = unwrap(node);
    if (n.type === 'identifier') {
      const name = this.txt(n);
      if (f.scope.has(name)) return undefined;
      return this.aliases.get(name) ?? name;
    }
    if (n.type === 'member_expression' || n.type === 'subscript_expression') {
      const object = field(n, 'object');
      const key = n.type === 'member_expression' ? this.txt(field(n, 'property')) : stripQuotes(this.txt(field(n, 'index')));
      const base = object ? this.qualify(object, f) : undefined;
      return base && /^[\w$]+$/.test(key) ? memberOf(base, key) : undefined;
    }
    if (n.type === 'call_expression' && this.txt(field(n, 'function')) === 'require') return this.requireTarget(n);
    return undefined;
  }

  private member(node: SyntaxNode, f: Frame): Value {
    const object = field(node, 'object');
    const keyNode = field(node, 'property') ?? field(node, 'index');
    const key = keyNode ? (keyNode.type === 'property_identifier' ? this.txt(keyNode) : this.expr(keyNode, f).text) : undefined;
    if (object?.type === 'this' && f.cls) return union(key !== undefined ? this.classFields.get(f.cls)?.get(key) : undefined);
    const q = this.qualify(node, f);
    const known = q ? jsGlobal(q, this.at(node)) : undefined;
    if (known) return known;
    const base = object ? this.expr(object, f) : EMPTY;
    if (base.kind === 'env_mapping') return envVar(key, `process.env.${key ?? '[…]'}`, this.at(node));
    const assigned = f.scope.lookup(this.txt(node));
    const element = elementOf(base, key);
    return assigned ? union(assigned, element) : element;
  }

  private property(value: Value, key: string): Value {
    if (value.kind === 'env_mapping') return envVar(key, `process.env.${key}`, value.flows[0]?.source.at ?? '');
    return value.props?.get(key) ?? plain(value);
  }

  private template(node: SyntaxNode, f: Frame): Value {
    const parts: Value[] = [];
    let cursor = node.start + 1;
    for (const child of node.children) {
      if (child.type !== 'template_substitution') continue;
      parts.push({ flows: [], text: this.m.source.slice(cursor, child.start) });
      const inner = child.children[0];
      parts.push(inner ? plain(this.expr(inner, f)) : EMPTY);
      cursor = child.end;
    }
    parts.push({ flows: [], text: this.m.source.slice(cursor, node.end - 1) });
    return parts.length === 1 ? parts[0]! : concat(parts);
  }

  private object(node: SyntaxNode, f: Frame): Value {
    const props = new Map<string, Value>();
    const values: Value[] = [];
    for (const p of node.children) {
      let key: string | undefined;
      let value: Value;
      if (p.type === 'pair') {
        const keyNode = field(p, 'key');
        key = keyNode?.type === 'computed_property_name' ? this.expr(keyNode, f).text : stripQuotes(this.txt(keyNode));
        const v = field(p, 'value');
        value = v ? this.expr(v, f) : EMPTY;
      } else if (p.type === 'shorthand_property_identifier') {
        key = this.txt(p);
        value = f.scope.lookup(key) ?? EMPTY;
      } else if (p.type === 'spread_element') {
        const spread = this.expr(p, f);
        for (const [k, v] of spread.props ?? []) props.set(k, v);
        value = plain(spread);
      } else continue;
      if (key !== undefined) value = asCredential(value, key);
      if (key !== undefined) props.set(key, value);
      values.push(value);
    }
    return { flows: union(...values).flows, props };
  }

  // ---- calls ---------------------------------------------------------------------------------------------

  /** Evaluated arguments; function literals and local functions passed by name are set aside as callbacks. */
  private args(node: SyntaxNode | undefined, f: Frame): { args: Args; callbacks: (SyntaxNode | FunctionSummary)[] } {
    const args: Args = { pos: [], kw: new Map() };
    const callbacks: (SyntaxNode | FunctionSummary)[] = [];
    if (node?.type === 'template_string') {
      args.pos.push(this.template(node, f));
      return { args, callbacks };
    }
    for (const child of node?.children ?? []) {
      if (child.type === 'comment') continue;
      const named = child.type === 'identifier' && !f.scope.has(this.txt(child)) ? f.scope.lookupFunction(this.txt(child)) ?? this.table.functions.get(this.txt(child)) : undefined;
      if (FUNCTION_LITERAL.has(child.type) || named) {
        callbacks.push(named ?? child);
        args.pos.push(EMPTY);
      } else args.pos.push(this.expr(child, f));
    }
    return { args, callbacks };
  }

  private call(node: SyntaxNode, f: Frame): Value {
    const callee = field(node, 'function');
    if (!callee) return EMPTY;
    const { args, callbacks } = this.args(field(node, 'arguments'), f);
    const inner = unwrap(callee);
    if (FUNCTION_LITERAL.has(inner.type)) return this.inline(inner, args.pos, f); // (async () => { … })()
    let receiver: Value | undefined;
    const result = this.dispatch(node, callee, args, f, (r) => (receiver = r));
    if (callbacks.length === 0) return result;
    // Callbacks run with what the call produces: the response, the file content, the promise's value.
    const input = union(result, receiver && plain(receiver));
    const returned = callbacks.map((cb) => 'type' in cb
      ? this.inline(cb, args.pos.map(() => input), f)
      : this.a.applySummary(cb, cb.params.map(() => input), this.at(node), f.summary));
    return union(result, ...returned);
  }

  private dispatch(node: SyntaxNode, callee: SyntaxNode, args: Args, f: Frame, onReceiver: (r: Value) => void): Value {
    const at = this.at(node);
    const ctx: CallContext = { args, at, summary: f.summary, site: (kind, api, dest) => this.site(node, kind, api, dest) };
    const inner = unwrap(callee);
    if (inner.type === 'identifier') {
      const name = this.txt(inner);
      const local = f.scope.lookupFunction(name) ?? (f.scope.has(name) ? undefined : this.table.functions.get(name));
      if (local) return this.a.applySummary(local, argsForParams(local, args), at, f.summary);
    }
    if (inner.type === 'member_expression' && field(inner, 'object')?.type === 'this' && f.cls) {
      const own = this.table.functions.get(`${f.cls}.${this.txt(field(inner, 'property'))}`);
      if (own) return this.a.applySummary(own, argsForParams(own, args), at, f.summary);
    }
    const q = this.qualify(callee, f);
    const target = q ? this.localTarget(q) : undefined;
    if (target) return this.a.applySummary(target, argsForParams(target, args), at, f.summary);
    if (q !== undefined && !q.startsWith('@')) {
      const handled = jsLibraryCall(q, ctx, this.a);
      if (handled) return handled;
    }
    if (inner.type === 'member_expression') {
      const object = field(inner, 'object');
      const method = this.txt(field(inner, 'property'));
      const receiver = object ? this.expr(object, f) : EMPTY;
      onReceiver(receiver);
      const handled = jsMethodCall(method, { ...ctx, receiver }, this.a);
      if (handled) return handled;
      const byName = q === undefined ? this.methodByName(method) : undefined;
      if (byName) return this.a.applySummary(byName, argsForParams(byName, args), at, f.summary);
      return union(plain(receiver), ...args.pos);
    }
    if (q === undefined) return union(this.expr(callee, f), ...args.pos);
    return union(...args.pos);
  }

  private newCall(node: SyntaxNode, f: Frame): Value {
    const ctor = field(node, 'constructor');
    const { args } = this.args(field(node, 'arguments'), f);
    if (!ctor) return EMPTY;
    const at = this.at(node);
    const q = this.qualify(ctor, f);
    const ctx: CallContext = { args, at, summary: f.summary, site: (kind, api, dest) => this.site(node, kind, api, dest) };
    if (q !== undefined && !q.startsWith('@')) {
      const className = q.slice(q.lastIndexOf('.') + 1);
      const init = this.table.functions.get(`${className}.constructor`);
      if (init) {
        this.a.applySummary(init, argsForParams(init, args), at, f.summary);
        return union(...args.pos);
      }
      const handled = jsLibraryCall(`new ${q}`, ctx, this.a) ?? jsLibraryCall(q, ctx, this.a);
      if (handled) return handled;
    }
    return union(...args.pos);
  }

  /** Runs a function literal in place (an IIFE or a callback) with its parameters bound to `values`. */
  private inline(fn: SyntaxNode, values: readonly Value[], f: Frame): Value {
    const paramsNode = field(fn, 'parameters') ?? field(fn, 'parameter');
    const params = paramsNode ? (paramsNode.type === 'identifier' ? [paramsNode] : paramsNode.children.filter((c) => !TYPE_ONLY.test(c.type) && c.type !== 'comment')) : [];
    const frame: Frame = { scope: new Scope(f.scope), summary: f.summary, returns: [], weak: f.weak, cls: f.cls };
    params.forEach((p, i) => this.bindParam(p, values[i] ?? EMPTY, frame, fn));
    this.runBody(fn, frame);
    return union(...frame.returns!);
  }

  /** `@path#name` → that module's function; `@path` called directly → its default export. */
  private localTarget(q: string): FunctionSummary | undefined {
    if (!q.startsWith('@')) return undefined;
    const hash = q.indexOf('#');
    const path = hash < 0 ? q.slice(1) : q.slice(1, hash);
    const name = hash < 0 ? 'default' : q.slice(hash + 1);
    const table = this.a.modules.get(path);
    return table?.functions.get(name) ?? table?.functions.get(`${name}.constructor`);
  }
}

/** The expression inside parentheses, `await`, TS assertions, and the last of a sequence (`(0, eval)`). */
function unwrap(node: SyntaxNode): SyntaxNode {
  let n = node;
  for (;;) {
    if ((n.type === 'parenthesized_expression' || n.type === 'await_expression' || n.type === 'non_null_expression' || n.type === 'as_expression') && n.children[0]) n = n.children[0];
    else if (n.type === 'sequence_expression' && n.children.length > 0) n = n.children[n.children.length - 1]!;
    else return n;
  }
}

const stripQuotes = (text: string): string => text.replace(/^["'`]|["'`]$/g, '');

/** `@path` + `send` → `@path#send`; `fs` + `readFileSync` → `fs.readFileSync`. */
const memberOf = (base: string, name: string): string => (base.startsWith('@') && !base.includes('#') ? `${base}#${name}` : `${base}.${name}`);
