// Files that commands read and write, from their operands. Option values are not files (`head -n 5 f`
// reads only f; `ssh -i KEY` reads nothing as far as facts go), so each entry lists the options of its
// command that take a value.
import { patchPaths } from '../apply-patch.js';
import { isRemoteOperand } from '../urls.js';
import { tar, unzip, zip } from './archive-effects.js';
import type { Effect } from './effect-sink.js';
import { catalogEntry } from './catalog.js';
import { hasOption, optionValues, parseOptions, type OptionSpec } from './options.js';

const readOperands =
  (spec: OptionSpec = {}): Effect =>
  (args, sink) => {
    for (const p of parseOptions(args, spec).operands) sink.addRead(p);
  };

const writeOperands =
  (spec: OptionSpec = {}): Effect =>
  (args, sink) => {
    for (const p of parseOptions(args, spec).operands) sink.addWrite(p);
  };

/** grep, rg: the first operand is the pattern unless one was given with -e / -f. */
const searchFiles =
  (spec: OptionSpec): Effect =>
  (args, sink) => {
    const parsed = parseOptions(args, spec);
    const patternGiven = hasOption(parsed, '-e', '-f', '--regexp', '--file');
    for (const p of parsed.operands.slice(patternGiven ? 0 : 1)) sink.addRead(p);
  };

const AWK_ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const awkFiles: Effect = (args, sink) => {
  const parsed = parseOptions(args, { short: 'FvfiElI', long: ['--file', '--assign', '--field-separator', '--source'] });
  const programGiven = hasOption(parsed, '-f', '-E', '--file', '--source');
  for (const p of parsed.operands.slice(programGiven ? 0 : 1)) if (!AWK_ASSIGNMENT.test(p)) sink.addRead(p);
};

/** cp, mv, install, scp, rsync: the last operand (or -t DIR) is written, the others are read. Remote
 *  operands (`host:path`) of scp and rsync name hosts instead. */
const copyFiles =
  (spec: OptionSpec, remote = false): Effect =>
  (args, sink) => {
    const parsed = parseOptions(args, spec);
    const [target] = optionValues(parsed, '-t', '--target-directory');
    const { operands } = parsed;
    const destination = target ?? (operands.length >= 2 ? operands[operands.length - 1] : undefined);
    const sources = target === undefined ? operands.slice(0, -1) : operands;
    for (const p of sources) {
      if (remote && isRemoteOperand(p)) sink.addHost(p);
      else sink.addRead(p);
    }
    if (destination === undefined) return;
    if (remote && isRemoteOperand(destination)) sink.addHost(destination);
    else sink.addWrite(destination);
  };

const COPY = { short: 'tS', long: ['--target-directory', '--suffix'] };
const INSTALL = { short: 'mogtS', long: ['--mode', '--owner', '--group', '--target-directory', '--suffix'] };

const install: Effect = (args, sink) => {
  const parsed = parseOptions(args, INSTALL);
  if (hasOption(parsed, '-d', '--directory')) parsed.operands.forEach((p) => sink.addWrite(p));
  else copyFiles(INSTALL)(args, sink);
};

const link: Effect = (args, sink) => {
  const parsed = parseOptions(args, COPY);
  const [target] = optionValues(parsed, '-t', '--target-directory');
  const name = target ?? (parsed.operands.length >= 2 ? parsed.operands[parsed.operands.length - 1] : undefined);
  if (name !== undefined) sink.addWrite(name);
};

/** chmod, chown, chgrp: the first operand is the mode or owner unless --reference gives it. Modes may
 *  look like options (`chmod -x f`), so only the real flags are set aside. */
const CHMOD_FLAGS = /^-[RvcfhHLP]+$/;
const modeThenTargets: Effect = (args, sink) => {
  const operands = args.filter((a) => !CHMOD_FLAGS.test(a) && !a.startsWith('--'));
  const reference = args.some((a) => a.startsWith('--reference'));
  for (const p of operands.slice(reference ? 0 : 1)) sink.addWrite(p);
};

