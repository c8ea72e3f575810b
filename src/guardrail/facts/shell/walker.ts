// Walks a parsed script and records facts: every command that runs (wrappers unwrapped, nested shell
// strings and decoded payloads parsed), pipelines, and the files and hosts the commands touch. For the
// destructive-command rules it also records path operations with their project scope (path-ops.ts,
// scope.ts), code fetched and run (remote-code.ts), interpreter one-liners (interpreters.ts) and git's
// resolved subcommands (git.ts), following what earlier commands of the script change: variables, aliases,
// the current directory, loop values (script-state.ts).
import type { FactsCollector } from '../collector.js';
import { COMMAND_PROFILES } from './command-profiles.js';
import {
  commandName, DATA_CLIENT, DOWNLOADER, innermostArgv, INTERPRETER, mayDownload, PATH_OP, parallelRuns, REMOTE,
  remoteCommand, ROLES, shellQuote, STATE, xargsTargets, type InputTargets,
} from './command-roles.js';
import { gitAliasDefinition, gitConfigCommand, resolveGit } from './git.js';
import type { InterpreterEntry } from './catalog.js';
import { analyseCode, codeOption, interpreterCode, interpreterEntry, interpreterLanguage } from './interpreters.js';
import { recordPathOps } from './path-ops.js';
import { baseName, DOWNLOADERS, downloadedFiles, downloadHosts, runsFileOperand, runsStdin, substitutionDownloads } from './remote-code.js';
import { INPUT_TARGETS } from './scope.js';
import { ScriptState } from './script-state.js';
import { recordArgumentUrls } from './network-effects.js';
import { parseShell } from './parser.js';
import { shellInput, spawnedCommands, type Spawn } from './spawned.js';
import { staticOutput } from './stdin.js';
import { ShellSyntaxError, type Command, type Pipeline, type Redirect, type Script, type SimpleCommand, type Word } from './syntax.js';
import { unwrap } from './wrappers.js';

/** Shell text inside shell text (`bash -c`, eval, decoded base64, a heredoc fed to a shell) nests at most
 *  this deep; deeper input is reported as unparsed so that the engine falls back to patterns. */
const MAX_SHELL_DEPTH = 8;
/** Longest chain of wrappers and `find -exec` commands followed (`sudo env nice timeout 5 rm`). */
const MAX_COMMAND_CHAIN = 32;
const FD_NUMBER = /^[0-9]+$/;

/** Options after which a shell or interpreter takes its program as the next word (`sh -c`, `python -c`). */
/** A shell's `-c` (also bundled, `-lc`); interpreters' program options come from the command catalogue. */
const SHELL_CODE_OPTION = /^-[A-Za-z]*c$/;
/** Distinct download hosts followed through one pipeline. */
const MAX_PIPELINE_HOSTS = 16;
/** Leading words of a command looked at for a shell, eval or interpreter (`sudo env bash <(curl …)`). */
const MAX_RUNNER_SCAN = 16;
/** Commands walked again in quiet mode (loop values, ssh) per call, and alias expansions per call. */
const MAX_QUIET_COMMANDS = 256;
const MAX_ALIAS_EXPANSIONS = 64;
/** Loop lists up to this long are followed value by value, in at most MAX_LOOP_EXPANSIONS loops per call. */
const MAX_LOOP_VALUES = 8;
const MAX_LOOP_EXPANSIONS = 4;

/** Command substitution drops trailing newlines from the output. */
function substitutionValue(output: string | undefined): string | undefined {
  if (output === undefined) return undefined;
  let end = output.length;
  while (end > 0 && output.charAt(end - 1) === '\n') end--;
  return output.slice(0, end);
}

export class ShellWalker {
  /** Name lists of the pipelines being walked: each command's name goes to all of them, so wrapped
   *  commands and commands in a subshell stage count as part of the pipeline. */
  private sinks: string[][] = [];
  private readonly state: ScriptState;
  /** Targets xargs or parallel hand to the command they run next (read from input, or listed after :::). */
  private pendingTargets: InputTargets | undefined;
  /** The command before the current pipeline stage (`find . -name x | xargs rm`). */
  private producer: Command | undefined;
  /** Loops whose body may still be walked once per value. */
  private loopBudget = MAX_LOOP_EXPANSIONS;
  private quietBudget = MAX_QUIET_COMMANDS;
  private aliasBudget = MAX_ALIAS_EXPANSIONS;

