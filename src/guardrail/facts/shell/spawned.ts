// Commands that other commands run from their arguments: shells (`bash -c STRING`, `bash` reading a
// script on stdin), `su -c`, `eval`, `find -exec`, `nc -e` and socat's `EXEC:` / `SYSTEM:` addresses.
// `python -c`, `node -e` and the like are not shell and are left alone.
import { catalogEntry } from './catalog.js';
import { optionValues, parseOptions } from './options.js';

export const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'mksh', 'rbash', 'fish']);

/** What a shell command line executes: a `-c` string, its standard input, or a script file. */
export type ShellInput = { script: string } | { stdin: true } | { file: string };

export function shellInput(name: string, args: readonly string[]): ShellInput | undefined {
  if (name === 'eval') return { script: args.join(' ') };
  if (name === 'su') {
    const parsed = parseOptions(args, {
      short: 'cCsgGw',
      long: ['--command', '--session-command', '--shell', '--group', '--supp-group', '--whitelist-environment'],
    });
    const [command] = optionValues(parsed, '-c', '-C', '--command', '--session-command');
    return command === undefined ? undefined : { script: command };
  }
  if (!SHELLS.has(name)) return undefined;
  let command = false;
  let stdin = false;
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-' || arg === '--') {
      i++;
      break;
    }
    if (arg.startsWith('--')) {
      if (arg === '--rcfile' || arg === '--init-file') i++;
      continue;
    }
    if (arg.length < 2 || (arg[0] !== '-' && arg[0] !== '+')) break;
    if (arg.includes('c')) command = true;
    if (arg.includes('s')) stdin = true;
    if (arg.endsWith('o') || arg.endsWith('O')) i++;
  }
  const first = args[i];
  if (command) return first === undefined ? undefined : { script: first };
  return stdin || first === undefined ? { stdin: true } : { file: first };
}

/** A command run by another one, as an argv or as a shell string. */
export type Spawn = { argv: string[] } | { script: string };

const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);
export const NETCAT: ReadonlySet<string> = new Set(['nc', 'ncat', 'netcat', 'nc.traditional', 'nc.openbsd']);
const NETCAT_OPTIONS = catalogEntry('nc');

function splitWords(text: string): string[] {
  return text.split(/[ \t]+/).filter((w) => w !== '');
}

function findExec(args: readonly string[]): Spawn[] {
  const spawns: Spawn[] = [];
  for (let i = 0; i < args.length; i++) {
    if (!FIND_EXEC.has(args[i]!)) continue;
    const argv: string[] = [];
    for (i++; i < args.length && args[i] !== ';' && args[i] !== '+'; i++) argv.push(args[i]!);
    if (argv.length > 0) spawns.push({ argv });
  }
  return spawns;
}

function netcatExec(args: readonly string[]): Spawn[] {
  const parsed = parseOptions(args, NETCAT_OPTIONS);
  const spawns: Spawn[] = optionValues(parsed, '-e', '--exec').map((v) => ({ argv: splitWords(v) }));
  for (const script of optionValues(parsed, '-c', '--sh-exec')) spawns.push({ script });
  return spawns;
}

/** socat `EXEC:cmd args,opts` runs argv, `SYSTEM:cmd,opts` runs a shell string. */
function socatExec(args: readonly string[]): Spawn[] {
  const spawns: Spawn[] = [];
  for (const arg of args) {
    const colon = arg.indexOf(':');
    const type = arg.slice(0, colon).toLowerCase();
    if (colon < 0 || (type !== 'exec' && type !== 'system')) continue;
    const comma = arg.indexOf(',', colon);
    const command = arg.slice(colon + 1, comma < 0 ? arg.length : comma);
    spawns.push(type === 'exec' ? { argv: splitWords(command) } : { script: command });
  }
  return spawns;
}

const NO_SPAWNS: readonly Spawn[] = [];

export function spawnedCommands(name: string, args: readonly string[]): readonly Spawn[] {
  if (name === 'find') return findExec(args);
  if (NETCAT.has(name)) return netcatExec(args);
  if (name === 'socat') return socatExec(args);
  return NO_SPAWNS;
}

/** Every command for which shellInput or spawnedCommands may find something. */
export const SPAWNING_COMMANDS: ReadonlySet<string> = new Set([...SHELLS, 'su', 'eval', 'find', 'socat', ...NETCAT]);
