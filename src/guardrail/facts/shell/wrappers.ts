// Commands that run another command given as their operands (`sudo rm …`, `timeout 5 curl …`). Both the
// wrapper and the wrapped command are reported; this module finds where the wrapped command starts.
import { hasOption, parseOptions, optionValues, type OptionSpec } from './options.js';

interface WrapperSpec extends OptionSpec {
  /** Operands before the wrapped command: timeout's duration, chroot's directory. */
  skip?: number;
  /** `NAME=value` operands before the command set its environment (env, sudo). */
  assignments?: boolean;
  /** The wrapped command does not get the wrapper's standard input (xargs reads it for arguments). */
  consumesStdin?: boolean;
  /** Options with which nothing is run (`command -v rm` only looks rm up). */
  noRun?: readonly string[];
  /** The operands are joined and run by `sh -c` (watch), unless one of these options is given. */
  shellStringUnless?: readonly string[];
  /** Option whose value is itself a command line (`env -S 'cmd args'`). */
  commandLineOption?: string;
}

const STOP = { stopAtOperand: true } as const;

// A Map, not an object: command names come from untrusted input (`__proto__`, `constructor`).
const WRAPPERS = new Map<string, WrapperSpec>(Object.entries({
  sudo: {
    ...STOP,
    short: 'CDghpRrTtUu',
    long: ['--user', '--group', '--host', '--prompt', '--chdir', '--role', '--type', '--other-user', '--close-from'],
    assignments: true,
    noRun: ['-l', '-v', '-k', '-K', '-e', '--list', '--validate', '--edit'],
  },
  doas: { ...STOP, short: 'uC' },
  env: { ...STOP, short: 'uCS', long: ['--unset', '--chdir', '--split-string'], assignments: true, commandLineOption: '-S' },
  nohup: STOP,
  timeout: { ...STOP, short: 'sk', long: ['--signal', '--kill-after'], skip: 1 },
  nice: { ...STOP, short: 'n', long: ['--adjustment'] },
  ionice: { ...STOP, short: 'cnp', long: ['--class', '--classdata', '--pid'] },
  stdbuf: { ...STOP, short: 'ioe', long: ['--input', '--output', '--error'] },
  xargs: {
    ...STOP,
    short: 'adEILnPs',
    long: ['--arg-file', '--delimiter', '--max-args', '--max-procs', '--max-chars', '--max-lines', '--process-slot-var'],
    consumesStdin: true,
  },
  time: { ...STOP, short: 'fo' },
  command: { ...STOP, noRun: ['-v', '-V'] },
  exec: { ...STOP, short: 'a' },
  builtin: STOP,
  setsid: STOP,
  chroot: { ...STOP, long: ['--userspec', '--groups'], skip: 1 },
  watch: { ...STOP, short: 'nq', long: ['--interval', '--equexit'], shellStringUnless: ['-x', '--exec'] },
  strace: { ...STOP, short: 'abeEIoOpPsSuUX' },
  ltrace: { ...STOP, short: 'aADeFlnopsuwx' },
  torsocks: { ...STOP, short: 'uapP' },
  torify: STOP,
  proxychains: { ...STOP, short: 'f' },
  proxychains4: { ...STOP, short: 'f' },
  // Package runners run a package's command: `npx rimraf /` is `rimraf /`.
  npx: { ...STOP, short: 'p', long: ['--package'] },
  bunx: { ...STOP, short: 'p', long: ['--package'] },
}));

export const WRAPPER_COMMANDS: ReadonlySet<string> = new Set(WRAPPERS.keys());

const ENV_ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

export interface Wrapped {
  /** The wrapped command's argv, or a shell string it runs. */
  argv?: string[];
  script?: string;
  /** Whether the wrapped command reads the wrapper's standard input. */
  passesStdin: boolean;
}

export function unwrap(name: string, args: readonly string[]): Wrapped | undefined {
  const spec = WRAPPERS.get(name);
  if (!spec) return undefined;
  const parsed = parseOptions(args, spec);
  if (spec.noRun && hasOption(parsed, ...spec.noRun)) return undefined;
  let operands = parsed.operands.slice(spec.skip ?? 0);
  if (spec.assignments) {
    let first = 0;
    while (first < operands.length && ENV_ASSIGNMENT.test(operands[first]!)) first++;
    operands = operands.slice(first);
  }
  const passesStdin = !spec.consumesStdin;
  const commandLine = spec.commandLineOption ? optionValues(parsed, spec.commandLineOption) : [];
  if (commandLine.length > 0) return { script: [...commandLine, ...operands].join(' '), passesStdin };
  if (operands.length === 0) return undefined;
  if (spec.shellStringUnless && !hasOption(parsed, ...spec.shellStringUnless)) {
    return { script: operands.join(' '), passesStdin };
  }
  return { argv: operands, passesStdin };
}