  constructor(private readonly facts: FactsCollector) {
    this.state = new ScriptState(facts.cwd, facts.workdir);
  }

  /** Parses and walks shell text; throws ShellSyntaxError if it, or shell text nested in it, is unreadable. */
  script(text: string, depth: number): void {
    if (depth > MAX_SHELL_DEPTH) throw new ShellSyntaxError('shell text nested too deep');
    const script = parseShell(text);
    this.isolated(() => this.walkScript(script, depth));
  }

  /** A command given as an argv rather than as text (Codex sends `["bash", "-lc", "…"]`). */
  argv(argv: string[]): void {
    if (argv.length > 0) this.runArgv(argv, undefined, 0, 0, false);
  }

  /** Commands of a substitution or of a nested script are not stages of the enclosing pipeline. */
  private isolated<T>(walk: () => T): T {
    const outer = this.sinks;
    this.sinks = [];
    try {
      return walk();
    } finally {
      this.sinks = outer;
    }
  }

  /** With `wantOutput`, returns the script's output when it is known: one pipeline whose last stage is
   *  predictable. Outputs are only computed where something consumes them. */
  private walkScript(script: Script, depth: number, wantOutput = false): string | undefined {
    let output: string | undefined;
    for (const p of script) output = this.pipeline(p, depth, wantOutput && script.length === 1);
    return output;
  }

  private pipeline(p: Pipeline, depth: number, wantOutput: boolean): string | undefined {
    const names = p.commands.length > 1 ? this.facts.startPipeline() : undefined;
    if (names) this.sinks.push(names);
    let output: string | undefined;
    const last = p.commands.length - 1;
    let downloads: Set<string> | undefined;
    for (let i = 0; i <= last; i++) {
      const stage = p.commands[i]!;
      // Download-and-execute through the pipe: a downloader stage, then a stage that runs its input as code.
      const argv = last > 0 && stage.kind === 'simple' && (downloads !== undefined || mayDownload(stage)) ? innermostArgv(stage.words.map((w) => this.state.expand(w.text))) : undefined;
      if (downloads && argv && argv.length > 0 && runsStdin(baseName(argv[0]!), argv.slice(1))) for (const h of downloads) this.facts.addRemoteCode(h);
      this.producer = i > 0 ? p.commands[i - 1] : undefined;
      output = this.command(stage, output, depth, wantOutput || i < last);
      if (argv && argv.length > 0 && DOWNLOADERS.has(baseName(argv[0]!))) downloads = withHosts(downloads, downloadHosts(baseName(argv[0]!), argv.slice(1)));
      else if (last > 0 && stage.kind === 'simple') for (const w of stage.words) if (w.substitutions.length > 0) downloads = withHosts(downloads, substitutionDownloads(w.substitutions));
    }
    this.producer = undefined;
    if (names) this.sinks.pop();
    return output;
  }

  private command(command: Command, stdin: string | undefined, depth: number, wantOutput: boolean): string | undefined {
    if (command.kind === 'simple') return this.simple(command, stdin, depth, wantOutput);
    for (const w of command.words) this.substitutions(w, depth);
    this.redirects(command.redirects, undefined, depth);
    for (const body of command.bodies) this.walkScript(body, depth);
    const name = command.loopVariable;
    if (name === undefined || command.words.length > MAX_LOOP_VALUES || this.loopBudget <= 0 || this.facts.quiet > 0) return undefined;
    // `for d in / ~; do rm -rf "$d"; done`: the body again once per listed value, for what it does to paths
    // (the commands as written are listed already).
    this.loopBudget--;
    this.facts.quiet++;
    try {
      for (const w of command.words) {
        if (w.substitutions.length > 0) continue;
        this.state.variables.set(name, this.state.expand(w.text));
        for (const body of command.bodies) this.walkScript(body, depth);
      }
    } finally {
      this.facts.quiet--;
      this.state.variables.delete(name);
    }
    return undefined;
  }

