// The state and helpers the Python and JavaScript taint evaluators share: the module-level scope, import
// aliases, class fields, the module's function table, and how a node becomes source text, a `file:line` and a
// sink site. Each language supplies its own statement walk (`stmt`) and everything below it.
import { newModuleTable, uniqueMethod, type Analysis, type FunctionSummary, type ModuleTable } from './engine.js';
import type { SinkKind, SinkSite } from './rules.js';
import { Scope } from './scope.js';
import type { CodeModule, SyntaxNode } from './syntax.js';
import type { Value } from './values.js';

export interface Frame {
  scope: Scope;
  /** The function being summarised; undefined at module level. */
  summary?: FunctionSummary;
  returns?: Value[];
  /** Nesting depth of branches and loops: assignments there merge with the previous value. */
  weak: number;
  /** Class whose body or method is being evaluated. */
  cls?: string;
}

/** `R`: the language's module resolver, for imports naming other files of the skill. */
export abstract class TaintEvaluator<R> {
  protected readonly scope = new Scope();
  /** Local name → qualified name: `sp` → `subprocess`, `send` → `@scripts/helper.py#send`. */
  protected readonly aliases = new Map<string, string>();
  protected readonly classFields = new Map<string, Map<string, Value>>();
  protected readonly table: ModuleTable = newModuleTable();

  /** `host`: the code is a string run by another program (exec of a decoded blob, python -c); everything is
   *  reported at that call. */
  constructor(protected readonly a: Analysis, protected readonly m: CodeModule, protected readonly resolve: R, protected readonly host?: SinkSite) {
    if (m.importable) a.modules.set(m.file, this.table);
  }

  /** One analysis round over the module (two are run, so calls to functions defined later resolve). */
  run(summary?: FunctionSummary): void {
    this.stmt(this.m.root, { scope: this.scope, weak: 0, summary });
  }

  protected abstract stmt(node: SyntaxNode, f: Frame): void;

  protected txt(node: SyntaxNode | undefined): string {
    return node ? this.m.source.slice(node.start, node.end) : '';
  }

  protected at(node: SyntaxNode): string {
    return this.host ? this.host.at : this.a.at(this.m.file, node.start);
  }

  protected site(node: SyntaxNode, kind: SinkKind, api: string, dest?: string): SinkSite {
    if (this.host) return { ...this.host, kind, api: `${this.host.api} → ${api}`, dest };
    return { kind, api, file: this.m.file, index: node.start, at: this.at(node), dest };
  }

  protected branch(nodes: readonly SyntaxNode[], f: Frame): void {
    f.weak++;
    for (const n of nodes) this.stmt(n, f);
    f.weak--;
  }

  /** A method call on an object we cannot type: the one method of that name defined in this module or a
   *  module it imports, if exactly one exists. */
  protected methodByName(method: string): FunctionSummary | undefined {
    const imported = [...this.aliases.values()].filter((q) => q.startsWith('@')).map((q) => this.a.modules.get(q.slice(1).split('#')[0]!));
    return uniqueMethod([this.table, ...imported], method);
  }
}