const chattr: Effect = (args, sink) => {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-v') i++;
    else if (!/^[-+=]/.test(a)) sink.addWrite(a);
  }
};

const dd: Effect = (args, sink) => {
  for (const a of args) {
    if (a.startsWith('if=')) sink.addRead(a.slice(3));
    else if (a.startsWith('of=')) sink.addWrite(a.slice(3));
  }
};

/** sed -i and perl -i edit their file operands in place; without -i they only read them. */
const sed: Effect = (args, sink) => {
  let inPlace = false;
  let scriptGiven = false;
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.startsWith('--in-place')) {
      inPlace = true;
    } else if (a === '--expression' || a === '--file') {
      scriptGiven = true;
      i++;
    } else if (a.startsWith('--expression=') || a.startsWith('--file=')) {
      scriptGiven = true;
    } else if (a.startsWith('--') || a === '-') {
      continue;
    } else if (a.startsWith('-')) {
      for (let j = 1; j < a.length; j++) {
        const c = a.charAt(j);
        if (c === 'i') {
          inPlace = true;
          if (a.length === 2 && args[i + 1] === '') i++;
          break;
        }
        if (c === 'e' || c === 'f' || c === 'l') {
          if (c !== 'l') scriptGiven = true;
          if (j === a.length - 1) i++;
          break;
        }
      }
    } else {
      files.push(a);
    }
  }
  for (const f of files.slice(scriptGiven ? 0 : 1)) {
    sink.addRead(f);
    if (inPlace) sink.addWrite(f);
  }
};

const perl: Effect = (args, sink) => {
  let inPlace = false;
  let codeGiven = false;
  let i = 0;
  for (; i < args.length && args[i]!.startsWith('-') && args[i] !== '-'; i++) {
    const a = args[i]!;
    if (a === '--') {
      i++;
      break;
    }
    for (let j = 1; j < a.length; j++) {
      const c = a.charAt(j);
      if (c === 'i') inPlace = true;
      if (c === 'e' || c === 'E') {
        codeGiven = true;
        if (j === a.length - 1) i++;
      }
      if ('ieEIMmlFC0dDx'.includes(c)) break;
    }
  }
  for (const f of args.slice(codeGiven ? i : i + 1)) {
    sink.addRead(f);
    if (inPlace) sink.addWrite(f);
  }
};

/** jq FILTER FILES…; `--arg NAME VALUE` and friends take two values, `--args` ends the files. */
const JQ_TWO_VALUES = new Set(['--arg', '--argjson', '--slurpfile', '--rawfile']);
const jq: Effect = (args, sink) => {
  let filterPending = true;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--args' || a === '--jsonargs') return;
    if (JQ_TWO_VALUES.has(a)) {
      i += 2;
    } else if (a === '-f' || a === '--from-file') {
      filterPending = false;
      i++;
    } else if (a === '--indent' || a === '-L') {
      i++;
    }
    else if (a.startsWith('-') && a !== '-') continue;
    else if (filterPending) filterPending = false;
    else sink.addRead(a);
  }
};

const SQLITE_VALUE_OPTIONS = new Set(['-cmd', '-separator', '-newline', '-nullvalue', '-init', '-vfs', '-mmap', '-lookaside', '-pagecache', '-heap', '-maxsize', '-escape']);
const sqlite: Effect = (args, sink) => {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (SQLITE_VALUE_OPTIONS.has(a)) i++;
    else if (!a.startsWith('-')) return sink.addRead(a);
  }
};

const gpg: Effect = (args, sink) => {
  const parsed = parseOptions(args, {
    short: 'orRuzf',
    long: ['--output', '--recipient', '--local-user', '--homedir', '--default-key', '--passphrase', '--keyserver', '--trust-model', '--recipient-file', '--hidden-recipient'],
  });
  parsed.operands.forEach((p) => sink.addRead(p));
  optionValues(parsed, '-o', '--output').forEach((p) => sink.addWrite(p));
};

