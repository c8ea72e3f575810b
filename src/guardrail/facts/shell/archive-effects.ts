// Files read and written by archivers: tar, zip and unzip.
import type { Effect } from './effect-sink.js';
import { hasOption, optionValues, parseOptions } from './options.js';

const TAR = {
  short: 'fCTXbHKNgLVIF',
  long: ['--file', '--directory', '--files-from', '--exclude-from', '--exclude', '--use-compress-program', '--transform', '--owner', '--group', '--mode', '--newer', '--blocking-factor', '--format', '--label'],
};
const BUNDLED_OPTIONS = /^[A-Za-z]+$/;

/** tar: create mode reads its inputs and writes the archive; extract reads the archive and writes -C. */
export const tar: Effect = (args, sink) => {
  let rest = args;
  const bundled: string[] = [];
  const first = args[0];
  if (first !== undefined && BUNDLED_OPTIONS.test(first)) {
    // Old-style bundled options (`tar czf out.tgz dir`): each value option takes the next argument.
    let next = 1;
    for (const c of first) bundled.push(`-${c}`, ...(TAR.short.includes(c) ? [args[next++] ?? ''] : []));
    rest = args.slice(next);
  }
  const parsed = parseOptions([...bundled, ...rest], TAR);
  const archives = optionValues(parsed, '-f', '--file');
  const creates = hasOption(parsed, '-c', '-r', '-u', '--create', '--append', '--update');
  for (const a of archives) {
    if (creates) sink.addWrite(a);
    else sink.addRead(a);
  }
  if (creates) parsed.operands.forEach((p) => sink.addRead(p));
  else if (hasOption(parsed, '-x', '--extract', '--get')) optionValues(parsed, '-C', '--directory').forEach((d) => sink.addWrite(d));
};

/** Arguments after `-x` / `-i` of zip and unzip are member patterns, not files. */
function beforeMemberPatterns(args: readonly string[]): readonly string[] {
  const stop = args.findIndex((a) => a === '-x' || a === '-i' || a === '--exclude' || a === '--include');
  return stop < 0 ? args : args.slice(0, stop);
}

export const zip: Effect = (args, sink) => {
  const [archive, ...inputs] = parseOptions(beforeMemberPatterns(args), { short: 'bntPOZs' }).operands;
  if (archive !== undefined) sink.addWrite(archive);
  inputs.forEach((p) => sink.addRead(p));
};

export const unzip: Effect = (args, sink) => {
  const parsed = parseOptions(beforeMemberPatterns(args), { short: 'dP' });
  const [archive] = parsed.operands;
  if (archive !== undefined) sink.addRead(archive);
  optionValues(parsed, '-d').forEach((d) => sink.addWrite(d));
};
