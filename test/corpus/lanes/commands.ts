// Destructive and dangerous shell commands (issue 12, section 1): git that destroys work, filesystem
// destruction relative to the project root, interpreter one-liners, data destruction through clients, and
// download-and-execute, against everyday developer commands and look-alikes. A case is caught when the
// default pack blocks it as a tool call made in the case's working directory (the hook payload's `cwd`).
import type { Inspector } from '../../../src/guardrail/inspector.js';
import { readCases, scoreCases, type Lane, type LaneCase } from './lane.js';

export interface CommandCase extends LaneCase {
  tool: string;
  args: Record<string, unknown>;
  cwd?: string;
  family: 'git-destroy' | 'fs-destroy' | 'interpreter' | 'data-destroy' | 'download-exec' | 'benign';
  note: string;
}

export const COMMAND_CASES_FILE = 'commands.jsonl';

export function blocked(inspector: Inspector, c: CommandCase): boolean {
  return inspector.tool(c.tool, c.args, { cwd: c.cwd }).verdict.raw_action === 'block';
}

export const lane: Lane = {
  name: 'destructive-commands',
  score(inspector) {
    const cases = readCases<CommandCase>(COMMAND_CASES_FILE);
    return scoreCases('destructive-commands', 'blocked under the default pack (tool call, cwd = project root)', cases, (c) => blocked(inspector, c));
  },
};
