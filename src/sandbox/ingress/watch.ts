// What the ingress reads of a running sandbox from the host, without trusting anything the sandbox controls:
// - the hook config file in the sandbox's home, hashed (a link anywhere on its path, a non-file or a missing file
//   is a change: nothing is followed or opened that the sandbox could point elsewhere, and a FIFO cannot block);
// - the processes of the sandbox's PID namespace (/proc, matched by the namespace link), to see tool processes the
//   harness starts: a direct child of the agent CLI (a process whose program, or whose script under a JavaScript
//   runtime, lies in the image's node_modules) that is neither the agent itself nor a hook command (its command
//   line names warden-hook).
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readFileSync, readlinkSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { IMAGE_MOUNT } from '../runtime/bwrap-args.js';

/** Hook configs are small; a larger file is hashed as far as this (a change past it still changes the size). */
const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

/** SHA-256 (hex) of `relative` under `home`, or a `!reason` string when it is not a plain file reachable without links. */
export function configHash(home: string, relative: string): string {
  let path = home;
  const parts = relative.split('/');
  for (const part of parts.slice(0, -1)) {
    path = join(path, part);
    try {
      if (!lstatSync(path).isDirectory()) return '!not a folder';
    } catch {
      return '!missing';
    }
  }
  let fd: number;
  try {
    fd = openSync(join(path, parts.at(-1)!), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ELOOP' ? '!a link' : '!missing';
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return '!not a file';
    const buffer = Buffer.alloc(Math.min(stats.size, MAX_CONFIG_BYTES));
    let read = 0;
    while (read < buffer.length) {
      const n = readSync(fd, buffer, read, buffer.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return createHash('sha256').update(buffer.subarray(0, read)).update(String(stats.size)).digest('hex');
  } finally {
    closeSync(fd);
  }
}

interface Proc {
  pid: number;
  ppid: number;
  argv: string[];
  /** Start time in clock ticks since boot: with the pid, one process (pids are reused). */
  start: string;
}

function readProc(pid: number): Proc | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((a) => a !== '');
    return { pid, ppid: Number(fields[1]), argv, start: fields[19] ?? '' };
  } catch {
    return null;
  }
}

/** The processes in the PID namespace of `initPid` (host pids), or [] when it is gone. */
function namespaceProcesses(initPid: number): Proc[] {
  let ns: string;
  try {
    ns = readlinkSync(`/proc/${initPid}/ns/pid`);
  } catch {
    return [];
  }
  const procs: Proc[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readlinkSync(`/proc/${entry}/ns/pid`) !== ns) continue;
    } catch {
      continue;
    }
    const proc = readProc(Number(entry));
    if (proc) procs.push(proc);
  }
  return procs;
}

const AGENT_PREFIX = `${IMAGE_MOUNT}/node_modules/`;
const RUNTIMES = new Set(['node', 'nodejs', 'bun']);

/**
 * The agent CLI: its program lies in the image's node_modules, or it is a JavaScript runtime whose script does
 * (`node [options] /opt/warden/image/node_modules/.bin/gemini`, as CLIs relaunch themselves with runtime options).
 */
function isAgent(p: Proc): boolean {
  const [program, ...args] = p.argv;
  if (program === undefined) return false;
  if (program.startsWith(AGENT_PREFIX)) return true;
  if (!RUNTIMES.has(program.slice(program.lastIndexOf('/') + 1))) return false;
  return args.find((arg) => !arg.startsWith('-'))?.startsWith(AGENT_PREFIX) === true;
}
const isHook = (p: Proc) => p.argv.some((arg) => arg.includes('warden-hook'));

/** Keys (`pid:start`) of the tool processes running now: direct children of an agent process that are no hook command. */
export function toolProcesses(initPid: number): Set<string> {
  const procs = namespaceProcesses(initPid);
  const agents = new Set(procs.filter(isAgent).map((p) => p.pid));
  return new Set(procs.filter((p) => agents.has(p.ppid) && !isAgent(p) && !isHook(p)).map((p) => `${p.pid}:${p.start}`));
}
