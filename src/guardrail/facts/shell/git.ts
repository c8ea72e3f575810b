// git's own indirections, so that rules see the subcommand that really runs: global options before it
// (`git -C dir --git-dir=x -c k=v reset --hard`), aliases (`-c alias.x=…`, or `git config alias.x …` earlier
// in the script) and configuration values git runs as shell commands (`core.pager`, `core.sshCommand`,
// `!`-aliases …), which are walked as shell text.
import { parseOptions } from './options.js';

/** Global options that take the next argument as their value when written without `=`. */
const VALUE_OPTIONS = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env', '--super-prefix', '--exec-path', '--attr-source', '--list-cmds']);
/** Configuration keys whose value git runs through the shell. */
const COMMAND_KEYS = /^(core\.(pager|sshcommand|editor|fsmonitor|hookspath_)|sequence\.editor|pager\.[a-z-]+|credential\.helper|diff\.external|gpg\.program|ssh\.program|difftool\.[^.]+\.cmd|mergetool\.[^.]+\.cmd|filter\.[^.]+\.(clean|smudge|process))$/i;
const MAX_ALIAS_EXPANSIONS = 8;

export interface GitCall {
  /** Subcommand and its arguments after global options and aliases are resolved. */
  argv: string[];
  /** Shell text git would run: `!`-aliases with their arguments, command-valued `-c` settings. */
  scripts: string[];
  /** The call rewrites nothing (no global options, no alias): its fact is the command itself. */
  plain: boolean;
}

/** Splits an alias value into words, honouring simple quotes (`log --format='%h %s'`). */
function aliasWords(value: string): string[] {
  const words: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (const m of value.matchAll(re)) words.push(m[1] ?? m[2] ?? m[3]!);
  return words;
}

/** Resolves a git command line; `aliases` holds aliases defined earlier in the script (lower-case names). */
export function resolveGit(args: readonly string[], aliases: ReadonlyMap<string, string>): GitCall {
  const scripts: string[] = [];
  const local = new Map(aliases);
  let i = 0;
  let plain = true;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith('-')) break;
    plain = false;
    const eq = a.indexOf('=');
    const name = a.startsWith('--') && eq > 0 ? a.slice(0, eq) : a;
    let value: string | undefined;
    if (VALUE_OPTIONS.has(name)) value = eq > 0 && a.startsWith('--') ? a.slice(eq + 1) : args[++i];
    else if (a.startsWith('-c') && a.length > 2) value = a.slice(2);
    if ((name === '-c' || a.startsWith('-c')) && value !== undefined) {
      const sep = value.indexOf('=');
      const key = sep < 0 ? value : value.slice(0, sep);
      const val = sep < 0 ? '' : value.slice(sep + 1);
      if (/^alias\./i.test(key)) local.set(key.slice(6).toLowerCase(), val);
      else if (COMMAND_KEYS.test(key) && val !== '') scripts.push(val.startsWith('!') ? val.slice(1) : val);
    }
  }
  let argv = args.slice(i);
  for (let n = 0; n < MAX_ALIAS_EXPANSIONS && argv.length > 0; n++) {
    const alias = local.get(argv[0]!.toLowerCase());
    if (alias === undefined) break;
    plain = false;
    if (alias.startsWith('!')) {
      scripts.push([alias.slice(1), ...argv.slice(1).map(quote)].join(' '));
      argv = [];
      break;
    }
    argv = [...aliasWords(alias), ...argv.slice(1)];
  }
  return { argv, scripts, plain };
}

/** `git config [--global|--local|--system|--file f] alias.NAME VALUE`: the alias it defines, if any. */
export function gitAliasDefinition(args: readonly string[]): [string, string] | undefined {
  if (args[0] !== 'config') return undefined;
  const { operands } = parseOptions(args.slice(1), { short: 'f', long: ['--file', '--blob', '--type'] });
  const [key, value] = operands;
  if (key === undefined || value === undefined || !/^alias\./i.test(key)) return undefined;
  return [key.slice(6).toLowerCase(), value];
}

/** A command-valued setting stored with `git config core.pager '…'` runs later: walk it now. */
export function gitConfigCommand(args: readonly string[]): string | undefined {
  if (args[0] !== 'config') return undefined;
  const { operands } = parseOptions(args.slice(1), { short: 'f', long: ['--file', '--blob', '--type'] });
  const [key, value] = operands;
  if (key === undefined || value === undefined || !COMMAND_KEYS.test(key)) return undefined;
  return value.startsWith('!') ? value.slice(1) : value;
}

function quote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}
