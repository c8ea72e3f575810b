// The per-scan state the language evaluators share: files and their line tables, findings, function summaries
// (what a function's parameters reach and what it returns, for calls within and across files), downloaded
// file paths, and the work budget. Flows whose source is a parameter are recorded in the enclosing function's
// summary instead of being reported; a call site replays them with the caller's arguments.
import type { AnalyzerFinding } from '../../types.js';
import { snippetAt, type LineIndex } from '../../snippet.js';
import { UNKNOWN, normalisePath, type PersistenceKind } from './catalog.js';
import { asCode } from './decode.js';
import type { Lang } from './syntax.js';
import { describe, judge, SOURCE_NAMES, type Role, type SinkSite } from './rules.js';
import { appendStep, continued, EMPTY, flowFrom, joinPaths, mergeFlows, type Flow, type Source, type Value } from './values.js';

export interface FileInfo {
  path: string;
  text: string;
  lines: LineIndex;
}

/** A flow from parameter `param` reaching a sink inside a function. */
export interface ParamSink {
  param: number;
  site: SinkSite;
  role: Role;
  flow: Flow;
}

export interface FunctionSummary {
  name: string;
  /** Parameter names in order (without `self`/`cls`). */
  params: readonly string[];
  sinks: ParamSink[];
  /** What it returns; flows from `param` sources are replaced by the arguments at each call. */
  returns: Value;
}

/** Functions a module defines: top-level ones by name, class methods as `Class.method`. Kept across the two
 *  analysis rounds, so a call to a function defined further down (or in a file analysed later) resolves. */
export interface ModuleTable {
  functions: Map<string, FunctionSummary>;
  /** Method name → its `Class.method` keys, for calls on objects whose class is not known. */
  methods: Map<string, Set<string>>;
}

export const newModuleTable = (): ModuleTable => ({ functions: new Map(), methods: new Map() });

/** Records a function (`name`) or method (`Class.name`) of a module. */
export function defineIn(table: ModuleTable, key: string, summary: FunctionSummary): void {
  table.functions.set(key, summary);
  const dot = key.lastIndexOf('.');
  if (dot <= 0) return;
  const name = key.slice(dot + 1);
  let keys = table.methods.get(name);
  if (!keys) table.methods.set(name, (keys = new Set()));
  keys.add(key);
}

/** The one method called `name` across `tables`, if exactly one exists (otherwise the call stays untyped). */
export function uniqueMethod(tables: readonly (ModuleTable | undefined)[], name: string): FunctionSummary | undefined {
  let found: FunctionSummary | undefined;
  for (const table of tables) {
    if (!table) continue;
    for (const key of table.methods.get(name) ?? []) {
      const fn = table.functions.get(key);
      if (found && found !== fn) return undefined;
      found = fn;
    }
  }
  return found;
}

/** Runs a shell command line (from os.system, subprocess, child_process) through the shell evaluator. The
 *  words WARDENARG<i> in `command` stand for `bindings[i]`; everything is reported at `host`. */
export type EmbeddedShell = (command: string, bindings: readonly Value[], host: SinkSite, summary: FunctionSummary | undefined, stdin: Value | undefined) => Value;

/** Runs code text (a `bash -c` string, a decoded blob passed to exec/eval) through the evaluator of `lang`,
 *  everything reported at `host`. */
export type EmbeddedCode = (lang: Lang, code: string, host: SinkSite, summary: FunctionSummary | undefined) => void;

export const LIMITS = {
  /** Syntax nodes evaluated per skill (both rounds, all files); past it evaluation returns empty values. */
  maxSteps: 400_000,
  /** Wall-clock budget for evaluating one skill (parsing excluded). */
  maxMillis: 200,
  maxSummarySinks: 32,
  maxFindings: 200,
  /** Code strings analysed inside code strings (bash -c inside python -c inside a decoded blob…). */
  maxCodeDepth: 3,
  maxCodeChars: 64 * 1024,
} as const;

/** Commands worth running through the shell evaluator when they appear in an exec string or argv. */
const SHELL_INTEREST = /\b(?:curl|wget|nc|ncat|netcat|socat|telnet|ssh|scp|rsync|sftp|ftp|bash|sh|zsh|dash|ksh|python[23]?|node|perl|ruby|php|eval|source|base64|xxd|openssl|crontab|tee|cp|mv|install|sed|env|printenv|cat)\b|\/dev\/(?:tcp|udp)|>|\|/;

