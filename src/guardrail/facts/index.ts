// Facts about what a tool call does, for the rule expressions of the guardrail engine (see types.ts and
// policies/rules.md). Never throws: anything that cannot be read is reported as `parsed: false`.
import { FactsCollector } from './collector.js';
import { ShellWalker } from './shell/walker.js';
import { recordToolArgs, shellCommand, toolKind, type ShellCommand } from './tool-args.js';
import type { ActionFacts } from './types.js';

export type { ActionFacts, CommandFact } from './types.js';

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

function extract(tool: string, args: unknown): ActionFacts {
  const kind = toolKind(tool);
  let facts = new FactsCollector();
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
    }
  }
  recordToolArgs(kind, args, facts);
  return facts.toFacts(tool);
}

export function extractFacts(tool: string, args: unknown): ActionFacts {
  const name = typeof tool === 'string' ? tool.toLowerCase() : '';
  try {
    return extract(name, args);
  } catch {
    // Defensive: fact extraction must never break inspection (e.g. arguments with hostile getters).
    const facts = new FactsCollector();
    facts.parsed = false;
    return facts.toFacts(name);
  }
}
