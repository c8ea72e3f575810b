// Command-line option parsing in the getopt style most Unix tools share, so that option values
// (`head -n 5`, `ssh -i KEY`) are not mistaken for files or hosts.

export interface OptionSpec {
  /** Short options that take a value, as `-o FILE` or `-oFILE`. */
  short?: string;
  /** Long options (with their dashes) that take the next argument as value when written without `=`. */
  long?: readonly string[];
  /** Stop at the first operand: for wrappers and shells, what follows belongs to the command they run. */
  stopAtOperand?: boolean;
}

export interface ParsedOption {
  /** `-x` or `--name`. */
  name: string;
  value?: string;
}

export interface ParsedArgs {
  options: ParsedOption[];
  operands: string[];
}

export function parseOptions(args: readonly string[], spec: OptionSpec): ParsedArgs {
  const options: ParsedOption[] = [];
  const operands: string[] = [];
  const short = spec.short ?? '';
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      if (eq >= 0) options.push({ name: arg.slice(0, eq), value: arg.slice(eq + 1) });
      else if (spec.long?.includes(arg) && i + 1 < args.length) options.push({ name: arg, value: args[++i] });
      else options.push({ name: arg });
    } else if (arg.length > 1 && arg.startsWith('-')) {
      for (let j = 1; j < arg.length; j++) {
        const name = `-${arg.charAt(j)}`;
        if (!short.includes(arg.charAt(j))) {
          options.push({ name });
          continue;
        }
        options.push({ name, value: j + 1 < arg.length ? arg.slice(j + 1) : args[++i] });
        break;
      }
    } else if (spec.stopAtOperand) {
      operands.push(...args.slice(i));
      break;
    } else {
      operands.push(arg);
    }
  }
  return { options, operands };
}

/** Values of the options named `names`, in order. */
export function optionValues(parsed: ParsedArgs, ...names: string[]): string[] {
  const values: string[] = [];
  for (const o of parsed.options) if (o.value !== undefined && names.includes(o.name)) values.push(o.value);
  return values;
}

export function hasOption(parsed: ParsedArgs, ...names: string[]): boolean {
  return parsed.options.some((o) => names.includes(o.name));
}