export class Analysis {
  readonly findings = new Map<string, AnalyzerFinding>();
  readonly modules = new Map<string, ModuleTable>();
  /** Normalised path → the network source whose content was saved there. */
  private readonly downloads = new Map<string, Source>();
  private steps: number = LIMITS.maxSteps;
  private deadline = Number.POSITIVE_INFINITY;
  embeddedShell: EmbeddedShell | undefined;
  embeddedCode: EmbeddedCode | undefined;
  private codeDepth = 0;
  /** Set when the code redirected its own stdin to a socket (os.dup2): commands it starts read from there. */
  processStdin: Value | undefined;

  constructor(readonly files: ReadonlyMap<string, FileInfo>) {}

  /** Starts the wall-clock budget (after parsing, which has its own limits). */
  startClock(): void {
    this.deadline = performance.now() + LIMITS.maxMillis;
  }

  /** Counts one unit of work; false once the step or time budget is spent (evaluators then stop descending,
   *  so a pathological skill yields the findings found so far). The clock is read every 1024 steps. */
  tick(): boolean {
    if ((--this.steps & 1023) === 0 && this.steps > 0 && performance.now() > this.deadline) this.steps = 0;
    return this.steps > 0;
  }

  line(file: string, index: number): number {
    return this.files.get(file)?.lines.lineOf(index) ?? 1;
  }

  at(file: string, index: number): string {
    return `${file}:${this.line(file, index)}`;
  }

  /** Data arriving at a sink: reported, or recorded in `summary` when it comes from a parameter. */
  sink(site: SinkSite, role: Role, value: Value | undefined, summary: FunctionSummary | undefined): void {
    if (!value) return;
    for (const flow of value.flows) this.flowToSink(site, role, flow, summary);
  }

  private flowToSink(site: SinkSite, role: Role, flow: Flow, summary: FunctionSummary | undefined): void {
    if (flow.source.kind === 'param') {
      if (!summary || flow.source.param === undefined || summary.sinks.length >= LIMITS.maxSummarySinks) return;
      const dup = summary.sinks.some((s) => s.param === flow.source.param && s.site.at === site.at && s.site.api === site.api && s.role === role && s.flow.credential === flow.credential && s.flow.decoded === flow.decoded && s.flow.destination === flow.destination);
      if (!dup) summary.sinks.push({ param: flow.source.param, site, role, flow });
      return;
    }
    const verdict = judge(site, role, flow);
    if (!verdict || this.findings.size >= LIMITS.maxFindings) return;
    // One finding per rule and sink; further sources reaching the same sink are listed on it.
    const key = `${verdict.ruleId}|${site.file}|${site.index}`;
    const existing = this.findings.get(key);
    if (existing) {
      const meta = existing.metadata as { source: string; other_sources?: string[] };
      const others = meta.other_sources ?? [];
      if (meta.source !== flow.source.label && !others.includes(flow.source.label) && others.length < 5) meta.other_sources = [...others, flow.source.label];
      return;
    }
    const text = this.files.get(site.file)?.text ?? '';
    this.findings.set(key, {
      rule_id: verdict.ruleId,
      category: verdict.category,
      severity: verdict.severity,
      title: verdict.title,
      description: describe(site, role, flow),
      file_path: site.file,
      line_number: this.line(site.file, site.index),
      snippet: snippetAt(text, site.index),
      remediation: verdict.remediation,
      metadata: {
        source: flow.source.label,
        source_kind: SOURCE_NAMES[flow.source.kind],
        sink: site.api,
        ...(site.dest ? { destination: site.dest.split(UNKNOWN).join('…') } : {}),
        flow: [flow.source.at, ...flow.path, site.at].filter((at, i, all) => all[i - 1] !== at),
      },
    });
  }

  /** A write to a persistence location (shell rc, crontab, authorized_keys, another skill's folder). */
  persistence(site: SinkSite, path: string, kind: PersistenceKind, content: Value | undefined): void {
    const key = `BH-PERSIST|${site.file}|${site.index}`;
    if (this.findings.has(key) || this.findings.size >= LIMITS.maxFindings) return;
    const shown = path.split(UNKNOWN).join('…');
    const from = content?.flows[0];
    this.findings.set(key, {
      rule_id: 'BH-PERSIST',
      category: 'malware',
      severity: 'HIGH',
      title: `Writes to a persistence location (${kind})`,
      description: `${site.api} at ${site.at} writes ${shown} (${kind}): what is placed there runs again later, outside the skill.${from ? ` The content comes from ${from.source.label} (${SOURCE_NAMES[from.source.kind]}).` : ''}`,
      file_path: site.file,
      line_number: this.line(site.file, site.index),
      snippet: snippetAt(this.files.get(site.file)?.text ?? '', site.index),
      remediation: 'A skill must not modify shell startup files, crontabs, SSH authorized keys, services or other skills; document the change for the user to make instead.',
      metadata: { source: from?.source.label ?? 'literal content', sink: site.api, target: shown, persistence: kind, flow: [...(from ? [from.source.at, ...from.path] : []), site.at] },
    });
  }