  private simple(command: SimpleCommand, pipedStdin: string | undefined, depth: number, wantOutput: boolean): string | undefined {
    const { words } = command;
    for (const w of command.assignments) {
      const value = this.substitutions(w, depth);
      if (words.length === 0) this.state.assign(w.text, value, w.substitutions.length > 0 && value === undefined);
    }
    // The arguments are collected apart from argv0: they become the command's fact as they are.
    const args: string[] = [];
    let generated: string | undefined;
    let argv0 = words.length > 0 ? words[0]!.text : '';
    for (let i = 0; i < words.length; i++) {
      const w = words[i]!;
      const value = w.substitutions.length > 0 ? this.substitutions(w, depth) : undefined;
      if (w.substitutions.length > 0) this.downloadedCode(words, i);
      if (i === 0) {
        generated = value;
        if (this.state.variables.size > 0) {
          const expanded = this.state.expandWord(w.text);
          argv0 = expanded[0] ?? '';
          args.push(...expanded.slice(1));
        }
      } else if (this.state.variables.size > 0) args.push(...this.state.expandWord(w.text));
      else args.push(w.text);
    }
    const stdin = this.redirects(command.redirects, pipedStdin, depth);
    if (words.length === 0) return undefined;
    if (command.redirects.length > 0 && DOWNLOADERS.has(commandName(argv0))) this.downloadRedirected(commandName(argv0), args, command.redirects);
    // `$(echo … | base64 -d)` as the command: what it prints is what runs.
    if (generated !== undefined) this.script(generated, depth + 1);
    const alias = this.state.aliases.size > 0 ? this.state.aliases.get(argv0) : undefined;
    if (alias !== undefined && words[0]!.plain === words[0]!.text.length && this.aliasBudget-- > 0) {
      this.state.aliases.delete(argv0); // an alias is not expanded inside its own expansion
      try {
        this.script([alias, ...args.map(shellQuote)].join(' '), depth + 1);
      } finally {
        this.state.aliases.set(argv0, alias);
      }
      return undefined;
    }
    return this.run(argv0, args, stdin, depth, 0, wantOutput);
  }

  /** `curl URL > install.sh`: the file holds downloaded content. */
  private downloadRedirected(name: string, args: string[], redirects: readonly Redirect[]): void {
    for (const r of redirects) {
      if ((r.op === '>' || r.op === '>>' || r.op === '>|') && (r.fd === '' || r.fd === '1')) this.state.downloaded.set(baseName(r.target.text), downloadHosts(name, args));
    }
  }

  /** A word built from `$(curl …)` or `<(curl …)` that a shell, eval or an interpreter runs as code. */
  private downloadedCode(words: readonly Word[], index: number): void {
    const word = words[index]!;
    const previous = index > 0 ? words[index - 1]!.text : '';
    let runner = false;
    let evaluator = false;
    let interpreter: InterpreterEntry | undefined;
    for (let i = 0; i < index && i < MAX_RUNNER_SCAN; i++) {
      const w = words[i]!.text;
      runner ||= runsFileOperand(baseName(w)) || w === 'eval' || w === 'iex';
      evaluator ||= w === 'eval' || w === 'source' || w === '.';
      interpreter ??= interpreterEntry(baseName(w));
    }
    const programOption = interpreter ? codeOption(interpreter, previous) === 'next' : SHELL_CODE_OPTION.test(previous);
    const asCode = index === 0 || (runner && (word.text.startsWith('<(') || programOption || evaluator));
    if (!asCode) return;
    for (const h of substitutionDownloads(word.substitutions)) this.facts.addRemoteCode(h);
  }

  /** Walks the word's substitutions; returns the word's value when it is one substitution of known output. */
  private substitutions(word: Word, depth: number): string | undefined {
    let output: string | undefined;
    for (const s of word.substitutions) output = this.isolated(() => this.walkScript(s, depth, word.wholeSubstitution));
    return word.wholeSubstitution ? substitutionValue(output) : undefined;
  }

  /** Records redirection targets; returns the standard input the command ends up with. */
  private redirects(redirects: readonly Redirect[], stdin: string | undefined, depth: number): string | undefined {
    for (const r of redirects) {
      const value = this.substitutions(r.target, depth);
      const target = r.target.text;
      const toStdin = r.fd === '' || r.fd === '0';
      switch (r.op) {
        case '<':
        case '<&':
          if (r.op === '<' || !FD_NUMBER.test(target)) this.facts.addRead(target);
          if (toStdin) stdin = undefined;
          break;
        case '<>':
          this.facts.addRead(target);
          this.facts.addWrite(target);
          if (toStdin) stdin = undefined;
          break;
        case '>&':
          if (!FD_NUMBER.test(target)) this.facts.addWrite(target);
          break;
        case '<<<':
          if (toStdin) stdin = r.target.wholeSubstitution ? value : `${target}\n`;
          break;
        case '<<':
        case '<<-':
          for (const s of r.heredoc?.substitutions ?? []) this.isolated(() => this.walkScript(s, depth));
          if (toStdin) stdin = r.heredoc?.body;
          break;
        default:
          this.facts.addWrite(target);
      }
    }
    return stdin;
  }

