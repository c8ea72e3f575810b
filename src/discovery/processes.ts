// Agent processes from the process listing (/proc): a process matches an agent when its executable name
// (`comm`), the base name of the program it runs, or — for an interpreter running a script (node, python) —
// the base name of that script is one of the agent's process names. Only the pid and the matched name are
// kept: arguments can hold secrets and are never reported.
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { readRegularFile } from '../scanners/special-files.js';
import { DISCOVERY_LIMITS } from './limits.js';
import type { AgentSignature } from './packs.js';
import type { ProcessSeen } from './types.js';

/** Interpreters whose first argument is the program that names the process. */
const INTERPRETERS = /^(node|nodejs|bun|deno|python[0-9.]*|pypy[0-9.]*|ruby|perl)$/;

/** The names a process goes by: comm, and the program (or the interpreter's script) from its argv. */
function namesOf(procDir: string): string[] {
  const read = (file: string) => {
    try {
      // /proc files report size 0 but read fine; they are regular files on procfs.
      return readRegularFile(join(procDir, file))?.toString('utf8');
    } catch {
      return undefined;
    }
  };
  const names = new Set<string>();
  const comm = read('comm')?.trim();
  if (comm) names.add(comm);
  const argv = (read('cmdline') ?? '').split('\0');
  const program = argv[0] ? basename(argv[0]) : '';
  if (program) names.add(program);
  if (INTERPRETERS.test(program)) {
    const script = argv.slice(1).find((arg) => arg !== '' && !arg.startsWith('-'));
    if (script) names.add(basename(script).replace(/\.(c?js|mjs|py)$/, ''));
  }
  return [...names];
}

/** Running processes of the agents in `agents`, from `procRoot` (the process listing). */
export function agentProcesses(agents: readonly AgentSignature[], procRoot = '/proc'): ProcessSeen[] {
  const byName = new Map<string, string>();
  for (const agent of agents) for (const name of agent.processes) byName.set(name, agent.id);
  if (byName.size === 0) return [];
  let pids: string[];
  try {
    pids = readdirSync(procRoot).filter((entry) => /^[0-9]+$/.test(entry)).slice(0, DISCOVERY_LIMITS.processes);
  } catch {
    return [];
  }
  const seen: ProcessSeen[] = [];
  for (const pid of pids) {
    if (Number(pid) === process.pid) continue;
    const match = namesOf(join(procRoot, pid)).find((name) => byName.has(name));
    if (match) seen.push({ pid: Number(pid), name: match, agent: byName.get(match)! });
  }
  return seen;
}
