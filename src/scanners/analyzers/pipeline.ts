// The pipeline analyzer: reads shell commands the way a shell would, in shell scripts and in Markdown code
// (fenced blocks and inline code), and reports the sequences that matter even when each command alone looks
// ordinary: a sensitive source flowing (maybe encoded) into a network sink, something fetched and executed,
// and an archive extracted and its content executed.
//
// Commands are parsed with the guardrail's shell parser (src/guardrail/facts), which unwraps sudo/env/bash -c,
// command substitutions and decoded base64 payloads. Text the parser cannot read (an `if … then` line on its
// own, a half-written snippet) falls back to RE2 patterns. Only lines that mention a network tool, an archive
// tool, a credential path or a file fetched earlier are parsed: parsing costs tens of microseconds a line.
import RE2 from 're2';
import { extractFacts, type ActionFacts, type CommandFact } from '../../guardrail/facts/index.js';
import { catalogEntry, roleOptions } from '../../guardrail/facts/shell/catalog.js';
import { hasOption, optionValues, parseOptions } from '../../guardrail/facts/shell/options.js';
import type { Analyzer, AnalyzerContext, AnalyzerFinding, ScanCategory, ScanSeverity } from '../types.js';
import { lineAt } from '../snippet.js';
import { baseName } from './static/file-types.js';
import { excerpt, FindingSet, findingAt, matchStart, textFilesOf, type TextFile } from './static/findings.js';
import { markdownCode } from './static/markdown.js';

/** A logical shell command (continuations and heredoc bodies joined) and the line it starts on. */
interface ShellUnit {
  text: string;
  line: number;
}

const FETCHERS: ReadonlySet<string> = new Set([
  'curl', 'wget', 'fetch', 'aria2c', 'http', 'https', 'xh', 'lwp-download', 'iwr', 'irm', 'invoke-webrequest', 'invoke-restmethod',
]);
const NETWORK_SINKS: ReadonlySet<string> = new Set([
  'curl', 'wget', 'nc', 'ncat', 'netcat', 'socat', 'telnet', 'ssh', 'scp', 'sftp', 'ftp', 'rsync', 'http', 'https', 'xh', 'openssl',
  'iwr', 'irm', 'invoke-webrequest', 'invoke-restmethod', 'gsutil', 'rclone', 'mail', 'sendmail', 'mutt',
]);
const ENCODERS: ReadonlySet<string> = new Set([
  'base64', 'base32', 'basenc', 'xxd', 'od', 'hexdump', 'gzip', 'bzip2', 'xz', 'zstd', 'openssl', 'gpg', 'tar', 'zip', '7z', 'rev', 'tr', 'uuencode',
]);
const SHELLS_AND_INTERPRETERS: ReadonlySet<string> = new Set([
  'sh', 'bash', 'zsh', 'dash', 'ksh', 'fish', 'python', 'python2', 'python3', 'perl', 'ruby', 'node', 'php', 'deno', 'bun', 'pwsh',
  'powershell', 'iex', 'invoke-expression', 'source', '.',
]);
const ARCHIVE_TOOLS: ReadonlySet<string> = new Set(['tar', 'bsdtar', 'gtar', 'unzip', '7z', '7za', '7zz', 'jar', 'unrar']);
/** Commands that print secrets themselves (no file read involved). */
const SECRET_PRINTERS: readonly string[] = [
  'env', 'printenv', 'security find-generic-password', 'security find-internet-password', 'security dump-keychain', 'gh auth token',
  'gcloud auth print-access-token', 'gcloud auth print-identity-token', 'aws configure export-credentials', 'aws sts get-session-token',
  'az account get-access-token', 'history',
];
/** Path fragments of credential and key stores (compared lower-case). */
const SENSITIVE_PATH_MARKERS: readonly string[] = [
  '.ssh', 'id_rsa', 'id_ed25519', 'id_ecdsa', 'id_dsa', '.aws/', '.aws', '.gnupg', '.kube/config', '.docker/config.json', '.netrc', '.npmrc',
  '.pypirc', '.git-credentials', '/etc/passwd', '/etc/shadow', 'credentials', '.bash_history', '.zsh_history', '/environ',
  '.config/gcloud', '.azure', 'login data', 'cookies', 'keychain', '.password-store', 'wallet',
];
/** An extraction followed by running a local script this many commands later is reported; beyond, unrelated. */
const EXTRACTION_WINDOW = 10;
const MAX_HEREDOC_LINES = 500;
const SHELL_FENCE_LANGUAGES: ReadonlySet<string> = new Set(['', 'sh', 'bash', 'shell', 'zsh', 'console', 'terminal', 'shell-session', 'shellsession', 'ksh', 'dockerfile']);