  /** Replays a summary at a call: parameter flows reach the callee's sinks with the caller's arguments. */
  applySummary(summary: FunctionSummary, args: readonly (Value | undefined)[], callAt: string, caller: FunctionSummary | undefined): Value {
    for (const ps of summary.sinks) {
      const arg = args[ps.param];
      if (!arg) continue;
      for (const f of arg.flows) {
        this.flowToSink(ps.site, ps.role, continued(f, ps.flow, joinPaths(appendStep(f.path, callAt), ps.flow.path)), caller);
      }
    }
    const flows: Flow[] = [];
    for (const f of summary.returns.flows) {
      if (f.source.kind !== 'param') {
        flows.push({ ...f, path: appendStep(f.path, callAt) });
        continue;
      }
      const arg = f.source.param === undefined ? undefined : args[f.source.param];
      for (const af of arg?.flows ?? []) {
        flows.push(continued(af, f, joinPaths(appendStep(af.path, callAt), f.path)));
      }
    }
    const r = summary.returns;
    return { flows: mergeFlows([{ flows }]), text: r.text, kind: r.kind, writable: r.writable, props: r.props };
  }

  /** Data run as code in `lang` (eval, exec, bash -c, python -c): reported as a code sink, and when its text
   *  is known (a literal, a decoded blob) analysed as code itself. */
  code(lang: Lang, value: Value | undefined, site: SinkSite, summary: FunctionSummary | undefined): void {
    this.sink(site, 'code', value, summary);
    const text = value?.text;
    if (!this.embeddedCode || text === undefined || text.includes(UNKNOWN) || text.length > LIMITS.maxCodeChars || this.codeDepth >= LIMITS.maxCodeDepth) return;
    const source = asCode(text);
    if (!source) return;
    this.codeDepth++;
    try {
      this.embeddedCode(lang, source, site, summary);
    } finally {
      this.codeDepth--;
    }
  }

  /** Notes that network content was saved at `path`, so running that file later is download-and-execute. */
  recordDownload(path: string | undefined, value: Value): void {
    const source = value.flows.find((f) => f.source.kind === 'network')?.source;
    const key = downloadKey(path);
    if (source && key) this.downloads.set(key, source);
  }

  /** The network source saved at `path`, if the skill downloaded something there. */
  downloadAt(path: string | undefined): Value | undefined {
    const key = downloadKey(path);
    const source = key ? this.downloads.get(key) : undefined;
    return source ? { flows: [flowFrom(source)] } : undefined;
  }

  /** A command string run by a shell (os.system, shell=True, child_process.exec): it is code, and what it
   *  runs (curl, pipes into bash, writes to ~/.bashrc) is analysed as shell. Returns the command's output. */
  shellString(command: Value, site: SinkSite, summary: FunctionSummary | undefined, stdin?: Value): Value {
    this.sink(site, 'code', command, summary);
    if (!this.embeddedShell || command.text === undefined || !SHELL_INTEREST.test(command.text)) return EMPTY;
    return this.embeddedShell(command.text.split(UNKNOWN).join(' WARDENARG0 '), [command], site, summary, stdin ?? this.processStdin);
  }

  /** An argv list run without a shell (subprocess.run([...]), spawn(cmd, args)): a user-chosen program is
   *  command injection; otherwise the argv is analysed as the equivalent shell command. */
  argv(elements: readonly Value[], site: SinkSite, summary: FunctionSummary | undefined, stdin?: Value): Value {
    const program = elements[0];
    if (program) this.sink(site, 'code', { flows: program.flows.filter((f) => f.source.kind === 'user_input' || f.source.kind === 'param') }, summary);
    this.sink(site, 'code', this.downloadAt(program?.text), summary);
    const words = elements.map((e, i) => (e.flows.length > 0 || e.text === undefined || e.text.includes(UNKNOWN) ? `"WARDENARG${i}"` : shellQuote(e.text)));
    const command = words.join(' ');
    if (!this.embeddedShell || !SHELL_INTEREST.test(command)) return EMPTY;
    return this.embeddedShell(command, elements, site, summary, stdin ?? this.processStdin);
  }
}

function downloadKey(path: string | undefined): string | undefined {
  if (!path || path.includes(UNKNOWN)) return undefined;
  return normalisePath(path).replace(/^\.\//, '');
}

const shellQuote = (text: string): string => (/^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`);

