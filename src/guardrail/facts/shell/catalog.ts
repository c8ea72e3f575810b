// The catalogue of what network and transfer commands do, as plain data: which options take a value (so a
// value is never mistaken for a URL or a file, and `-sSfLo out` bundles read as curl reads them), and which
// options' values are reached, sent, uploaded, read or written. It is the one copy of this knowledge: the
// guardrail's shell facts (network-effects.ts, file-effects.ts, remote-code.ts, spawned.ts), the behavioral
// analyzer (scanners/analyzers/behavioral/shell-commands.ts) and the pipeline analyzer all read it, so they
// cannot disagree about a command line. Teaching Warden a command's options starts here.
//
// Option names are written as on the command line (`-o`, `--output`); short options are one letter each.
// What a value means beyond its role (curl's `name=@file` forms, socat addresses) stays in the code that
// interprets it.

export interface CommandOptions {
  /** Short options that take a value, as `-o FILE`, `-oFILE` or last in a bundle (`-sSfLo FILE`). */
  short?: string;
  /** Long options (with their dashes) that take the next argument as value when written without `=`. */
  long?: readonly string[];
  /** Stop at the first operand: for ssh and the like, what follows belongs to the remote command. */
  stopAtOperand?: boolean;
}

/** Options by what their value is, for the commands that send, fetch or save data. */
export interface OptionRoles {
  /** A host or URL contacted (besides the operands). */
  reach?: readonly string[];
  /** Data sent, where `@FILE` sends the file's content (`@-` standard input). */
  data?: readonly string[];
  /** Data sent, where `name@FILE` sends the file's content. */
  dataUrlencode?: readonly string[];
  /** A form field, where `name=@FILE` uploads the file and `name=<FILE` sends its content. */
  form?: readonly string[];
  /** Data sent exactly as written. */
  text?: readonly string[];
  /** A file whose content is sent. */
  upload?: readonly string[];
  /** A file read for other reasons (a config file, a list of URLs). */
  read?: readonly string[];
  /** Credentials or headers sent with the request. */
  credential?: readonly string[];
  /** The file the downloaded body is saved to (`-` is standard output). */
  save?: readonly string[];
  /** Other files written (headers, cookies, logs), or a folder downloads land in. */
  write?: readonly string[];
}

export interface CommandEntry extends CommandOptions {
  roles?: OptionRoles;
  /** Flags (no value) that save the download under the URL's last path segment. */
  remoteName?: readonly string[];
  /** Without a `save` option the download is saved under the URL's name (wget), not printed (curl). */
  savesUnderUrlName?: boolean;
}

const CURL: CommandEntry = {
  // curl(1): every short option that takes an argument.
  short: 'AbcCdDeEFHKmoPQrtTuUwxXyYz',
  long: [
    '--data', '--data-binary', '--data-raw', '--data-ascii', '--data-urlencode', '--json', '--form', '--form-string',
    '--header', '--proxy-header', '--output', '--upload-file', '--user', '--user-agent', '--referer', '--request',
    '--cookie', '--cookie-jar', '--config', '--max-time', '--connect-timeout', '--proxy', '--url', '--write-out',
    '--cert', '--key', '--cacert', '--capath', '--resolve', '--connect-to', '--retry', '--retry-delay',
    '--retry-max-time', '--range', '--time-cond', '--dump-header', '--output-dir', '--interface', '--limit-rate',
    '--max-filesize', '--continue-at', '--dns-servers', '--proxy-user', '--oauth2-bearer', '--unix-socket',
    '--local-port', '--ciphers', '--variable',
  ],
  roles: {
    reach: ['--url', '-x', '--proxy'],
    data: ['-d', '--data', '--data-binary', '--data-ascii', '--json'],
    dataUrlencode: ['--data-urlencode'],
    form: ['-F', '--form'],
    text: ['--data-raw', '--form-string'],
    upload: ['-T', '--upload-file'],
    read: ['-K', '--config'],
    credential: ['-H', '--header', '-u', '--user', '--oauth2-bearer', '-b', '--cookie', '-U', '--proxy-user', '-E', '--cert', '--key', '--proxy-header'],
    save: ['-o', '--output'],
    write: ['-D', '--dump-header', '-c', '--cookie-jar'],
  },
  remoteName: ['-O', '--remote-name', '--remote-name-all'],
};

const WGET: CommandEntry = {
  // wget(1): short options with an argument.
  short: 'OoaPiBeUtTwQlARDIX',
  long: [
    '--output-document', '--output-file', '--append-output', '--directory-prefix', '--input-file', '--base',
    '--execute', '--user-agent', '--tries', '--timeout', '--wait', '--quota', '--level', '--accept', '--reject',
    '--domains', '--header', '--post-data', '--post-file', '--body-data', '--body-file', '--method', '--user',
    '--password', '--http-user', '--http-password', '--referer', '--load-cookies', '--save-cookies',
  ],
  roles: {
    text: ['--post-data', '--body-data'],
    upload: ['--post-file', '--body-file'],
    read: ['-i', '--input-file'],
    credential: ['--header', '--user', '--password', '--http-user', '--http-password'],
    save: ['-O', '--output-document'],
    write: ['-o', '--output-file', '-a', '--append-output', '-P', '--directory-prefix'],
  },
  savesUnderUrlName: true,
};

