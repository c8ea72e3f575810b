// What earlier commands of the same script change about later ones: variables (`T=/; rm -rf $T`), aliases
// (`alias x='rm -rf'; x ~`), git aliases (`git config alias.x …`), the current directory (`cd / && rm -rf *`)
// and files downloaded earlier (`curl -o i.sh … && sh i.sh`). Tracked in order, without control flow: a
// conservative reading (a branch not taken still counts), which is what a guard wants.
import { homeContaining, resolvePath, type ScopeContext } from './scope.js';

const VARIABLE_REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;
const WHOLE_REFERENCE = /^\$(\{[A-Za-z_][A-Za-z0-9_]*\}|[A-Za-z_][A-Za-z0-9_]*)$/;
const NAME_VALUE = /^([A-Za-z_][A-Za-z0-9_]*)=([\s\S]*)$/;
/** Values longer than this are not remembered (a guard needs names and paths, not file contents). */
const MAX_VALUE = 4096;
const MAX_ENTRIES = 256;
/** Characters that variable expansion may add per call: beyond it words stay as written. */
const MAX_EXPANDED = 256 * 1024;

export class ScriptState {
  readonly variables = new Map<string, string>();
  readonly aliases = new Map<string, string>();
  readonly gitAliases = new Map<string, string>();
  /** Basenames of downloaded files and the hosts they came from. */
  readonly downloaded = new Map<string, string[]>();
  readonly scope: ScopeContext;
  private expandedBudget = MAX_EXPANDED;

  /** `root` is the project root, `dir` the directory the call starts in (they differ when the working
   *  directory is not a project, such as a home directory). */
  constructor(root: string, dir: string) {
    this.scope = { root, dir };
  }

  /** `$NAME` / `${NAME}` replaced by values assigned earlier; unknown names stay as written. */
  expand(text: string): string {
    if (this.variables.size === 0 || !text.includes('$') || this.expandedBudget <= 0) return text;
    const value = text.replace(VARIABLE_REFERENCE, (ref, braced: string | undefined, plain: string | undefined) => this.variables.get(braced ?? plain ?? '') ?? ref);
    this.expandedBudget -= value.length;
    return value;
  }

  /** The words a word becomes: an unquoted-looking lone `$X` whose value has spaces splits, as the shell does. */
  expandWord(text: string): string[] {
    const value = this.expand(text);
    if (value === text || !WHOLE_REFERENCE.test(text) || !/\s/.test(value)) return [value];
    return value.split(/\s+/).filter((w) => w !== '');
  }

  /** `NAME=value` (a bare assignment, or an operand of export/declare/local/readonly/typeset); `value` is a
   *  substitution's known output, `unknown` says the value comes from a substitution whose output is not. */
  assign(assignment: string, value?: string, unknown = false): void {
    const m = NAME_VALUE.exec(assignment);
    if (!m) return;
    const v = value ?? this.expand(m[2]!);
    if (unknown || v.length > MAX_VALUE) this.variables.delete(m[1]!);
    else if (this.variables.size < MAX_ENTRIES || this.variables.has(m[1]!)) this.variables.set(m[1]!, v);
  }

  unset(names: readonly string[]): void {
    for (const n of names) this.variables.delete(n);
  }

  /** `alias name=value …`. */
  defineAliases(args: readonly string[]): void {
    for (const a of args) {
      const m = NAME_VALUE.exec(a) ?? /^([^=\s]+)=([\s\S]*)$/.exec(a);
      if (m && m[2]!.length <= MAX_VALUE && this.aliases.size < MAX_ENTRIES) this.aliases.set(m[1]!, m[2]!);
    }
  }

  /** `cd DIR` / `pushd DIR`: later relative paths resolve against DIR. */
  changeDirectory(args: readonly string[]): void {
    const target = args.find((a) => !a.startsWith('-') || a === '-');
    if (target === '-') {
      this.scope.dir = '';
      return;
    }
    const home = homeContaining(this.scope.root || this.scope.dir);
    const dir = target === undefined ? home || '~' : resolvePath(target, this.scope);
    this.scope.dir = dir.includes('$') || dir.includes('`') ? '' : dir || '/';
  }
}
