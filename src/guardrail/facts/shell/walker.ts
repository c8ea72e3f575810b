// Walks a parsed script and records facts: every command that runs (wrappers unwrapped, nested shell
// strings and decoded payloads parsed), pipelines, and the files and hosts the commands touch.
import type { FactsCollector } from '../collector.js';
import { COMMAND_PROFILES } from './command-profiles.js';
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

/** Basename of argv0; a substitution used as the command name is kept whole. */
function commandName(argv0: string): string {
  // A loop rather than lastIndexOf, which V8 runs outside optimised code: this is called for every command.
  let slash = argv0.length - 1;
  while (slash >= 0 && argv0.charCodeAt(slash) !== 47 /* / */) slash--;
  if (slash < 0 || argv0.includes('$(') || argv0.includes('`')) return argv0;
  return argv0.slice(slash + 1);
}

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

  constructor(private readonly facts: FactsCollector) {}

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
    for (let i = 0; i <= last; i++) output = this.command(p.commands[i]!, output, depth, wantOutput || i < last);
    if (names) this.sinks.pop();
    return output;
  }

  private command(command: Command, stdin: string | undefined, depth: number, wantOutput: boolean): string | undefined {
    if (command.kind === 'simple') return this.simple(command, stdin, depth, wantOutput);
    for (const w of command.words) this.substitutions(w, depth);
    this.redirects(command.redirects, undefined, depth);
    for (const body of command.bodies) this.walkScript(body, depth);
    return undefined;
  }

  private simple(command: SimpleCommand, pipedStdin: string | undefined, depth: number, wantOutput: boolean): string | undefined {
    for (const w of command.assignments) this.substitutions(w, depth);
    const { words } = command;
    // The arguments are collected apart from argv0: they become the command's fact as they are.
    const args: string[] = [];
    let generated: string | undefined;
    for (let i = 0; i < words.length; i++) {
      const w = words[i]!;
      const value = w.substitutions.length > 0 ? this.substitutions(w, depth) : undefined;
      if (i === 0) generated = value;
      else args.push(w.text);
    }
    const stdin = this.redirects(command.redirects, pipedStdin, depth);
    if (words.length === 0) return undefined;
    // `$(echo … | base64 -d)` as the command: what it prints is what runs.
    if (generated !== undefined) this.script(generated, depth + 1);
    return this.run(words[0]!.text, args, stdin, depth, 0, wantOutput);
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
    const name = commandName(argv0);
    this.facts.addCommand(name, argv0, args);
    for (const names of this.sinks) names.push(name);
    const profile = COMMAND_PROFILES.get(name);
    if (!profile?.textArguments) recordArgumentUrls(args, this.facts);
    if (!profile) return undefined;
    profile.files?.(args, this.facts, stdin);
    profile.hosts?.(args, this.facts);
    if (profile.spawns) this.spawned(name, args, stdin, depth, chain);
    const wrapped = profile.wraps ? unwrap(name, args) : undefined;
    if (wrapped?.script !== undefined) this.nested(wrapped.script, depth);
    if (wrapped?.argv) return this.runArgv(wrapped.argv, wrapped.passesStdin ? stdin : undefined, depth, chain + 1, wantOutput);
    return wantOutput && profile.staticOutput ? staticOutput(name, args, stdin) : undefined;
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