  private nested(text: string, depth: number): void {
    this.script(text, depth + 1);
  }

  /** run() for a whole argv: from Codex, a wrapper or find -exec. */
  private runArgv(argv: string[], stdin: string | undefined, depth: number, chain: number, wantOutput: boolean): string | undefined {
    return this.run(argv[0]!, argv.slice(1), stdin, depth, chain, wantOutput);
  }

  /** Records the command and everything it runs; returns its output when known. */
  private run(argv0: string, args: string[], stdin: string | undefined, depth: number, chain: number, wantOutput: boolean): string | undefined {
    if (chain > MAX_COMMAND_CHAIN) throw new ShellSyntaxError('command chain too long');
    // A re-walk for path operations only (loop values, ssh) has a small budget of its own.
    if (this.facts.quiet > 0 && --this.quietBudget < 0) return undefined;
    const name = commandName(argv0);
    this.facts.addCommand(name, argv0, args);
    for (const names of this.sinks) names.push(name);
    const targets = this.pendingTargets;
    this.pendingTargets = undefined;
    if (this.state.downloaded.size > 0) this.runsDownload(name, argv0, args);
    // One lookup for the commands the destructive-command facts care about; most commands are none of them.
    const roles = ROLES.get(name) ?? (interpreterLanguage(name) ? INTERPRETER : 0);
    if (roles !== 0) this.roles(roles, name, argv0, args, stdin, depth, chain, targets);
    const profile = COMMAND_PROFILES.get(name);
    if (!profile?.textArguments) recordArgumentUrls(args, this.facts);
    if (!profile) return undefined;
    profile.files?.(args, this.facts, stdin);
    profile.hosts?.(args, this.facts);
    if (profile.spawns) this.spawned(name, args, stdin, depth, chain);
    const wrapped = profile.wraps ? unwrap(name, args) : undefined;
    if (name === 'xargs' && wrapped?.argv) this.pendingTargets = xargsTargets(stdin, this.producer);
    if (wrapped?.script !== undefined) this.nested(wrapped.script, depth);
    if (wrapped?.argv) return this.runArgv(wrapped.argv, wrapped.passesStdin ? stdin : undefined, depth, chain + 1, wantOutput);
    return wantOutput && profile.staticOutput ? staticOutput(name, args, stdin) : undefined;
  }

  /** `docker exec CTR CMD…`, `kubectl exec POD -- CMD…`; `ssh HOST CMD…` only for what it does to paths and
   *  the code it fetches (its commands run on another machine and are not listed as this call's commands). */
  private remote(name: string, args: string[], depth: number, chain: number): void {
    const remote = remoteCommand(name, args);
    if (!remote) return;
    if ('argv' in remote) {
      this.runArgv(remote.argv, undefined, depth, chain + 1, false);
      return;
    }
    this.facts.quiet++;
    try {
      this.tolerant(remote.script, depth);
    } finally {
      this.facts.quiet--;
    }
  }

  private roles(roles: number, name: string, argv0: string, args: string[], stdin: string | undefined, depth: number, chain: number, targets: InputTargets | undefined): void {
    if (roles & PATH_OP) recordPathOps(name, args, this.state.scope, (o) => this.facts.addPathOp(o), targets?.paths, targets?.filtered);
    if (roles & STATE) this.stateful(name, args, depth, chain);
    if (roles & REMOTE) this.remote(name, args, depth, chain);
    if (roles & DATA_CLIENT && stdin !== undefined) this.facts.addInput(name, stdin);
    if (roles & DOWNLOADER) {
      const files = downloadedFiles(name, args);
      if (files.length > 0) {
        const hosts = downloadHosts(name, args);
        for (const f of files) this.state.downloaded.set(f, hosts);
      }
    }
    if (roles & INTERPRETER) this.interpreter(name, args, stdin, depth, chain);
  }

  /** Commands that change the meaning of later ones, and git's own indirections. */
  private stateful(name: string, args: string[], depth: number, chain: number): void {
    switch (name) {
      case 'alias':
        return this.state.defineAliases(args);
      case 'export':
      case 'declare':
      case 'typeset':
      case 'local':
      case 'readonly':
        for (const a of args) if (!a.startsWith('-')) this.state.assign(a);
        return;
      case 'unset':
        return this.state.unset(args);
      case 'cd':
      case 'pushd':
        return this.state.changeDirectory(args);
      case 'git':
        return this.git(args, depth);
      case 'parallel':
        return this.parallel(args, depth, chain);
    }
  }

