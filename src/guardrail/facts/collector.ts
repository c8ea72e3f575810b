// Accumulates facts while a tool call is examined; every list keeps first-seen order without duplicates.
import type { ActionFacts, CommandFact, InputFact, PathOp } from './types.js';
import { fileUrlPath, hostOfAddress, normalizeHost } from './urls.js';

/** Not files: empty, stdin/stdout, the null device and the `{}` placeholder of find -exec and xargs -I.
 *  Compared directly rather than through a Set: a path is a fresh string, which a Set lookup would hash. */
function isNowhere(path: string): boolean {
  return path === '' || path === '-' || path === '/dev/null' || path === '{}';
}

/** Process substitutions (`<(…)`, `>(…)`) are pipes, not files; their commands are recorded already. */
function isFile(path: string): boolean {
  return !isNowhere(path) && !path.startsWith('<(') && !path.startsWith('>(');
}
/** Splits of one text tracked for deduplication; past that (only crafted input gets there) repeats are
 *  listed again rather than compared against an ever longer list. */
const MAX_SAME_TEXT = 8;
/** Path operations and inputs kept per call: enough for any real command line. */
const MAX_LISTED = 256;
/** Longest input text repeated in the normalised text (the raw text has all of it). */
const MAX_INPUT_LINE = 8192;

function sameArgs(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** argv0 and args joined by single spaces. A loop rather than `args.join(' ')`: for the few short strings
 *  of a command line Array#join costs several times more than concatenating. */
function commandText(argv0: string, args: readonly string[]): string {
  let text = argv0;
  for (const arg of args) text += ` ${arg}`;
  return text;
}

/** One level of a trie of pipelines by command names. The names were looked up in the command profiles
 *  already, so their hashes are cached and each level costs one cheap Map lookup; a key built from the
 *  whole pipeline (JSON, a join) would be a new string to build and hash every time. */
interface PipelineNode {
  next: Map<string, PipelineNode> | undefined;
  /** A pipeline ending here was listed. */
  listed: boolean;
}

export class FactsCollector {
  parsed = true;
  private readonly commands: CommandFact[] = [];
  /** Commands by text. Different argvs can share a text (`a "b c"` and `a b c`), so args are compared too. */
  private readonly commandsByText = new Map<string, CommandFact[]>();
  /** Registered when a pipeline starts and filled as its commands are seen, so an outer pipeline is
   *  listed before the ones nested in it. */
  private readonly pipelines: string[][] = [];
  private readonly reads = new Set<string>();
  private readonly writes = new Set<string>();
  private readonly hosts = new Set<string>();
  private readonly urls = new Set<string>();
  private readonly pathOps: PathOp[] = [];
  private readonly remoteCode = new Set<string>();
  private readonly inputs: InputFact[] = [];
  /** The project root (hook payload `cwd`), '' when unknown or not a project (/, a home directory). */
  cwd = '';
  /** The directory the call runs in, which relative paths resolve against ('' when unknown). */
  workdir = '';
  /** While positive, a walk only adds path operations, remote code and inputs: the walker re-reads a loop
   *  body with each listed value of its variable (`for d in / ~; do rm -rf "$d"; done`) without listing the
   *  body's commands, reads and writes once per value. */
  quiet = 0;

  addCommand(name: string, argv0: string, args: string[]): void {
    if (this.quiet > 0) return;
    const text = commandText(argv0, args);
    const sameText = this.commandsByText.get(text);
    if (sameText) for (const c of sameText) if (sameArgs(c.args, args)) return;
    const fact = { name, args, text };
    this.commands.push(fact);
    if (!sameText) this.commandsByText.set(text, [fact]);
    else if (sameText.length < MAX_SAME_TEXT) sameText.push(fact);
  }

  addPathOp(op: PathOp): void {
    if (this.pathOps.length < MAX_LISTED) this.pathOps.push(op);
  }

  addRemoteCode(host: string): void {
    this.remoteCode.add(host === '' ? 'unknown' : host);
  }

  addInput(name: string, text: string): void {
    if (text !== '' && this.inputs.length < MAX_LISTED) this.inputs.push({ name, text });
  }

  /** Returns the list to which the names of the pipeline's commands are appended. */
  startPipeline(): string[] {
    const names: string[] = [];
    if (this.quiet === 0) this.pipelines.push(names);
    return names;
  }

  addRead(path: string): void {
    if (this.quiet > 0 || !isFile(path)) return;
    this.reads.add(path);
    this.addNetworkDevice(path);
  }

  addWrite(path: string): void {
    if (this.quiet > 0 || !isFile(path)) return;
    this.writes.add(path);
    this.addNetworkDevice(path);
  }

  /** `host` may carry a user, port or path (`user@host:22`); only the host is kept. */
  addHost(host: string): void {
    if (this.quiet > 0) return;
    const h = hostOfAddress(host);
    if (h !== '') this.hosts.add(h);
  }

  addUrl(url: string): void {
    if (this.quiet > 0) return;
    this.urls.add(url);
    const path = fileUrlPath(url);
    if (path !== undefined) this.addRead(path);
    else this.addHost(url);
  }

  /** `/dev/tcp/HOST/PORT` stays a path (rules look for it) and HOST is contacted. */
  private addNetworkDevice(path: string): void {
    if (!path.startsWith('/dev/tcp/') && !path.startsWith('/dev/udp/')) return;
    const end = path.indexOf('/', 9);
    const host = normalizeHost(end < 0 ? path.slice(9) : path.slice(9, end));
    if (host !== '') this.hosts.add(host);
  }

  toFacts(tool: string): ActionFacts {
    const pipelines: string[][] = [];
    // A trie rather than a joined key: names may contain any character (`$'a\0b'`), and a collision would
    // hide a pipeline.
    const seen = new Map<string, PipelineNode>();
    for (const names of this.pipelines) if (names.length >= 2 && firstListing(seen, names)) pipelines.push(names);
    const lines = this.commands.map((c) => c.text);
    for (const p of this.reads) lines.push(`read ${p}`);
    for (const p of this.writes) lines.push(`write ${p}`);
    for (const h of this.hosts) lines.push(`host ${h}`);
    for (const u of this.urls) lines.push(`url ${u}`);
    // Marker lines, so that a rule's patterns can nominate it from what the call does (`delete home ~`).
    for (const o of this.pathOps) lines.push(`${o.op}${o.recursive ? ' -r' : ''} ${o.scope} ${o.path}`);
    for (const h of this.remoteCode) lines.push(`remote-code ${h}`);
    for (const i of this.inputs) lines.push(`input ${i.name} ${i.text.length > MAX_INPUT_LINE ? i.text.slice(0, MAX_INPUT_LINE) : i.text}`);
    return {
      tool,
      parsed: this.parsed,
      commands: this.commands,
      pipelines,
      paths_read: [...this.reads],
      paths_written: [...this.writes],
      hosts: [...this.hosts],
      urls: [...this.urls],
      cwd: this.cwd,
      path_ops: this.pathOps,
      remote_code: [...this.remoteCode],
      inputs: this.inputs,
      normalized: lines.join('\n'),
    };
  }
}

/** Adds `names` to the trie `root`; false if the same pipeline was there already. */
function firstListing(root: Map<string, PipelineNode>, names: readonly string[]): boolean {
  let level = root;
  let node: PipelineNode | undefined;
  for (const name of names) {
    if (node) level = node.next ??= new Map();
    node = level.get(name);
    if (!node) level.set(name, (node = { next: undefined, listed: false }));
  }
  if (!node || node.listed) return false;
  node.listed = true;
  return true;
}