/** Lines worth parsing (case-insensitive): network tools, archive tools, encoders, credential paths, URLs. */
const WORTH_PARSING = new RE2(
  '(?i)(?:\\b(?:curl|wget|fetch|aria2c|xh|nc|ncat|netcat|socat|telnet|ssh|scp|sftp|ftp|rsync|iwr|irm|invoke-webrequest|invoke-restmethod|gsutil|rclone|sendmail|tar|bsdtar|unzip|7z|7za|7zz|jar|unrar|base64|xxd|printenv|env|security|gh|gcloud)\\b|/dev/(?:tcp|udp)/|\\.ssh|\\.aws|credentials|https?://)',
  'u',
);
/** A command that runs a local file, worth parsing once something was fetched or extracted. */
const RUNS_LOCAL_FILE = new RE2('(?:^|[\\s;&|(])(?:\\./|\\.\\./|/tmp/|~/|[\\w.-]+/[\\w./-]+|(?:ba|z|da)?sh\\s|python[0-9.]*\\s|node\\s|perl\\s|ruby\\s|source\\s|\\.\\s)', 'u');
/** A heredoc's start (`<<EOF`, `<<-'EOF'`, `<<"EOF"`), not a here-string (`<<<`); the group holds the delimiter. */
const HEREDOC = new RE2('(?:^|[^<])<<-?\\s*(?:\'([^\'\\s]+)\'|"([^"\\s]+)"|\\\\?([A-Za-z_][A-Za-z0-9_]*))', 'u');

/** What a pipeline finding says, before it is placed in a file. */
interface Rule {
  rule_id: string;
  category: ScanCategory;
  severity: ScanSeverity;
  title: string;
  description: string;
  remediation: string;
}

const RULES = {
  exfiltration: {
    rule_id: 'SS-PIPELINE-EXFILTRATION', category: 'data_exfiltration', severity: 'CRITICAL',
    title: 'Sensitive data flows into a network command',
    description: 'A command chain reads credentials, keys or the environment and sends the result (possibly encoded) to a network destination.',
    remediation: 'Remove the chain; nothing in a skill should send local secrets over the network.',
  },
  fetchExecute: {
    rule_id: 'SS-PIPELINE-FETCH-EXECUTE', category: 'supply_chain_attack', severity: 'HIGH',
    title: 'Downloaded content executed directly',
    description: 'Content fetched from the network is piped or substituted straight into a shell or interpreter, so whatever the server returns runs unreviewed.',
    remediation: 'Download to a file, verify a published checksum or signature, review it, then run it; better, ship the script in the skill.',
  },
  downloadedFileRun: {
    rule_id: 'SS-PIPELINE-DOWNLOAD-RUN', category: 'supply_chain_attack', severity: 'HIGH',
    title: 'Downloaded file executed',
    description: 'A file saved from the network is made executable or run by a shell or interpreter.',
    remediation: 'Ship the file in the skill, or verify a published checksum before running it.',
  },
  extractedRun: {
    rule_id: 'SS-PIPELINE-EXTRACT-RUN', category: 'supply_chain_attack', severity: 'MEDIUM',
    title: 'Extracted archive content executed',
    description: 'An archive is unpacked and a script or binary from it is run; the archive\'s content is not reviewed.',
    remediation: 'Ship the archive\'s files unpacked so they are scanned, or verify the archive\'s checksum before running anything from it.',
  },
} as const satisfies Record<string, Rule>;

/** Patterns for text the parser could not read. */
const FALLBACKS: readonly { rule: Rule; regex: RE2 }[] = [
  { rule: RULES.fetchExecute, regex: new RE2('(?i)\\b(?:curl|wget)\\b[^\\n|]*\\|\\s*(?:sudo\\s+)?(?:ba|z|da|k)?sh\\b', 'u') },
  {
    rule: RULES.exfiltration,
    regex: new RE2('(?i)(?:\\.ssh/|\\.aws/|\\bcredentials\\b|id_rsa|/etc/passwd|/etc/shadow|\\bprintenv\\b|\\benv\\s*\\|)[^\\n]*\\|[^\\n]*\\b(?:curl|wget|nc|ncat|netcat|socat)\\b', 'u'),
  },
  { rule: RULES.downloadedFileRun, regex: new RE2('(?i)\\b(?:curl|wget)\\b[^\\n]*(?:&&|;)\\s*(?:chmod\\s+\\+x\\s+\\S+\\s*(?:&&|;)\\s*)?\\./', 'u') },
  { rule: RULES.extractedRun, regex: new RE2('(?i)\\b(?:tar\\s+-?[a-z]*x[a-z]*|unzip)\\b[^\\n]*(?:&&|;)\\s*(?:\\./|(?:ba)?sh\\s+\\S)', 'u') },
];

