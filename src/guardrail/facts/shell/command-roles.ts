// Which commands the destructive-command facts look at beyond recording them, and the argument reading
// that needs no walker state: GNU parallel's runs, `docker exec` / `kubectl exec` / `ssh` command lines,
// what xargs appends, and the command a pipeline stage runs once wrappers are peeled off. The walker keeps
// the parts that walk (walker.ts); this module only reads argv.
import { parseOptions } from './options.js';
import { PATH_OP_COMMANDS } from './path-ops.js';
import { DOWNLOADERS } from './remote-code.js';
import { INPUT_TARGETS } from './scope.js';
import type { Command, SimpleCommand } from './syntax.js';
import { unwrap, WRAPPER_COMMANDS } from './wrappers.js';

/** What the walker does for a command besides recording it (bit flags of ROLES). */
export const PATH_OP = 1;
export const STATE = 2;
export const REMOTE = 4;
export const DATA_CLIENT = 8;
export const DOWNLOADER = 16;
export const INTERPRETER = 32;

/** Database and data-store clients whose query text on standard input is recorded as an input. */
const DATA_CLIENTS = [
  'psql', 'mysql', 'mariadb', 'sqlite3', 'sqlite', 'sqlcmd', 'cockroach', 'clickhouse-client', 'clickhouse', 'duckdb',
  'mongo', 'mongosh', 'redis-cli', 'valkey-cli', 'keydb-cli', 'cqlsh', 'snowsql', 'usql', 'pgcli', 'mycli', 'litecli', 'influx', 'mysqlsh',
];
/** Commands that change what later commands of the script mean (script-state.ts), and git and parallel. */
const STATEFUL = ['alias', 'export', 'declare', 'typeset', 'local', 'readonly', 'unset', 'cd', 'pushd', 'git', 'parallel'];
/** Commands that run a command line in a container or on another host. */
const REMOTE_RUNNERS = ['docker', 'podman', 'nerdctl', 'kubectl', 'oc', 'ssh'];

/** One lookup per command: most commands of a script have no role. Interpreters are recognised by name
 *  pattern (interpreters.ts), not listed here. */
export const ROLES: ReadonlyMap<string, number> = (() => {
  const roles = new Map<string, number>();
  const add = (names: Iterable<string>, role: number): void => {
    for (const n of names) roles.set(n, (roles.get(n) ?? 0) | role);
  };
  add(PATH_OP_COMMANDS, PATH_OP);
  add(STATEFUL, STATE);
  add(REMOTE_RUNNERS, REMOTE);
  add(DATA_CLIENTS, DATA_CLIENT);
  add(DOWNLOADERS, DOWNLOADER);
  return roles;
})();

const MAX_PARALLEL_INPUTS = 16;
const MAX_INPUT_TARGETS = 64;
const PARALLEL_VALUE_OPTIONS = /^-(j|S|P|N|n|L|l|k|X|d|a|E|I|-jobs|-sshlogin|-arg-file|-delimiter|-max-args|-joblog|-results|-timeout|-tmpdir|-colsep)$/;
const FIND_VALUE_OPTIONS = /^-(name|iname|path|type|maxdepth|mindepth|newer|mtime|size|regex|e|t|d)$/;

/** Basename of argv0; a substitution used as the command name is kept whole. */
export function commandName(argv0: string): string {
  // A loop rather than lastIndexOf, which V8 runs outside optimised code: this is called for every command.
  let slash = argv0.length - 1;
  while (slash >= 0 && argv0.charCodeAt(slash) !== 47 /* / */) slash--;
  if (slash < 0 || argv0.includes('$(') || argv0.includes('`')) return argv0;
  return argv0.slice(slash + 1);
}

/** Targets a command gets from xargs or parallel rather than from its own arguments. */
export interface InputTargets {
  paths: string[];
  /** They come from a find with name/path/time tests: only matching entries. */
  filtered: boolean;
}

/** One run of a parallel command: shell text, or an argv (with `fromInput` when inputs come from stdin). */
export type ParallelRun = { script: string } | { argv: string[]; fromInput: boolean };

/** GNU parallel: `parallel CMD ::: inputs` runs CMD once per input (`{}` replaced, or the input appended);
 *  without `:::` the inputs come from standard input. A single quoted command is shell text. */
