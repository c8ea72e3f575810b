// What individual shell commands do with data: curl/wget/nc send it, bash/eval/source run it, base64 -d
// decodes it, env/printenv/keychain tools produce secrets, tee/cp/crontab write it. Each handler gets the
// evaluated arguments and stdin and returns the command's stdout.
import { catalogEntry, COMMAND_CATALOG, roleOptions, type CommandOptions } from '../../../guardrail/facts/shell/catalog.js';
import { codeOption, interpreterEntry } from '../../../guardrail/facts/shell/interpreters.js';
import { unwrap, WRAPPER_COMMANDS } from '../../../guardrail/facts/shell/wrappers.js';
import { UNKNOWN } from './catalog.js';
import type { Analysis, FunctionSummary } from './engine.js';
import { decoded, envMapping, envVar, sendRequest, userInput, writeFile } from './library.js';
import type { SinkKind, SinkSite } from './rules.js';
import type { Codec } from './decode.js';
import { concat, EMPTY, literal, plain, sourced, union, type Value } from './values.js';

export interface CommandContext {
  name: Value;
  args: readonly Value[];
  stdin: Value;
  at: string;
  summary: FunctionSummary | undefined;
  a: Analysis;
  site(kind: SinkKind, api: string, dest?: string): SinkSite;
  setVar(name: string, value: Value): void;
  /** A file's content: a source for credential files, the download for files the script downloaded. */
  readFile(path: Value): Value;
}

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'fish', 'ash', 'mksh']);
const QUIET = new Set(['chmod', 'chown', 'mkdir', 'rm', 'rmdir', 'touch', 'cd', 'pushd', 'popd', 'exit', 'return', 'set', 'unset', 'shift', 'true', 'false', 'test', '[', '[[', 'sleep', 'wait', 'trap', 'which', 'type', 'hash', 'wc', 'md5sum', 'sha256sum', 'sha1sum', 'shasum', 'ls', 'pwd', 'date', 'whoami', 'id', 'uname', 'mktemp']);