// ------------------------------------------------------------------ finding shell text in a file

function isCommentOrBlank(line: string): boolean {
  const trimmed = line.trimStart();
  return trimmed === '' || trimmed.startsWith('#');
}

/** Splits shell text into logical commands: `\` continuations joined, heredoc bodies kept with their command. */
function logicalCommands(text: string, firstLine: number, options: { consolePrompts?: boolean; dockerfile?: boolean } = {}): ShellUnit[] {
  const lines = text.split('\n');
  const units: ShellUnit[] = [];
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!.endsWith('\r') ? lines[i]!.slice(0, -1) : lines[i]!;
    if (options.consolePrompts) {
      // In console transcripts only prompt lines are commands; the rest is output.
      const trimmed = line.trimStart();
      if (!trimmed.startsWith('$ ') && !trimmed.startsWith('% ')) continue;
      line = trimmed.slice(2);
    }
    if (isCommentOrBlank(line)) continue;
    if (options.dockerfile) {
      const trimmed = line.trimStart();
      if (!trimmed.toUpperCase().startsWith('RUN ')) continue;
      line = trimmed.slice(4);
    }
    const start = i;
    let command = line;
    while (command.endsWith('\\') && i + 1 < lines.length) {
      i++;
      command = `${command.slice(0, -1)} ${lines[i]!.trim()}`;
    }
    const heredoc = command.includes('<<') ? HEREDOC.exec(command) : null;
    if (heredoc) {
      const delimiter = heredoc[1] ?? heredoc[2] ?? heredoc[3] ?? '';
      const body: string[] = [];
      while (i + 1 < lines.length && body.length < MAX_HEREDOC_LINES) {
        i++;
        const bodyLine = lines[i]!.endsWith('\r') ? lines[i]!.slice(0, -1) : lines[i]!;
        body.push(bodyLine);
        if (bodyLine.trim() === delimiter) break;
      }
      command = `${command}\n${body.join('\n')}`;
    }
    units.push({ text: command, line: firstLine + start });
  }
  return units;
}

/** The shell commands of a file: a whole shell script, or the code of a Markdown file. */
function shellUnitsOf(file: TextFile): ShellUnit[] {
  if (file.type === 'shell') {
    const name = baseName(file.path);
    return logicalCommands(file.text, 1, { dockerfile: name === 'Dockerfile' || name === 'Containerfile' });
  }
  if (file.type !== 'markdown') return [];
  const units: ShellUnit[] = [];
  for (const code of markdownCode(file.text)) {
    if (code.kind === 'inline') {
      // Inline code is mostly names and paths; only something with an argument can be a command.
      if (code.text.includes(' ')) units.push({ text: code.text, line: code.line });
    } else if (SHELL_FENCE_LANGUAGES.has(code.language)) {
      units.push(...logicalCommands(code.text, code.line, {
        consolePrompts: code.language === 'console' || code.language === 'shell-session' || code.language === 'shellsession',
        dockerfile: code.language === 'dockerfile',
      }));
    }
  }
  return units;
}

// ------------------------------------------------------------------ reading commands

const lower = (s: string) => s.toLowerCase();

function isSensitiveText(value: string): boolean {
  const v = lower(value);
  if (SENSITIVE_PATH_MARKERS.some((marker) => v.includes(marker))) return true;
  const name = baseName(v.startsWith('@') ? v.slice(1) : v);
  return name === '.env' || name.startsWith('.env.');
}

function printsSecrets(command: CommandFact): boolean {
  const text = lower(command.text);
  return SECRET_PRINTERS.some((p) => text === p || text.startsWith(`${p} `));
}

function isInterpreter(name: string): boolean {
  return SHELLS_AND_INTERPRETERS.has(lower(name)) || /* python3.12 */ lower(name).startsWith('python');
}