const NETCAT: CommandEntry = {
  short: 'ecpsqwiIOTVxXMmb',
  long: ['--exec', '--sh-exec', '--lua-exec', '--proxy', '--proxy-type', '--source', '--source-port', '--wait'],
  roles: { reach: ['-x', '--proxy'] },
};

const SSH: CommandEntry = { short: 'bcDEeFIiJLlmOoPpQRSWwB', stopAtOperand: true, roles: { reach: ['-J'] } };
const SFTP: CommandEntry = { short: 'BbcDFiJloPRSs', stopAtOperand: true, roles: { reach: ['-J'] } };
const SCP: CommandEntry = { short: 'cFiJloPSDX' };
const RSYNC: CommandEntry = {
  short: 'efTBM',
  long: ['--rsh', '--exclude', '--include', '--filter', '--rsync-path', '--exclude-from', '--include-from', '--files-from', '--password-file', '--port', '--temp-dir', '--link-dest', '--compare-dest', '--backup-dir'],
};

/** The catalogue, by command name. A Map: command names come from untrusted input (`__proto__`). */
export const COMMAND_CATALOG: ReadonlyMap<string, CommandEntry> = new Map([
  ['curl', CURL],
  ['wget', WGET], ['wget2', WGET],
  ...['nc', 'ncat', 'netcat', 'nc.traditional', 'nc.openbsd'].map((name): [string, CommandEntry] => [name, NETCAT]),
  ['ssh', SSH], ['sftp', SFTP], ['scp', SCP], ['rsync', RSYNC],
  ['telnet', { short: 'blenS', stopAtOperand: true }],
  ['ftp', { short: 'P', stopAtOperand: true }],
  ['tftp', { stopAtOperand: true }],
  // mail(1)/mailx(1): subject, cc, bcc, attachment, sender…; sendmail(8): envelope sender and full name.
  ['mail', { short: 'abcrsAqS' }], ['mailx', { short: 'abcrsAqS' }],
  ['sendmail', { short: 'Ff' }],
]);

/** Languages whose one-liners Warden reads (`python -c`, `node -e`…); 'other' runs code it does not read. */
export type InterpreterLanguage = 'python' | 'node' | 'perl' | 'ruby' | 'php' | 'applescript' | 'powershell' | 'other';

/** An interpreter family: its command names and the options that carry the program text. */
export interface InterpreterEntry {
  language: InterpreterLanguage;
  /** Command names, versions included (`python3.12`). */
  names: RegExp;
  /** Options whose next argument is the program (`-c CODE`); long ones also take it as `--eval=CODE`. */
  code: readonly string[];
  /** Flag letters that, last in a bundle, take the program next (`python -Ic CODE`, `perl -ne CODE`). */
  bundleCode?: string;
  /** Flag letters after which perl takes the program attached (`perl -neCODE`). */
  attachedAfter?: string;
  /** Options compare without case (PowerShell's `-Command`, `-command`). */
  ignoreCase?: boolean;
}

export const INTERPRETERS: readonly InterpreterEntry[] = [
  { language: 'python', names: /^(python[0-9.]*|pypy[0-9.]*)$/, code: ['-c'], bundleCode: 'c' },
  { language: 'node', names: /^(node|nodejs|bun|deno)$/, code: ['-e', '--eval', '-p', '--print', 'eval'] },
  { language: 'perl', names: /^perl[0-9.]*$/, code: ['-e', '-E'], bundleCode: 'eE', attachedAfter: 'lnpaws' },
  { language: 'ruby', names: /^ruby[0-9.]*$/, code: ['-e'] },
  { language: 'php', names: /^php[0-9.]*$/, code: ['-r'] },
  { language: 'applescript', names: /^osascript$/, code: ['-e'] },
  { language: 'powershell', names: /^(pwsh|powershell|powershell\.exe|pwsh\.exe)$/i, code: ['-c', '-command', '-e', '-ec', '-encodedcommand'], ignoreCase: true },
  { language: 'other', names: /^(lua[0-9.]*|Rscript|julia)$/, code: ['-e'] },
];

/** First letters of every interpreter name above: most commands (`grep`, `git`, `npm`) are ruled out by one
 *  character instead of eight regular expressions, on every command of every script. Keep it in step. */
export const INTERPRETER_FIRST_LETTERS: ReadonlySet<string> = new Set(['p', 'n', 'b', 'd', 'r', 'o', 'l', 'R', 'j', 'P']);

/** The catalogue entry of a command the code names (a missing one is a programming error, caught by tests). */
export function catalogEntry(name: string): CommandEntry {
  const entry = COMMAND_CATALOG.get(name);
  if (!entry) throw new Error(`${name} is not in the command catalogue`);
  return entry;
}

/** The option names of some roles of a command, as one set. */
export function roleOptions(entry: CommandEntry, ...roles: (keyof OptionRoles)[]): ReadonlySet<string> {
  return new Set(roles.flatMap((role) => entry.roles?.[role] ?? []));
}
