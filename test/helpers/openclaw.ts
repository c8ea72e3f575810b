// The real OpenClaw gateway (npm package `openclaw`, pinned in test/fixtures/openclaw and installed there by
// scripts/bootstrap.sh) started offline for a test: no channels configured, HOME and state in a temp folder,
// token auth on a free loopback port. One per test file: it takes seconds to start.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const OPENCLAW_ENTRY = fileURLToPath(new URL('../fixtures/openclaw/node_modules/openclaw/openclaw.mjs', import.meta.url));
export const openclawInstalled = existsSync(OPENCLAW_ENTRY);

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const accepts = (port: number) => new Promise<boolean>((resolve) => {
  const socket = connect(port, '127.0.0.1');
  socket.once('connect', () => { socket.destroy(); resolve(true); });
  socket.once('error', () => resolve(false));
});

export interface OpenClawGateway {
  proc: ChildProcess;
  port: number;
  /** Its state folder, `<home>/.openclaw`, where it keeps `openclaw.json` (OpenClaw's default place under HOME). */
  stateDir: string;
  stop(): Promise<void>;
}

/** Starts the gateway and resolves once it accepts connections on `port`. */
export async function startOpenClaw(home: string, port: number, token: string, timeoutMs = 90_000): Promise<OpenClawGateway> {
  const stateDir = join(home, '.openclaw');
  // Its log file defaults to the shared /tmp/openclaw/: keep this run's in the temp folder instead.
  const configFile = join(stateDir, 'openclaw.json');
  if (!existsSync(configFile)) {
    mkdirSync(stateDir, { recursive: true });
    writeFileSync(configFile, JSON.stringify({ logging: { file: join(home, 'openclaw.log') } }));
  }
  const proc = spawn(process.execPath, [OPENCLAW_ENTRY, 'gateway', 'run', '--allow-unconfigured', '--auth', 'token', '--token', token,
    '--port', String(port), '--bind', 'loopback'], {
    env: { PATH: process.env.PATH, HOME: home, OPENCLAW_STATE_DIR: stateDir, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => { output = (output + chunk.toString()).slice(-8_000); };
  proc.stdout?.on('data', keep);
  proc.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) {
      proc.kill('SIGKILL');
      await exited;
    }
  };
  const deadline = Date.now() + timeoutMs;
  while (!(await accepts(port))) {
    if (proc.exitCode !== null) throw new Error(`openclaw gateway exited with ${proc.exitCode}:\n${output}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`openclaw gateway did not listen on ${port} within ${timeoutMs} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { proc, port, stateDir, stop };
}
