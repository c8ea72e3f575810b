// Hosts and URLs that commands contact, plus the files curl and wget send or save.
import { findUrls, isRemoteOperand } from '../urls.js';
import type { Effect, EffectSink } from './effect-sink.js';
import { hasOption, optionValues, parseOptions } from './options.js';
import { NETCAT, NETCAT_SPEC } from './spawned.js';

/** Commands whose arguments are text, not addresses: a URL in `echo` or `grep` is not contacted. Git is
 *  here because only some of its subcommands reach a remote (its own effect handles those). */
export const TEXT_ARGUMENT_COMMANDS: ReadonlySet<string> = new Set(['echo', 'printf', 'grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'sed', 'git']);
const GIT_REMOTE_SUBCOMMANDS = new Set(['clone', 'fetch', 'pull', 'push', 'ls-remote', 'remote', 'submodule', 'archive']);

/** Records every URL in the arguments. */
export function recordArgumentUrls(args: readonly string[], sink: EffectSink): void {
  for (const arg of args) if (arg.includes('://')) findUrls(arg, (url) => sink.addUrl(url));
}

/** A scheme-less operand (`example.com/x`, `10.0.0.1:8080`) names a host; URLs are recorded elsewhere. */
function addHostOperand(sink: EffectSink, operand: string): void {
  if (operand !== '' && !operand.includes('://')) sink.addHost(operand);
}

function readDataFile(sink: EffectSink, file: string): void {
  if (file !== '' && file !== '-') sink.addRead(file);
}

const CURL = {
  short: 'AbcCdDeEFHKmoPQrtTuUwxXyYz',
  long: [
    '--data', '--data-binary', '--data-raw', '--data-ascii', '--data-urlencode', '--json', '--form', '--form-string',
    '--header', '--output', '--upload-file', '--user', '--user-agent', '--referer', '--request', '--cookie',
    '--cookie-jar', '--config', '--max-time', '--connect-timeout', '--proxy', '--url', '--write-out', '--cert',
    '--key', '--cacert', '--resolve', '--connect-to', '--retry', '--range', '--dump-header', '--output-dir',
    '--interface', '--limit-rate', '--proxy-user', '--oauth2-bearer', '--unix-socket', '--local-port',
  ],
};

/** `-F name=@file;type=…` uploads a file, `name=<file` sends its content. */
const FORM_FILE = /^[^=]*=[@<]([^;]*)/;

function curlOption(sink: EffectSink, name: string, value: string): void {
  switch (name) {
    case '--url':
    case '-x':
    case '--proxy':
      return addHostOperand(sink, value);
    case '-d':
    case '--data':
    case '--data-binary':
    case '--data-ascii':
    case '--json':
      if (value.startsWith('@')) readDataFile(sink, value.slice(1));
      return;
    case '--data-urlencode': {
      const at = value.indexOf('@');
      if (at >= 0 && !value.slice(0, at).includes('=')) readDataFile(sink, value.slice(at + 1));
      return;
    }
    case '-F':
    case '--form': {
      const file = FORM_FILE.exec(value);
      if (file) readDataFile(sink, file[1]!);
      return;
    }
    case '-T':
    case '--upload-file':
    case '-K':
    case '--config':
      if (value !== '.') readDataFile(sink, value);
      return;
    case '-o':
    case '--output':
    case '-D':
    case '--dump-header':
    case '-c':
    case '--cookie-jar':
      writeUnlessStdout(sink, value);
  }
}

const curl: Effect = (args, sink) => {
  const parsed = parseOptions(args, CURL);
  parsed.operands.forEach((o) => addHostOperand(sink, o));
  for (const { name, value } of parsed.options) if (value !== undefined) curlOption(sink, name, value);
};

const wget: Effect = (args, sink) => {
  const parsed = parseOptions(args, {
    short: 'OoaPiBeUtTwQlARDIX',
    long: [
      '--output-document', '--output-file', '--append-output', '--directory-prefix', '--input-file', '--base',
      '--execute', '--user-agent', '--tries', '--timeout', '--wait', '--quota', '--level', '--accept', '--reject',
      '--domains', '--header', '--post-data', '--post-file', '--body-data', '--body-file', '--method', '--user',
      '--password', '--referer', '--load-cookies', '--save-cookies',
    ],
  });
  parsed.operands.forEach((o) => addHostOperand(sink, o));
  const written = optionValues(parsed, '-O', '--output-document', '-o', '--output-file', '-a', '--append-output', '-P', '--directory-prefix');
  written.forEach((p) => writeUnlessStdout(sink, p));
  optionValues(parsed, '--post-file', '--body-file', '-i', '--input-file').forEach((p) => readDataFile(sink, p));
};

function writeUnlessStdout(sink: EffectSink, path: string): void {
  if (path !== '-') sink.addWrite(path);
}

/** nc HOST PORT; with -l the operands are the address and port to listen on. */
const netcat: Effect = (args, sink) => {
  const parsed = parseOptions(args, NETCAT_SPEC);
  const listening = hasOption(parsed, '-l', '--listen');
  const [first] = parsed.operands;
  if (first !== undefined && (!listening || parsed.operands.length >= 2)) addHostOperand(sink, first);
  optionValues(parsed, '-x', '--proxy').forEach((p) => addHostOperand(sink, p));
};

/** The first operand (after options with values) is the host: ssh, sftp, telnet, ftp. */
const firstOperandHost =
  (short: string, also: readonly string[] = []): Effect =>
  (args, sink) => {
    const parsed = parseOptions(args, { short, stopAtOperand: true });
    const [host] = parsed.operands;
    if (host !== undefined) addHostOperand(sink, host);
    for (const jumps of optionValues(parsed, ...also)) jumps.split(',').forEach((j) => addHostOperand(sink, j));
  };

const allOperandHosts =
  (short: string): Effect =>
  (args, sink) =>
    parseOptions(args, { short }).operands.forEach((o) => addHostOperand(sink, o));

const DNS_TYPES = new Set([
  'a', 'aaaa', 'mx', 'txt', 'ns', 'cname', 'soa', 'ptr', 'srv', 'any', 'caa', 'ds', 'dnskey', 'rrsig', 'nsec',
  'https', 'svcb', 'naptr', 'axfr', 'ixfr', 'spf', 'tlsa', 'sshfp', 'hinfo', 'in', 'ch', 'hs',
]);

/** dig NAME [TYPE] [@SERVER] [+opts]: the queried name (even `$(whoami).x.example`) and the server. */
const dig: Effect = (args, sink) => {
  const parsed = parseOptions(args, { short: 'bcfkpqtxy' });
  for (const o of parsed.operands) {
    if (o.startsWith('@')) addHostOperand(sink, o.slice(1));
    else if (!o.startsWith('+') && !DNS_TYPES.has(o.toLowerCase())) addHostOperand(sink, o);
  }
  optionValues(parsed, '-x', '-q').forEach((h) => addHostOperand(sink, h));
};

const SOCAT_CONNECT = /^(tcp[46]?|tcp[46]?-connect|openssl|openssl-connect|ssl|udp[46]?|udp[46]?-(connect|sendto)|sctp[46]?|sctp[46]?-connect|socks4a?|socks5|proxy|proxy-connect):/i;
const SOCAT_PROXY = /^(socks4a?|socks5|proxy|proxy-connect):/i;

/** socat addresses `TCP:host:port`, `OPENSSL:host:port`, `SOCKS4:proxy:host:port`, options after `,`. */
const socat: Effect = (args, sink) => {
  for (const arg of args) {
    if (!SOCAT_CONNECT.test(arg)) continue;
    const comma = arg.indexOf(',');
    const address = arg.slice(arg.indexOf(':') + 1, comma < 0 ? arg.length : comma);
    addHostOperand(sink, address);
    const secondColon = address.indexOf(':');
    if (SOCAT_PROXY.test(arg) && secondColon >= 0) addHostOperand(sink, address.slice(secondColon + 1));
  }
};

/** Remotes of clone, fetch, push …: URLs and scp-like `git@host:path`. */
const git: Effect = (args, sink) => {
  if (!args.some((a) => GIT_REMOTE_SUBCOMMANDS.has(a))) return;
  recordArgumentUrls(args, sink);
  for (const arg of args) if (isRemoteOperand(arg) && !arg.includes('://')) addHostOperand(sink, arg);
};

const pip: Effect = (args, sink) =>
  optionValues(parseOptions(args, { long: ['--trusted-host'] }), '--trusted-host').forEach((h) => addHostOperand(sink, h));

/** openssl s_client -connect HOST:PORT. */
const openssl: Effect = (args, sink) => {
  const at = args.indexOf('-connect');
  if (at >= 0 && args[at + 1] !== undefined) addHostOperand(sink, args[at + 1]!);
};

const SSH_VALUES = 'bcDEeFIiJLlmOoPpQRSWwB';
// A Map, not an object: command names come from untrusted input (`__proto__`, `constructor`).
export const HOST_EFFECTS: ReadonlyMap<string, Effect> = new Map([
  ...Object.entries({
    curl, wget, socat, git, pip, pip3: pip, openssl,
    ssh: firstOperandHost(SSH_VALUES, ['-J']), sftp: firstOperandHost('BbcDFiJloPRSs', ['-J']),
    telnet: firstOperandHost('blenS'), ftp: firstOperandHost('P'), tftp: firstOperandHost(''),
    ping: allOperandHosts('ciIlpQsStTwWMmF'), ping6: allOperandHosts('ciIlpQsStTwWMmF'),
    dig, drill: dig, kdig: dig, nslookup: allOperandHosts(''), host: allOperandHosts('tcNRWm'),
  }),
  ...[...NETCAT].map((name): [string, Effect] => [name, netcat]),
]);
