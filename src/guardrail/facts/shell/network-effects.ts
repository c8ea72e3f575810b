// Hosts and URLs that commands contact, plus the files curl and wget send or save. Which options take a value
// and what each value is come from the command catalogue (catalog.ts).
import { findUrls, isRemoteOperand } from '../urls.js';
import type { Effect, EffectSink } from './effect-sink.js';
import { hasOption, optionValues, parseOptions } from './options.js';
import { catalogEntry, roleOptions, type CommandEntry } from './catalog.js';
import { NETCAT as NETCAT_NAMES } from './spawned.js';

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

const CURL = catalogEntry('curl');
const CURL_DATA = roleOptions(CURL, 'data');
const CURL_DATA_URLENCODE = roleOptions(CURL, 'dataUrlencode');
const CURL_FORM = roleOptions(CURL, 'form');
const CURL_FILES_READ = roleOptions(CURL, 'upload', 'read');
const CURL_FILES_WRITTEN = roleOptions(CURL, 'save', 'write');
const CURL_REACH = roleOptions(CURL, 'reach');

/** `-F name=@file;type=…` uploads a file, `name=<file` sends its content. */
const FORM_FILE = /^[^=]*=[@<]([^;]*)/;

function curlOption(sink: EffectSink, name: string, value: string): void {
  if (CURL_REACH.has(name)) addHostOperand(sink, value);
  else if (CURL_DATA.has(name)) {
    if (value.startsWith('@')) readDataFile(sink, value.slice(1));
  } else if (CURL_DATA_URLENCODE.has(name)) {
    const at = value.indexOf('@');
    if (at >= 0 && !value.slice(0, at).includes('=')) readDataFile(sink, value.slice(at + 1));
  } else if (CURL_FORM.has(name)) {
    const file = FORM_FILE.exec(value);
    if (file) readDataFile(sink, file[1]!);
  } else if (CURL_FILES_READ.has(name)) {
    if (value !== '.') readDataFile(sink, value);
  } else if (CURL_FILES_WRITTEN.has(name)) writeUnlessStdout(sink, value);
}

const curl: Effect = (args, sink) => {
  const parsed = parseOptions(args, CURL);
  parsed.operands.forEach((o) => addHostOperand(sink, o));
  for (const { name, value } of parsed.options) if (value !== undefined) curlOption(sink, name, value);
};

const WGET = catalogEntry('wget');
const WGET_FILES_WRITTEN = [...roleOptions(WGET, 'save', 'write')];
const WGET_FILES_READ = [...roleOptions(WGET, 'upload', 'read')];
const wget: Effect = (args, sink) => {
  const parsed = parseOptions(args, WGET);
  parsed.operands.forEach((o) => addHostOperand(sink, o));
  optionValues(parsed, ...WGET_FILES_WRITTEN).forEach((p) => writeUnlessStdout(sink, p));
  optionValues(parsed, ...WGET_FILES_READ).forEach((p) => readDataFile(sink, p));
};

function writeUnlessStdout(sink: EffectSink, path: string): void {
  if (path !== '-') sink.addWrite(path);
}

/** nc HOST PORT; with -l the operands are the address and port to listen on. */
const NETCAT = catalogEntry('nc');
const NETCAT_REACH = [...roleOptions(NETCAT, 'reach')];
const netcat: Effect = (args, sink) => {
  const parsed = parseOptions(args, NETCAT);
  const listening = hasOption(parsed, '-l', '--listen');
  const [first] = parsed.operands;
  if (first !== undefined && (!listening || parsed.operands.length >= 2)) addHostOperand(sink, first);
  optionValues(parsed, ...NETCAT_REACH).forEach((p) => addHostOperand(sink, p));
};

/** The first operand (after options with values) is the host: ssh, sftp, telnet, ftp, tftp; -J jump hosts. */
const firstOperandHost = (entry: CommandEntry): Effect => {
  const jumpOptions = [...roleOptions(entry, 'reach')];
  return (args, sink) => {
    const parsed = parseOptions(args, entry);
    const [host] = parsed.operands;
    if (host !== undefined) addHostOperand(sink, host);
    for (const jumps of optionValues(parsed, ...jumpOptions)) jumps.split(',').forEach((j) => addHostOperand(sink, j));
  };
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

// A Map, not an object: command names come from untrusted input (`__proto__`, `constructor`).
export const HOST_EFFECTS: ReadonlyMap<string, Effect> = new Map([
  ...Object.entries({
    curl, wget, socat, git, pip, pip3: pip, openssl,
    ...Object.fromEntries(['ssh', 'sftp', 'telnet', 'ftp', 'tftp'].map((name) => [name, firstOperandHost(catalogEntry(name))])),
    ping: allOperandHosts('ciIlpQsStTwWMmF'), ping6: allOperandHosts('ciIlpQsStTwWMmF'),
    dig, drill: dig, kdig: dig, nslookup: allOperandHosts(''), host: allOperandHosts('tcNRWm'),
  }),
  ...[...NETCAT_NAMES].map((name): [string, Effect] => [name, netcat]),
]);