const base = (name: string): string => name.replace(/["']/g, '').replace(/^.*\//, '');
const textOf = (v: Value | undefined): string => v?.text ?? UNKNOWN;
const isOption = (v: Value): boolean => textOf(v).startsWith('-') && textOf(v).length > 1;

export function runCommand(c: CommandContext): Value {
  let name = c.name;
  let args = c.args;
  let stdinArg: Value | undefined;
  // sudo / env / xargs / timeout … run the command that follows them; where it starts is the guardrail's
  // reading of the wrapper (wrappers.ts), so both agree on which options take a value.
  for (let hops = 0; hops < 4 && WRAPPER_COMMANDS.has(base(textOf(name))); hops++) {
    const wrapper = base(textOf(name));
    const wrapped = unwrap(wrapper, args.map(textOf));
    if (!wrapped?.argv) {
      if (wrapper === 'env' && !wrapped) return envMapping('env', c.at);
      if (!wrapped) return c.stdin;
      break; // a shell string (`watch 'cmd'`, `env -S`): the wrapper itself is what is seen
    }
    if (!wrapped.passesStdin) stdinArg = c.stdin;
    const k = args.length - wrapped.argv.length;
    name = args[k]!;
    args = args.slice(k + 1);
  }
  if (stdinArg) args = [...args, stdinArg];
  const cmd = base(textOf(name));
  const ctx = { ...c, name, args };

  const downloaded = c.a.downloadAt(name.text);
  if (downloaded) {
    c.a.sink(c.site('exec', `running ${name.text}`), 'code', downloaded, c.summary);
    return EMPTY;
  }
  if (cmd === 'curl') return curl(ctx);
  if (cmd === 'wget') return wget(ctx);
  if (cmd === 'nc' || cmd === 'ncat' || cmd === 'netcat' || cmd === 'telnet' || cmd === 'socat') return rawSocket(ctx, cmd);
  if (cmd === 'ssh' || cmd === 'scp' || cmd === 'rsync' || cmd === 'sftp' || cmd === 'mail' || cmd === 'mailx' || cmd === 'sendmail') return remoteCopy(ctx, cmd);
  if (cmd === 'dig' || cmd === 'nslookup' || cmd === 'host') {
    const name0 = positional(args)[0];
    return sendRequest(c.a, c.site('network', cmd, name0?.text), { url: name0 }, c.summary);
  }
  if (cmd === 'eval') {
    c.a.code('bash', concatWords(args), c.site('exec', 'eval'), c.summary);
    return EMPTY;
  }
  if (cmd === 'source' || cmd === '.') {
    const script = args[0];
    c.a.sink(c.site('exec', cmd), 'code', union(script && plain(script), c.a.downloadAt(script?.text)), c.summary);
    return EMPTY;
  }
  if (SHELLS.has(cmd) || interpreterEntry(cmd)) return interpreter(ctx, cmd);
  const secret = credentialCommand(cmd, args.map(textOf));
  if (secret) return sourced({ kind: 'credential_file', label: secret, at: c.at });
  const codec = decoderCodec(cmd, args.map(textOf));
  if (codec !== false) {
    const files = positional(args).map((a) => c.readFile(a));
    const input = files.length > 0 ? union(...files) : c.stdin;
    return decoded(input, `${cmd} ${args.map(textOf).join(' ')}`.trim(), c.at, codec);
  }
  switch (cmd) {
    case 'printenv':
      return args.length === 0 ? envMapping('printenv', c.at) : envVar(args[0]!.text, `printenv ${args[0]!.text ?? ''}`, c.at);
    case 'set':
    case 'export':
    case 'declare':
    case 'typeset':
    case 'compgen':
      return args.length === 0 || args.every((a) => /^-[pxev]+$/.test(textOf(a))) ? envMapping(`${cmd} ${args.map(textOf).join(' ')}`.trim(), c.at) : EMPTY;
    case 'read': {
      const names = optionless(args, new Set(['-p', '-t', '-n', '-N', '-d', '-u', '-a', '-i'])).map(textOf).filter((n) => /^\w+$/.test(n));
      const value = c.stdin.flows.length > 0 ? c.stdin : userInput('read', c.at);
      for (const n of names.length > 0 ? names : ['REPLY']) c.setVar(n, value);
      return EMPTY;
    }
    case 'echo':
      return concatWords(args.filter((a) => !/^-[neE]+$/.test(textOf(a))));
    case 'printf':
      return union(...args);
    case 'tee':
      for (const file of positional(args)) writeFile(c.a, c.site('exec', 'tee'), file, c.stdin);
      return c.stdin;
    case 'cp':
    case 'mv':
    case 'install':
    case 'ln': {
      const paths = optionless(args, new Set(['-t', '-m', '-o', '-g', '-S', '--suffix']));
      const dest = paths[paths.length - 1];
      if (paths.length >= 2) writeFile(c.a, c.site('exec', cmd), dest, union(...paths.slice(0, -1).map((p) => c.readFile(p))));
      return EMPTY;
    }
    case 'crontab': {
      const texts = args.map(textOf);
      if (texts.length > 0 && texts.every((t) => t === '-l' || t === '-r' || t === '-e' || t === '-u' || /^\w+$/.test(t))) return EMPTY;
      const file = positional(args)[0];
      writeFile(c.a, c.site('exec', 'crontab'), literal('crontab'), file && textOf(file) !== '-' ? c.readFile(file) : c.stdin);
      return EMPTY;
    }
    default:
      break;
  }
  if (cmd === 'sed' && args.some((a) => /^-[a-zA-Z]*i/.test(textOf(a)) || textOf(a).startsWith('--in-place'))) {
    for (const file of positional(args).slice(1)) writeFile(c.a, c.site('exec', 'sed -i'), file, EMPTY);
    return EMPTY;
  }
  if (QUIET.has(cmd)) return EMPTY;
  // A filter (cat, jq, tar…) or an unknown command: its output derives from its input, its arguments and
  // the files its arguments name.
  return union(c.stdin, ...args.map(plain), ...positional(args).map((a) => c.readFile(a)));
}

function positional(args: readonly Value[]): Value[] {
  return args.filter((a) => !isOption(a));
}

/** Arguments that are not options nor values of the options in `valued`. */
function optionless(args: readonly Value[], valued: ReadonlySet<string>): Value[] {
  const out: Value[] = [];
  for (let i = 0; i < args.length; i++) {
    const t = textOf(args[i]);
    if (valued.has(t)) i++;
    else if (!t.startsWith('-') || t === '-') out.push(args[i]!);
  }
  return out;
}

/** A parsed option: its name and value (attached `--x=v` / `-dVALUE`, or the next argument). */
interface Option {
  name: string;
  value?: Value;
}

/** Splits arguments into options (with values) and positional words, as the command catalogue describes the
 *  command's options (the guardrail's parseOptions, over evaluated values instead of plain text). */
function parseOptions(args: readonly Value[], spec: CommandOptions): { options: Option[]; words: Value[] } {
  const options: Option[] = [];
  const words: Value[] = [];
  const short = spec.short ?? '';
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const t = textOf(arg);
    if (t.startsWith('--')) {
      const eq = t.indexOf('=');
      if (eq > 0) options.push({ name: t.slice(0, eq), value: { ...arg, text: t.slice(eq + 1) } });
      else options.push({ name: t, value: spec.long?.includes(t) ? args[++i] : undefined });
    } else if (t.startsWith('-') && t.length > 1) {
      let found = false;
      for (let k = 1; k < t.length; k++) {
        const ch = t[k]!;
        if (!short.includes(ch)) {
          options.push({ name: `-${ch}` });
          continue;
        }
        const rest = t.slice(k + 1);
        options.push({ name: `-${ch}`, value: rest ? { ...arg, text: rest } : args[++i] });
        found = true;
        break;
      }
      if (!found && t.includes(UNKNOWN)) words.push(arg);
    } else if (spec.stopAtOperand) {
      words.push(...args.slice(i));
      break;
    } else words.push(arg);
  }
  return { options, words };
}

const CURL = catalogEntry('curl');
const CURL_BODY = roleOptions(CURL, 'data', 'dataUrlencode', 'form', 'text', 'upload');
const CURL_UPLOAD = roleOptions(CURL, 'upload');
const CURL_CREDENTIAL = roleOptions(CURL, 'credential');
const CURL_SAVE = roleOptions(CURL, 'save');
const CURL_REMOTE_NAME = new Set(CURL.remoteName);

/** A data argument's content: `@file` / `name=@file` / `<file` read the file, `@-` reads stdin. */
function dataContent(c: CommandContext, value: Value, fileOnly: boolean): Value {
  const t = textOf(value);
  const ref = fileOnly ? t : /^(?:[^=@<]*=)?[@<](.+)$/.exec(t)?.[1];
  if (ref === undefined) return value;
  if (ref === '-' || ref === '.') return union(c.stdin, plain(value));
  return union(plain(value), c.readFile(literal(ref)));
}

function curl(c: CommandContext): Value {
  const { options, words } = parseOptions(c.args, CURL);
  let url: Value | undefined = words[0];
  const query = words.slice(1);
  const body: Value[] = [];
  const credential: Value[] = [];
  let output: string | undefined;
  let remoteName = false;
  for (const o of options) {
    if (o.name === '--url' && o.value) url ??= o.value;
    else if (CURL_BODY.has(o.name) && o.value) body.push(dataContent(c, o.value, CURL_UPLOAD.has(o.name)));
    else if (CURL_CREDENTIAL.has(o.name) && o.value) credential.push(o.value);
    else if (CURL_SAVE.has(o.name) && o.value) output = textOf(o.value);
    else if (CURL_REMOTE_NAME.has(o.name)) remoteName = true;
  }
  const response = sendRequest(c.a, c.site('network', 'curl', url?.text), { url, query, body, credential }, c.summary);
  if (remoteName && url?.text) output ??= urlBasename(url.text);
  if (output === undefined || output === '-') return response;
  writeFile(c.a, c.site('exec', 'curl -o'), literal(output), response);
  return EMPTY;
}

const WGET = catalogEntry('wget');
const WGET_TEXT = roleOptions(WGET, 'text');
const WGET_UPLOAD = roleOptions(WGET, 'upload');
const WGET_CREDENTIAL = roleOptions(WGET, 'credential');
const WGET_SAVE = roleOptions(WGET, 'save');

function wget(c: CommandContext): Value {
  const { options, words } = parseOptions(c.args, WGET);
  const url = words[0];
  const body: Value[] = [];
  const credential: Value[] = [];
  let output: string | undefined = url?.text ? urlBasename(url.text) : undefined;
  for (const o of options) {
    if (!o.value) continue;
    if (WGET_TEXT.has(o.name)) body.push(o.value);
    else if (WGET_UPLOAD.has(o.name)) body.push(dataContent(c, o.value, true));
    else if (WGET_CREDENTIAL.has(o.name)) credential.push(o.value);
    else if (WGET_SAVE.has(o.name)) output = textOf(o.value);
  }
  const response = sendRequest(c.a, c.site('network', 'wget', url?.text), { url, query: words.slice(1), body, credential }, c.summary);
  if (output === undefined || output === '-') return response;
  writeFile(c.a, c.site('exec', 'wget -O'), literal(output), response);
  return EMPTY;
}

function urlBasename(url: string): string | undefined {
  const path = url.replace(/[?#].*$/, '').replace(/^[a-z]+:\/\/[^/]*/i, '');
  const name = path.slice(path.lastIndexOf('/') + 1);
  return name && !name.includes(UNKNOWN) ? name : undefined;
}

/** nc / ncat / telnet / socat: stdin goes to the host named by the arguments, and what the peer sends comes
 *  out; `nc -e /bin/sh` (socat `EXEC:`) hands the peer a program instead. */
function rawSocket(c: CommandContext, cmd: string): Value {
  const { words } = parseOptions(c.args, COMMAND_CATALOG.get(cmd) ?? {});
  const texts = c.args.map(textOf);
  const dest = cmd === 'socat'
    ? texts.map((t) => /^(?:TCP|TCP4|TCP6|UDP|UDP4|OPENSSL|SSL)[^:]*:([^:,]+)/i.exec(t)?.[1]).find(Boolean)
    : words[0]?.text;
  const received = sendRequest(c.a, c.site('network', cmd, dest), { body: [c.stdin], url: cmd === 'socat' ? undefined : words[0] }, c.summary, true);
  if (texts.some((t, i) => ((t === '-e' || t === '-c') && i + 1 < texts.length) || /^(?:EXEC|SYSTEM):/i.test(t))) {
    c.a.sink(c.site('exec', `${cmd} -e`), 'code', received, c.summary);
  }
  return received;
}

/** ssh / scp / rsync / mail: local files and stdin go to a remote host; without a remote it is a local copy. */
function remoteCopy(c: CommandContext, cmd: string): Value {
  const { words } = parseOptions(c.args, COMMAND_CATALOG.get(cmd) ?? {});
  const remoteIndex = words.findIndex((w) => /^[^/\s]*[@:]/.test(textOf(w)) && !textOf(w).startsWith('/'));
  if (remoteIndex < 0 && (cmd === 'rsync' || cmd === 'scp')) {
    if (words.length >= 2) writeFile(c.a, c.site('exec', cmd), words[words.length - 1], union(...words.slice(0, -1).map((w) => c.readFile(w))));
    return EMPTY;
  }
  const dest = remoteIndex >= 0 ? textOf(words[remoteIndex]).replace(/:.*$/, '') : words[0]?.text;
  const local = words.filter((_, i) => i !== remoteIndex);
  const body = [c.stdin, ...(cmd === 'ssh' ? local.map(plain) : local.map((w) => union(plain(w), c.readFile(w))))];
  return sendRequest(c.a, c.site('network', cmd, dest), { body }, c.summary, cmd === 'ssh');
}

/** bash -c CODE, python -c CODE, bash SCRIPT, `… | bash`: the code, the script's content or stdin runs. */
function interpreter(c: CommandContext, cmd: string): Value {
  const entry = interpreterEntry(cmd);
  const site = c.site('exec', cmd);
  const lang = SHELLS.has(cmd) ? 'bash' : entry?.language === 'python' ? 'python' : entry?.language === 'node' ? 'javascript' : undefined;
  for (let i = 0; i < c.args.length; i++) {
    const t = textOf(c.args[i]);
    // The program follows a code option (the catalogue's: `python -c`, `node -e`, `perl -ne`) or `bash -c`.
    if (entry ? codeOption(entry, t) === 'next' : /^-[a-z]*c$/.test(t)) {
      if (lang) c.a.code(lang, c.args[i + 1], site, c.summary);
      else c.a.sink(site, 'code', c.args[i + 1], c.summary);
      return EMPTY;
    }
    if (t === '-m' || t === '-W' || t === '-X' || t === '-r' || t === '--require' || t === '-o') {
      i++;
      continue;
    }
    if (t === '-' || t === '-s') break;
    if (t.startsWith('-') && t.length > 1) continue;
    const script = c.args[i]!;
    c.a.sink(site, 'code', union(plain(script), c.a.downloadAt(script.text)), c.summary);
    return EMPTY;
  }
  if (lang) c.a.code(lang, c.stdin, site, c.summary);
  else c.a.sink(site, 'code', c.stdin, c.summary);
  return EMPTY;
}

/** Commands that print stored credentials: keychains, cloud CLIs, password managers. */
function credentialCommand(cmd: string, args: readonly string[]): string | undefined {
  const line = args.join(' ');
  if (cmd === 'security' && /\b(?:find-generic-password|find-internet-password|dump-keychain|export)\b/.test(line)) return 'macOS keychain (security)';
  if (cmd === 'secret-tool' && /\blookup\b/.test(line)) return 'desktop keyring (secret-tool)';
  if (cmd === 'gcloud' && /\bauth\b.*\bprint-(?:access|identity)-token\b/.test(line)) return 'gcloud access token';
  if (cmd === 'aws' && /\b(?:configure (?:get|export-credentials)|sts get-session-token|ecr get-login-password)\b/.test(line)) return 'AWS credentials (aws cli)';
  if (cmd === 'az' && /\baccount get-access-token\b/.test(line)) return 'Azure access token';
  if (cmd === 'gh' && /\bauth token\b/.test(line)) return 'GitHub CLI token';
  if ((cmd === 'op' && /\b(?:read|item get)\b/.test(line)) || (cmd === 'pass' && /\bshow\b/.test(line)) || (cmd === 'bw' && /\bget\b/.test(line)) || (cmd === 'vault' && /\b(?:read|kv get)\b/.test(line))) return `password manager (${cmd})`;
  return undefined;
}

/** Whether the command decodes its input, and the codec to decode a literal input with (undefined: none). */
function decoderCodec(cmd: string, args: readonly string[]): Codec | undefined | false {
  const flags = args.join(' ');
  if (cmd === 'base64') return /(?:^|\s)(?:-[a-zA-Z]*[dD]|--decode)\b/.test(flags) ? 'base64' : false;
  if (cmd === 'base32') return /(?:^|\s)(?:-[a-zA-Z]*d|--decode)\b/.test(flags) ? undefined : false;
  if (cmd === 'xxd') return /(?:^|\s)-[a-z]*r/.test(flags) ? 'hex' : false;
  if (cmd === 'openssl') return /\b(?:enc|base64)\b/.test(flags) && /(?:^|\s)-d\b/.test(flags) ? (/\bbase64\b|-a\b/.test(flags) ? 'base64' : undefined) : false;
  if (cmd === 'gunzip' || cmd === 'zcat') return 'zlib';
  if (cmd === 'bunzip2' || cmd === 'unxz' || cmd === 'uudecode') return undefined;
  if (cmd === 'gzip') return /(?:^|\s)-[a-z]*d/.test(flags) ? 'zlib' : false;
  if (cmd === 'xz' || cmd === 'bzip2' || cmd === 'zstd') return /(?:^|\s)-[a-z]*d/.test(flags) ? undefined : false;
  return false;
}

/** Words joined with spaces, as `echo` and `eval` see them. */
function concatWords(words: readonly Value[]): Value {
  const parts: Value[] = [];
  words.forEach((w, i) => parts.push(...(i > 0 ? [literal(' ')] : []), w));
  return parts.length === 0 ? EMPTY : parts.length === 1 ? parts[0]! : concat(parts);
}
