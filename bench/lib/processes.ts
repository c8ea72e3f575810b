// Start a server process and wait for the line that says where it listens.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';

export interface Started {
  proc: ChildProcess;
  /** CPU time (user + system, all threads) the process has used so far, in microseconds; NaN without /proc. */
  cpuMicros(): number;
  line: RegExpExecArray;
  /** Milliseconds from spawn to the ready line. */
  startMs: number;
  stop(): Promise<void>;
}

export async function startProcess(args: string[], env: NodeJS.ProcessEnv, ready: RegExp): Promise<Started> {
  const began = performance.now();
  const proc = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const line = await new Promise<RegExpExecArray>((resolve, reject) => {
    proc.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = ready.exec(out);
      if (match) resolve(match);
    });
    proc.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code} before it was ready`)));
  });
  const startMs = performance.now() - began;
  return {
    proc,
    cpuMicros: () => processCpuMicros(proc.pid!),
    line,
    startMs,
    async stop() {
      if (proc.exitCode !== null) return;
      proc.kill('SIGTERM');
      await once(proc, 'exit');
    },
  };
}

/** Kernel clock ticks per second for /proc times (USER_HZ: 100 on every Linux that Node supports). */
const USER_HZ = 100;

/**
 * CPU a process has used, from /proc/<pid>/stat (utime and stime, fields 14 and 15). Divided by requests
 * served, it is the cost of a request independent of how the load generator shares the machine, which the
 * requests/s of a 2-core VM are not.
 */
function processCpuMicros(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces: count fields after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / USER_HZ;
  } catch {
    return Number.NaN;
  }
}
