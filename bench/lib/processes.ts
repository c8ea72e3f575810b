// Start a server process and wait for the line that says where it listens.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

export interface Started {
  proc: ChildProcess;
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
    line,
    startMs,
    async stop() {
      if (proc.exitCode !== null) return;
      proc.kill('SIGTERM');
      await once(proc, 'exit');
    },
  };
}