/** argv0 as written (CommandFact.text is argv0 and the args joined by spaces). */
function argv0Of(command: CommandFact): string {
  return command.args.length === 0 ? command.text : command.text.slice(0, command.text.length - command.args.join(' ').length - 1);
}

/** `example.com`, `10.0.0.1`, `[::1]`: not a placeholder such as `…` or `<host>`. */
function isHostName(host: string): boolean {
  let separator = false;
  for (const ch of host) {
    if (ch === '.' || ch === ':') separator = true;
    else if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch === '-' || ch === '[' || ch === ']')) return false;
  }
  return separator;
}

const normalizePath = (path: string) => (path.startsWith('./') ? path.slice(2) : path);

/** The first argument that is not an option. */
function firstOperand(args: readonly string[]): string | undefined {
  return args.find((a) => !a.startsWith('-'));
}

/** Where a fetcher saves what it downloads ('-' and stdout excluded); curl and wget as the catalogue reads them. */
function downloadTargets(command: CommandFact): string[] {
  const name = lower(command.name);
  const { args } = command;
  const urls = args.filter((a) => a.startsWith('http://') || a.startsWith('https://') || a.startsWith('ftp://'));
  const remoteName = () => urls.map((u) => baseName(u.split('?')[0]!.split('#')[0]!)).filter((n) => n !== '' && !n.includes(':'));
  const targets: string[] = [];
  let usesRemoteName = false;
  const entry = name === 'curl' || name === 'wget' ? catalogEntry(name) : undefined;
  if (entry) {
    const parsed = parseOptions(args, entry);
    targets.push(...optionValues(parsed, ...roleOptions(entry, 'save')));
    usesRemoteName = hasOption(parsed, ...(entry.remoteName ?? [])) || (entry.savesUnderUrlName === true && targets.length === 0);
  } else if (name === 'iwr' || name === 'invoke-webrequest') {
    for (let i = 0; i < args.length; i++) if (lower(args[i]!) === '-outfile') targets.push(args[++i] ?? '');
  }
  const toStdout = targets.includes('-');
  const saved = targets.filter((t) => t !== '' && t !== '-' && t !== '/dev/null');
  if (usesRemoteName && !toStdout) saved.push(...remoteName());
  return saved.map(normalizePath);
}

/** The path a command runs, if it runs a file: `./x`, `/tmp/x`, `sh x`, `python x.py`, `source x`. */
function executedPath(command: CommandFact): string | undefined {
  const argv0 = argv0Of(command);
  if (argv0.includes('/') && !argv0.startsWith('$(')) return normalizePath(argv0);
  if (isInterpreter(command.name)) {
    const operand = firstOperand(command.args);
    if (operand !== undefined && operand !== '-' && !operand.startsWith('$(') && !operand.startsWith('<(')) return normalizePath(operand);
  }
  return undefined;
}

interface Extraction {
  unit: number;
  line: number;
  archive: string;
  dir: string | undefined;
  downloaded: boolean;
}

/** An archive extraction: the archive and the target folder when one is given. */
function extractionOf(command: CommandFact): { archive: string; dir: string | undefined } | undefined {
  const name = lower(command.name);
  if (!ARCHIVE_TOOLS.has(name)) return undefined;
  const { args } = command;
  if (name === 'tar' || name === 'bsdtar' || name === 'gtar') {
    const first = args[0] ?? '';
    const cluster = first.startsWith('--') ? '' : first;
    const extracting = cluster.includes('x') || args.includes('--extract') || args.includes('--get');
    if (!extracting) return undefined;
    let archive = '-';
    let dir: string | undefined;
    for (let i = 0; i < args.length; i++) {
      const arg = args[i]!;
      if (arg === '-C' || arg === '--directory') dir = args[++i];
      else if (arg.startsWith('--directory=')) dir = arg.slice(12);
      else if (arg === '-f' || arg === '--file') archive = args[++i] ?? archive;
      else if (arg.startsWith('--file=')) archive = arg.slice(7);
      else if (!arg.startsWith('--') && /* cluster such as xzf or -xzf */ arg.endsWith('f') && (i === 0 || arg.startsWith('-'))) archive = args[++i] ?? archive;
    }
    return { archive: normalizePath(archive), dir: dir === undefined ? undefined : normalizePath(dir) };
  }
  if (name === 'unzip' || name === 'unrar') {
    const dirIndex = args.indexOf('-d');
    const dir = dirIndex >= 0 ? args[dirIndex + 1] : undefined;
    const archive = args.find((a, i) => !a.startsWith('-') && !(name === 'unrar' && i === 0 && (a === 'x' || a === 'e')) && a !== dir);
    return archive === undefined ? undefined : { archive: normalizePath(archive), dir: dir === undefined ? undefined : normalizePath(dir) };
  }
  if (name === 'jar') {
    if (!(args[0] ?? '').includes('x')) return undefined;
    return { archive: normalizePath(args[1] ?? '-'), dir: undefined };
  }
  // 7z x archive -oDIR
  if (args[0] !== 'x' && args[0] !== 'e') return undefined;
  const output = args.find((a) => a.startsWith('-o'));
  const archive = args.slice(1).find((a) => !a.startsWith('-'));
  return archive === undefined ? undefined : { archive: normalizePath(archive), dir: output ? normalizePath(output.slice(2)) : undefined };
}