  /** The subcommand git really runs is recorded as its own `git …` fact; command-valued settings are walked. */
  private git(args: string[], depth: number): void {
    const call = resolveGit(args, this.state.gitAliases);
    // Listed, not run again: what git resolves to is a git subcommand (shell aliases come back as scripts).
    if (!call.plain && call.argv.length > 0) this.facts.addCommand('git', 'git', call.argv);
    for (const script of call.scripts) this.tolerant(script, depth);
    const alias = gitAliasDefinition(call.argv);
    if (alias) this.state.gitAliases.set(alias[0], alias[1]);
    const configured = gitConfigCommand(call.argv);
    if (configured !== undefined) this.tolerant(configured, depth);
  }

  /** GNU parallel (command-roles.ts): each run walked; targets read from input go to the command. */
  private parallel(args: string[], depth: number, chain: number): void {
    for (const run of parallelRuns(args)) {
      if ('script' in run) {
        this.tolerant(run.script, depth);
        continue;
      }
      if (run.fromInput) this.pendingTargets = { paths: [INPUT_TARGETS], filtered: false };
      this.runArgv(run.argv, undefined, depth, chain + 1, false);
    }
  }

  /** Interpreter one-liners: their spawned shell commands are walked, their deletes and fetch-and-eval recorded. */
  private interpreter(name: string, args: string[], stdin: string | undefined, depth: number, chain: number): void {
    const code = interpreterCode(name, args, stdin);
    if (!code) return;
    this.facts.addInput(name, code.code);
    const effects = analyseCode(code);
    for (const script of effects.scripts) this.tolerant(script, depth);
    for (const argv of effects.argvs) if (argv.length > 0) this.runArgv(argv, undefined, depth, chain + 1, false);
    for (const d of effects.deletes) recordPathOps('rm', d.recursive ? ['-rf', '--', d.path] : ['-f', '--', d.path], this.state.scope, (o) => this.facts.addPathOp(o));
    for (const h of effects.remoteCode) this.facts.addRemoteCode(h);
  }

  /** A file downloaded earlier in the script, run as a program or handed to a shell or interpreter. */
  private runsDownload(name: string, argv0: string, args: string[]): void {
    const { downloaded } = this.state;
    let hosts = argv0.includes('/') ? downloaded.get(baseName(argv0)) : undefined;
    if (!hosts && runsFileOperand(name)) {
      const operand = args.find((a) => !a.startsWith('-'));
      if (operand !== undefined) hosts = downloaded.get(baseName(operand));
    }
    for (const h of hosts ?? []) this.facts.addRemoteCode(h);
  }

  /** Shell text derived from another language (interpreter code, git settings): unreadable text there is
   *  not a shell syntax error of the call itself, so it is skipped rather than failing the whole parse. */
  private tolerant(text: string, depth: number): void {
    try {
      this.nested(text, depth);
    } catch (err) {
      if (!(err instanceof ShellSyntaxError) || /nested too deep|too long/.test(err.message)) throw err;
    }
  }

  /** Shell text a shell, su or eval runs, and commands find -exec, nc -e or socat EXEC: run. */
  private spawned(name: string, args: string[], stdin: string | undefined, depth: number, chain: number): void {
    const input = shellInput(name, args);
    if (input && 'script' in input) this.nested(input.script, depth);
    else if (input && 'file' in input) this.facts.addRead(input.file);
    else if (input && stdin !== undefined) this.nested(stdin, depth);
    for (const spawn of spawnedCommands(name, args)) this.spawn(spawn, depth, chain);
  }

  private spawn(spawn: Spawn, depth: number, chain: number): void {
    if ('argv' in spawn) {
      if (spawn.argv.length > 0) this.runArgv(spawn.argv, undefined, depth, chain + 1, false);
    } else {
      this.nested(spawn.script, depth);
    }
  }
}

/** `hosts` added to a pipeline's download hosts (at most MAX_PIPELINE_HOSTS of them). */
function withHosts(set: Set<string> | undefined, hosts: readonly string[]): Set<string> {
  const into = set ?? new Set<string>();
  for (const h of hosts) if (into.size < MAX_PIPELINE_HOSTS) into.add(h);
  return into;
}
