// Shared by the facts tests: a compact view of ActionFacts and an assertion over every field of it.
import assert from 'node:assert/strict';
import { extractFacts, type ActionFacts } from '../../src/guardrail/facts/index.js';

export interface Summary {
  parsed: boolean;
  commands: string[];
  pipelines: string[][];
  read: string[];
  write: string[];
  hosts: string[];
  urls: string[];
}

export function summary(f: ActionFacts): Summary {
  return {
    parsed: f.parsed,
    commands: f.commands.map((c) => c.text),
    pipelines: f.pipelines,
    read: f.paths_read,
    write: f.paths_written,
    hosts: f.hosts,
    urls: f.urls,
  };
}

export const NOTHING: Summary = { parsed: true, commands: [], pipelines: [], read: [], write: [], hosts: [], urls: [] };

export function shell(command: string): ActionFacts {
  return extractFacts('Bash', { command });
}

/** Asserts every fact of a Bash call; lists not given must be empty. */
export function expectShell(command: string, expected: Partial<Summary>): void {
  assert.deepEqual(summary(shell(command)), { ...NOTHING, ...expected });
}