function isRelativePath(path: string): boolean {
  return !path.startsWith('/') && !path.startsWith('~') && !path.startsWith('$');
}

// ------------------------------------------------------------------ the analysis of one file

class FileAnalysis {
  /** Downloaded file → the line it was downloaded on. */
  private readonly downloads = new Map<string, number>();
  private readonly extractions: Extraction[] = [];
  private unitIndex = 0;

  constructor(private readonly file: TextFile, private readonly out: FindingSet) {}

  private report(rule: Rule, line: number, metadata: Record<string, unknown>, severity: ScanSeverity = rule.severity): void {
    this.out.add(findingAt({ ...rule, severity, metadata }, this.file, this.file.lines.startOfLine(line)));
  }

  private pending(): boolean {
    return this.downloads.size > 0 || this.extractions.length > 0;
  }

  analyse(unit: ShellUnit): void {
    this.unitIndex++;
    const interesting = WORTH_PARSING.test(unit.text) || (this.pending() && RUNS_LOCAL_FILE.test(unit.text));
    if (!interesting) return;
    const facts = extractFacts('bash', { command: unit.text });
    if (!facts.parsed) {
      this.fallback(unit);
      return;
    }
    this.exfiltration(facts, unit);
    this.fetchExecute(facts, unit);
    this.sequence(facts, unit);
  }

  private fallback(unit: ShellUnit): void {
    for (const { rule, regex } of FALLBACKS) {
      const match = regex.exec(unit.text);
      if (match) this.report(rule, unit.line + lineAt(unit.text, matchStart(match.index, match[0])) - 1, { parsed: false, match: excerpt(match[0]) });
    }
  }

  private exfiltration(facts: ActionFacts, unit: ShellUnit): void {
    // A sink whose own arguments carry a sensitive file that the line reads (`curl -d @~/.ssh/id_rsa`,
    // `curl -d "$(cat ~/.aws/credentials)"`, `scp ~/.ssh/id_rsa host:`).
    const sensitiveReads = facts.paths_read.filter(isSensitiveText);
    for (const sink of facts.commands) {
      if (!NETWORK_SINKS.has(lower(sink.name))) continue;
      // paths_read leaves out what authenticates the connection (`scp -i key`, `curl --cert`): only payloads count.
      const carried = sensitiveReads.find((p) => sink.text.includes(p));
      if (carried !== undefined) {
        this.report(RULES.exfiltration, unit.line, { source: carried, sink: excerpt(sink.text), hosts: facts.hosts });
        return;
      }
    }
    // A pipeline whose earlier stages read secrets and whose later stage is a network sink.
    for (const stages of facts.pipelines) {
      const sinkAt = stages.findIndex((name, i) => i > 0 && NETWORK_SINKS.has(lower(name)));
      if (sinkAt < 0) continue;
      const upstream = new Set(stages.slice(0, sinkAt));
      const source = facts.commands.find((c) => upstream.has(c.name) && (printsSecrets(c) || c.args.some(isSensitiveText)));
      if (!source) continue;
      const encoders = stages.slice(1, sinkAt).filter((n) => ENCODERS.has(lower(n)));
      this.report(RULES.exfiltration, unit.line, { source: excerpt(source.text), stages, encoders, hosts: facts.hosts });
      return;
    }
  }

