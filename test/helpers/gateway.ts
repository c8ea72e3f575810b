// Starting the real gateway for a test: in process (fast, for HTTP behaviour) or as the real CLI
// subprocess (for start-up, signals and restarts).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { after } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startGateway, type GatewayOptions, type RunningGateway } from '../../src/gateway/runtime.js';
import { tempHome, type TempHome } from './home.js';

export const CLI = fileURLToPath(new URL('../../dist/cli/warden.js', import.meta.url));

export interface InProcessGateway {
  gateway: RunningGateway;
  home: TempHome;
  /** The sidecar's base URL. */
  url: string;
  /** The gateway token in force (created on first boot unless the test supplied one). */
  token: string;
  close(): Promise<void>;
}

export async function startInProcess(config?: string, extraEnv: NodeJS.ProcessEnv = {}, options: GatewayOptions = {}): Promise<InProcessGateway> {
  const home = tempHome(config, extraEnv);
  const gateway = await startGateway({ ...home.env, WARDEN_LOG_LEVEL: 'silent' }, options);
  return {
    gateway,
    home,
    url: gateway.sidecarUrl,
    token: gateway.settings.token?.token ?? '',
    async close() {
      await gateway.stop();
      home.remove();
    },
  };
}

export interface GatewayProcess {
  proc: ChildProcessWithoutNullStreams;
  sidecar: string;
  proxy: string;
  stderr(): string;
  /** Resolves with the exit code after SIGTERM. */
  terminate(signal?: NodeJS.Signals): Promise<number | null>;
}

// A failing test must not leave a gateway running (it would keep the test runner alive forever).
const spawned = new Set<ChildProcessWithoutNullStreams>();
after(() => {
  for (const proc of spawned) proc.kill('SIGKILL');
});

export async function spawnGateway(env: NodeJS.ProcessEnv, args: string[] = ['start']): Promise<GatewayProcess> {
  const proc = spawn(process.execPath, [CLI, ...args], { env, stdio: 'pipe' });
  spawned.add(proc);
  proc.once('exit', () => spawned.delete(proc));
  let stdout = '';
  let stderr = '';
  proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const ready = await new Promise<RegExpExecArray>((resolve, reject) => {
    // Generous: a loaded 2-core machine can take several seconds to start Node and compile the rule packs.
    const timer = setTimeout(() => reject(new Error(`no ready line within 30 s; stderr: ${stderr}`)), 30_000);
    proc.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /^ready sidecar=(\S+) proxy=(\S+)$/m.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(match);
      }
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`gateway exited with ${code} before ready; stderr: ${stderr}`));
    });
  });
  return {
    proc,
    sidecar: ready[1]!,
    proxy: ready[2]!,
    stderr: () => stderr,
    async terminate(signal = 'SIGTERM') {
      if (proc.exitCode !== null) return proc.exitCode;
      proc.kill(signal);
      const [code] = (await once(proc, 'exit')) as [number | null];
      return code;
    },
  };
}

/** Run the CLI to completion. */
export async function runCli(args: string[], env: NodeJS.ProcessEnv, input?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const proc = spawn(process.execPath, [CLI, ...args], { env, stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  proc.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  proc.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  if (input !== undefined) proc.stdin.end(input);
  else proc.stdin.end();
  const [code] = (await once(proc, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

export function authHeaders(token: string, extra: Record<string, string> = {}): Record<string, string> {
  return { authorization: `Bearer ${token}`, 'x-warden-client': 'test', 'content-type': 'application/json', ...extra };
}
