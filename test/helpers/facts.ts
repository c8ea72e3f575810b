// Shared by the facts tests and the shell case runner: a compact view of ActionFacts, and the facts of a Bash call.
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