  private fetchExecute(facts: ActionFacts, unit: ShellUnit): void {
    // `curl … | sh` in prose describes a pattern; a real command names what it fetches (a URL, a host, a variable).
    const fetchesSomething = facts.urls.length > 0 || facts.hosts.some(isHostName)
      || facts.commands.some((c) => FETCHERS.has(lower(c.name)) && c.args.some((a) => a.startsWith('$')));
    if (!fetchesSomething) return;
    const insecure = facts.urls.some((u) => u.startsWith('http://')) || facts.hosts.some((h) => /* IP literal */ h.length > 0 && [...h].every((c) => (c >= '0' && c <= '9') || c === '.' || c === ':'));
    const severity: ScanSeverity = insecure ? 'CRITICAL' : 'HIGH';
    for (const stages of facts.pipelines) {
      const fetchAt = stages.findIndex((n) => FETCHERS.has(lower(n)));
      if (fetchAt >= 0 && stages.slice(fetchAt + 1).some(isInterpreter)) {
        this.report(RULES.fetchExecute, unit.line, { stages, urls: facts.urls, insecure }, severity);
        return;
      }
    }
    // `bash <(curl …)`, `sh -c "$(curl …)"`, `python3 -c "$(wget -O- …)"`.
    for (const command of facts.commands) {
      const runsText = isInterpreter(command.name) || command.name === 'eval';
      const substituted = command.name.startsWith('$(') || command.name.startsWith('`') ? [command.name] : runsText ? command.args : [];
      const fetched = substituted.some((a) => (a.includes('$(') || a.includes('<(') || a.includes('`')) && [...FETCHERS].some((f) => lower(a).includes(f)));
      if (fetched) {
        this.report(RULES.fetchExecute, unit.line, { command: excerpt(command.text), urls: facts.urls, insecure }, severity);
        return;
      }
    }
  }

  /** Downloads and extractions, and later commands that run what they produced (in command order). */
  private sequence(facts: ActionFacts, unit: ShellUnit): void {
    const fetchedInPipeline = facts.pipelines.some((stages) => stages.some((n) => FETCHERS.has(lower(n))));
    for (const command of facts.commands) {
      const name = lower(command.name);
      if (FETCHERS.has(name)) for (const target of downloadTargets(command)) this.downloads.set(target, unit.line);
      const extraction = extractionOf(command);
      if (extraction) {
        const downloaded = this.downloads.has(extraction.archive) || (extraction.archive === '-' && fetchedInPipeline);
        this.extractions.push({ ...extraction, unit: this.unitIndex, line: unit.line, downloaded });
        continue;
      }
      if (name === 'chmod') {
        const target = command.args.map(normalizePath).find((a) => this.downloads.has(a));
        if (target !== undefined && command.args.some((a) => a.includes('x'))) {
          this.report(RULES.downloadedFileRun, unit.line, { path: target, downloaded_on_line: this.downloads.get(target), made_executable: true });
        }
        continue;
      }
      const path = executedPath(command);
      if (path === undefined) continue;
      const downloadedOn = this.downloads.get(path);
      if (downloadedOn !== undefined) {
        this.report(RULES.downloadedFileRun, unit.line, { path, downloaded_on_line: downloadedOn });
        continue;
      }
      const source = this.extractionRunning(path);
      if (source) {
        this.report(RULES.extractedRun, unit.line, {
          path, archive: source.archive, extracted_on_line: source.line, downloaded: source.downloaded,
        }, source.downloaded ? 'HIGH' : 'MEDIUM');
      }
    }
  }

  private extractionRunning(path: string): Extraction | undefined {
    for (let i = this.extractions.length - 1; i >= 0; i--) {
      const extraction = this.extractions[i]!;
      if (this.unitIndex - extraction.unit > EXTRACTION_WINDOW) break;
      const inside = extraction.dir !== undefined ? path.startsWith(`${extraction.dir.endsWith('/') ? extraction.dir : `${extraction.dir}/`}`) : isRelativePath(path);
      if (inside) return extraction;
    }
    return undefined;
  }
}

export const pipelineAnalyzer: Analyzer = {
  name: 'pipeline',
  description: 'Shell command chains in scripts and Markdown: secrets into network sinks, fetch-then-execute, extract-then-execute',
  requires: 'always on',
  analyze(ctx: AnalyzerContext): AnalyzerFinding[] {
    ctx.signal?.throwIfAborted();
    const out = new FindingSet();
    for (const file of textFilesOf(ctx.skill)) {
      const units = shellUnitsOf(file);
      if (units.length === 0) continue;
      const analysis = new FileAnalysis(file, out);
      for (const unit of units) analysis.analyse(unit);
    }
    return out.findings;
  },
};
