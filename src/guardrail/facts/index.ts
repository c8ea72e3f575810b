// Facts about what a tool call does, for the rule expressions of the guardrail engine (see types.ts and
// policies/rules.md). Never throws: anything that cannot be read is reported as `parsed: false`.
import { FactsCollector } from './collector.js';
import { normalizePath } from './shell/scope.js';
import { ShellWalker } from './shell/walker.js';
import { recordToolArgs, shellCommand, toolKind, type ShellCommand } from './tool-args.js';
import type { ActionFacts } from './types.js';

export type { ActionFacts, CommandFact, PathOp } from './types.js';

const NOT_A_PROJECT = /^(\/|\/(bin|boot|dev|etc|lib|lib64|opt|proc|root|sbin|srv|sys|usr|var|home|Users|System|Library|private|tmp|mnt|media|Volumes)|\/home\/[^/]+|\/Users\/[^/]+)$/;

/** Argument names under which shell tools carry their working directory (Codex `workdir`, …). */
const CWD_KEYS = ['workdir', 'cwd', 'working_directory', 'workingDirectory', 'dir_path'];

/** The working directory of the call: the caller's `cwd` (hook payload), else the tool's own working-directory
 *  argument. Only absolute paths count; '' when unknown. */
function workingDirectory(args: unknown, cwd: string | undefined): string {
  let dir = cwd;
  if (dir === undefined && args && typeof args === 'object' && !Array.isArray(args)) {
    for (const key of CWD_KEYS) {
      const value = (args as Record<string, unknown>)[key];
      if (typeof value === 'string') {
        dir = value;
        break;
      }
    }
  }
  return dir !== undefined && dir.startsWith('/') ? normalizePath(dir) : '';
}

/** The project root is the working directory, unless that is the filesystem root, a home directory or a
 *  top-level system directory: as a "project" it would put every path under it inside the project. */
function projectRoot(dir: string): string {
  return NOT_A_PROJECT.test(dir) ? '' : dir;
}

/** Longer shell input is not parsed (the engine falls back to patterns). */
const MAX_SHELL_INPUT = 256 * 1024;

function analyseShell(command: ShellCommand, facts: FactsCollector): boolean {
  if ('invalid' in command) return false;
  const size = 'text' in command ? command.text.length : command.argv.reduce((n, a) => n + a.length + 1, 0);
  if (size > MAX_SHELL_INPUT) return false;
  const walker = new ShellWalker(facts);
  if ('text' in command) walker.script(command.text, 0);
  else walker.argv(command.argv);
  return true;
}

function extract(tool: string, args: unknown, cwd: string | undefined): ActionFacts {
  const kind = toolKind(tool);
  let facts = new FactsCollector();
  facts.workdir = workingDirectory(args, cwd);
  facts.cwd = projectRoot(facts.workdir);
  // A tool we do not know by name that carries a `command` (or `cmd`, `script`, …) argument is treated as a
  // shell: agents and MCP servers name their shell tools freely (`sys_os_shell`, `mcp__box__exec`, …).
  const command = kind === 'shell' || kind === 'other' ? shellCommand(args) : undefined;
  if (command) {
    let parsed: boolean;
    try {
      parsed = analyseShell(command, facts);
    } catch {
      // ShellSyntaxError, or a stack overflow on pathological nesting: either way the text is unreadable.
      parsed = false;
    }
    if (!parsed) {
      // Partial shell facts would be misleading; keep only what the other arguments say.
      facts = new FactsCollector();
      facts.parsed = false;
      facts.workdir = workingDirectory(args, cwd);
      facts.cwd = projectRoot(facts.workdir);
    }
  }
  recordToolArgs(kind, args, facts);
  return facts.toFacts(tool);
}

/** `cwd` is the directory the agent runs the call in (the hook payload's `cwd`), taken as the project root. */
export function extractFacts(tool: string, args: unknown, cwd?: string): ActionFacts {
  const name = typeof tool === 'string' ? tool.toLowerCase() : '';
  try {
    return extract(name, args, typeof cwd === 'string' ? cwd : undefined);
  } catch {
    // Defensive: fact extraction must never break inspection (e.g. arguments with hostile getters).
    const facts = new FactsCollector();
    facts.parsed = false;
    return facts.toFacts(name);
  }
}