export function parallelRuns(args: readonly string[]): ParallelRun[] {
  let i = 0;
  while (i < args.length && args[i]!.startsWith('-') && args[i] !== ':::') i += PARALLEL_VALUE_OPTIONS.test(args[i]!) ? 2 : 1;
  const sep = args.findIndex((a, j) => j >= i && (a === ':::' || a === '::::'));
  const command = args.slice(i, sep < 0 ? args.length : sep);
  if (command.length === 0) return [];
  const inputs = sep < 0 ? [] : args.slice(sep + 1).filter((a) => a !== ':::' && a !== '::::').slice(0, MAX_PARALLEL_INPUTS);
  const asScript = command.length === 1 && /\s/.test(command[0]!);
  if (inputs.length === 0) return [asScript ? { script: command[0]! } : { argv: [...command], fromInput: true }];
  return inputs.map((input): ParallelRun => {
    const fill = (w: string): string => w.replaceAll('{}', input);
    if (asScript) {
      const text = fill(command[0]!);
      return { script: text !== command[0] ? text : `${text} ${shellQuote(input)}` };
    }
    const argv = command.map(fill);
    if (!command.some((w) => w.includes('{}'))) argv.push(input);
    return { argv, fromInput: false };
  });
}

/** What `docker exec CTR CMD…`, `kubectl exec POD -- CMD…` and `ssh HOST CMD…` run; ssh's command line is
 *  shell text for another machine (`remoteHost`). */
export function remoteCommand(name: string, args: readonly string[]): { argv: string[] } | { script: string; remoteHost: true } | undefined {
  if (name === 'ssh') {
    const { operands } = parseOptions(args, { short: 'BbcDEeFIiJLlmOoPpQRSWw', stopAtOperand: true });
    return operands.length < 2 ? undefined : { script: operands.slice(1).join(' '), remoteHost: true };
  }
  const dash = args.indexOf('--');
  if ((name === 'kubectl' || name === 'oc') && args[0] === 'exec') return dash > 0 && dash + 1 < args.length ? { argv: args.slice(dash + 1) } : undefined;
  const at = args[0] === 'container' ? 1 : 0;
  if (args[at] !== 'exec') return undefined;
  const { operands } = parseOptions(args.slice(at + 1), { short: 'euw', long: ['--env', '--user', '--workdir', '--env-file', '--detach-keys'], stopAtOperand: true });
  return operands.length > 1 ? { argv: operands.slice(1) } : undefined;
}

/** What xargs appends: the words of a known input, or what the `find` / `fd` / `ls` before it lists. */
export function xargsTargets(stdin: string | undefined, producer: Command | undefined): InputTargets {
  if (stdin !== undefined) return { paths: stdin.split(/\s+/).filter((w) => w !== '').slice(0, MAX_INPUT_TARGETS), filtered: false };
  const argv = producer ? stageArgv(producer) : undefined;
  if (argv && (argv[0] === 'find' || argv[0] === 'fd' || argv[0] === 'ls')) {
    const operands = argv.slice(1).filter((a, j, all) => !a.startsWith('-') && (j === 0 || !FIND_VALUE_OPTIONS.test(all[j - 1]!)));
    const roots = argv[0] === 'find' ? operands.slice(0, 1) : argv[0] === 'fd' ? operands.slice(1, 2) : operands;
    const filtered = argv[0] !== 'ls' && argv.length > 1 + roots.length;
    return { paths: roots.length > 0 ? roots : ['.'], filtered };
  }
  return { paths: [INPUT_TARGETS], filtered: false };
}

/** A stage whose command is a downloader, or a wrapper that may run one. */
export function mayDownload(stage: SimpleCommand): boolean {
  if (stage.words.length === 0) return false;
  const name = commandName(stage.words[0]!.text);
  return DOWNLOADERS.has(name) || WRAPPER_COMMANDS.has(name);
}

/** The command a stage finally runs once wrappers (sudo, env, timeout …) are peeled off. */
export function innermostArgv(argv: string[]): string[] {
  let current = argv;
  for (let i = 0; i < 8 && current.length > 0; i++) {
    const wrapped = unwrap(commandName(current[0]!), current.slice(1));
    if (!wrapped?.argv || !wrapped.passesStdin) break;
    current = wrapped.argv;
  }
  return current;
}

/** The innermost argv of a simple command, its name reduced to a basename. */
function stageArgv(command: Command): string[] | undefined {
  if (command.kind !== 'simple' || command.words.length === 0) return undefined;
  const argv = innermostArgv(command.words.map((w) => w.text));
  return argv.length > 0 ? [commandName(argv[0]!), ...argv.slice(1)] : undefined;
}

export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+,~-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

