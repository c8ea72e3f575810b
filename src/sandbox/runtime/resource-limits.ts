// CPU and memory limits of a sandbox. cgroup v2 when this process's own cgroup already delegates the `cpu`
// and `memory` controllers to its children (systemd `Delegate=yes`, a container runtime's nested cgroup):
// each sandbox gets a child cgroup with cpu.max and memory.max. Otherwise `prlimit`: memory as the address
// space limit (RLIMIT_AS) of the sandbox's processes; a CPU core count has no rlimit, so it is not enforced
// and the manager says so in the sandbox's warnings.
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const CGROUP_ROOT = '/sys/fs/cgroup';
const CPU_PERIOD_US = 100_000;

/** This process's cgroup v2 folder when it delegates cpu and memory to children, else null. */
export function delegatedCgroup(): string | null {
  try {
    if (!existsSync(join(CGROUP_ROOT, 'cgroup.controllers'))) return null;
    const line = readFileSync('/proc/self/cgroup', 'utf8').split('\n').find((entry) => entry.startsWith('0::'));
    if (!line) return null;
    const own = join(CGROUP_ROOT, line.slice(3));
    const delegated = readFileSync(join(own, 'cgroup.subtree_control'), 'utf8').split(/\s+/);
    return delegated.includes('cpu') && delegated.includes('memory') ? own : null;
  } catch {
    return null;
  }
}

/** The command prefix that applies the limits under prlimit (empty when there is nothing to limit). */
export function prlimitPrefix(memoryBytes: number | undefined): string[] {
  return memoryBytes === undefined ? [] : ['prlimit', `--as=${memoryBytes}`, '--'];
}

/** Puts `pid` in a fresh child cgroup `warden-<name>` with the limits; returns its folder. */
export function applyCgroupLimits(parent: string, name: string, pid: number, cpu: number | undefined, memoryBytes: number | undefined): string {
  const dir = join(parent, `warden-${name}`);
  mkdirSync(dir, { recursive: true });
  if (cpu !== undefined) writeFileSync(join(dir, 'cpu.max'), `${Math.max(1000, Math.round(cpu * CPU_PERIOD_US))} ${CPU_PERIOD_US}`);
  if (memoryBytes !== undefined) writeFileSync(join(dir, 'memory.max'), String(memoryBytes));
  writeFileSync(join(dir, 'cgroup.procs'), String(pid));
  return dir;
}

export function removeCgroup(parent: string, name: string): void {
  try {
    rmdirSync(join(parent, `warden-${name}`));
  } catch {
    // Absent or still draining: the kernel frees an empty cgroup's memory with its last process anyway.
  }
}

/** `512m`, `2g` → bytes. */
export function parseMemory(value: string): number {
  const match = /^([1-9][0-9]{0,6})([mg])$/i.exec(value.trim());
  if (!match) throw new Error(`memory must be <n>m or <n>g, got ${JSON.stringify(value)}`);
  return Number(match[1]) * (match[2]!.toLowerCase() === 'g' ? 1024 ** 3 : 1024 ** 2);
}