/** openssl uses single-dash long options: `-in F` is read, `-out F` written. */
const openssl: Effect = (args, sink) => {
  for (let i = 0; i + 1 < args.length; i++) {
    if (args[i] === '-in') sink.addRead(args[i + 1]!);
    else if (args[i] === '-out') sink.addWrite(args[i + 1]!);
  }
};

const xxd: Effect = (args, sink) => {
  const [input, output] = parseOptions(args, { short: 'cglsoCn' }).operands;
  if (input !== undefined) sink.addRead(input);
  if (output !== undefined) sink.addWrite(output);
};

/** Codex's apply_patch takes the patch as its argument or on standard input. */
const applyPatch: Effect = (args, sink, stdin) => {
  for (const p of patchPaths(args[0] ?? stdin ?? '')) sink.addWrite(p);
};

const firstOperandRead: Effect = (args, sink) => {
  const [file] = args;
  if (file !== undefined) sink.addRead(file);
};

const HEAD_TAIL = { short: 'ncs', long: ['--lines', '--bytes', '--pid', '--sleep-interval'] };
const GREP = {
  short: 'efmABCdD',
  long: ['--regexp', '--file', '--max-count', '--after-context', '--before-context', '--context', '--include', '--exclude', '--exclude-dir', '--label'],
};
const RG = {
  short: 'efmABCgtTEjMr',
  long: ['--regexp', '--file', '--glob', '--iglob', '--type', '--type-not', '--max-count', '--context', '--after-context', '--before-context', '--encoding', '--threads', '--max-depth', '--replace'],
};

// A Map, not an object: command names come from untrusted input (`__proto__`, `constructor`).
export const FILE_EFFECTS: ReadonlyMap<string, Effect> = new Map(Object.entries({
  cat: readOperands(), tac: readOperands({ short: 's' }), nl: readOperands({ short: 'bdfhilnsvw' }),
  less: readOperands({ short: 'bhjkoOpPtTxyz' }), more: readOperands({ short: 'n' }),
  head: readOperands(HEAD_TAIL), tail: readOperands(HEAD_TAIL),
  base64: readOperands({ short: 'w', long: ['--wrap'] }), base32: readOperands({ short: 'w', long: ['--wrap'] }),
  od: readOperands({ short: 'AjNStw' }), hexdump: readOperands({ short: 'nsef' }), strings: readOperands({ short: 'ntTe' }),
  zcat: readOperands(), cut: readOperands({ short: 'bcdf', long: ['--delimiter', '--fields', '--bytes', '--characters'] }),
  diff: readOperands({ short: 'CUxXIFL' }), 'ssh-add': readOperands({ short: 'tESHh' }),
  grep: searchFiles(GREP), egrep: searchFiles(GREP), fgrep: searchFiles(GREP), rg: searchFiles(RG),
  awk: awkFiles, gawk: awkFiles, mawk: awkFiles, nawk: awkFiles, sed, perl, jq, sqlite3: sqlite,
  source: firstOperandRead, '.': firstOperandRead, xxd, tar, zip, unzip, gpg, gpg2: gpg, openssl, dd,
  cp: copyFiles(COPY), mv: copyFiles(COPY), install, ln: link,
  scp: copyFiles(catalogEntry('scp'), true), rsync: copyFiles(catalogEntry('rsync'), true),
  tee: writeOperands(), touch: writeOperands({ short: 'drt', long: ['--date', '--reference'] }),
  truncate: writeOperands({ short: 'sr', long: ['--size', '--reference'] }), mkdir: writeOperands({ short: 'm', long: ['--mode'] }),
  rm: writeOperands(), rmdir: writeOperands(), unlink: writeOperands(),
  shred: writeOperands({ short: 'ns', long: ['--iterations', '--size', '--random-source'] }),
  chmod: modeThenTargets, chown: modeThenTargets, chgrp: modeThenTargets, chattr,
  crontab: writeOperands({ short: 'u' }),
  apply_patch: applyPatch, applypatch: applyPatch,
}));
