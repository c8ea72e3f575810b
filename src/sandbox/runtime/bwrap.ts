// The `bwrap` compute driver: each running sandbox is one bubblewrap process tree on the host. The gateway is
// its parent (`--die-with-parent`), so a sandbox never outlives the gateway process; stop and remove kill the
// monitor and then the sandbox's PID namespace init, which takes every process inside with it. State lives in
// `<root>/<name>/runtime/`: the private home, the run log of the current run, the kept log of the last one.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SandboxApiError } from '../errors.js';
import { bwrapArgs, INIT_MARKER } from './bwrap-args.js';
import type { ComputeDriver, ExecResult, KeptLog, LimitMechanism, RunInfo, SandboxSpec } from './driver.js';
import { applyCgroupLimits, delegatedCgroup, prlimitPrefix, removeCgroup } from './resource-limits.js';
import { dropRunLogs, keepRunLog, readKeptLog, RUN_LOG } from './run-log.js';

interface Run {
  monitor: ChildProcess;
  /** Host pid of the sandbox's PID-namespace init. */
  childPid: number;
  startedAt: string;
  stopping: boolean;
  /** Stopped with keepLog false (a tamper stop): the run's log is dropped, not kept. */
  dropLog: boolean;
  exited: Promise<number | null>;
}

const INFO_TIMEOUT_MS = 10_000;
/** `{started_at}` of the run going, removed when its log is kept: one left behind marks a run a crash ended. */
const RUN_META = 'run.json';

export class BwrapDriver implements ComputeDriver {
  readonly name = 'bwrap';
  readonly limits: LimitMechanism;
  readonly #root: string;
  readonly #bwrap: string;
  readonly #cgroup: string | null;
  readonly #nsenter: string;
  readonly #runs = new Map<string, Run>();

  /** @param root `$WARDEN_HOME/sandboxes`: one folder per sandbox, shared with the workspace keeper. */
  constructor(root: string, options: { bwrap?: string } = {}) {
    this.#root = root;
    this.#bwrap = options.bwrap ?? findExecutable('bwrap');
    this.#nsenter = findExecutable('nsenter');
    this.#cgroup = delegatedCgroup();
    this.limits = this.#cgroup === null ? 'prlimit' : 'cgroup';
  }

  #dir(name: string): string {
    return join(this.#root, name, 'runtime');
  }

  async probe(): Promise<void> {
    const result = await runCommand(this.#bwrap, ['--unshare-all', '--die-with-parent', '--ro-bind', '/', '/', 'true'], {});
    if (result.code !== 0) {
      throw new Error(`bubblewrap cannot isolate a process here (exit ${String(result.code)}): ${result.stderr.toString().trim() || 'no message'}`);
    }
  }

  async create(spec: SandboxSpec): Promise<void> {
    mkdirSync(join(this.#dir(spec.name), 'home'), { recursive: true, mode: 0o700 });
  }

  async start(spec: SandboxSpec): Promise<RunInfo> {
    if (this.#runs.has(spec.name)) throw new SandboxApiError('conflict', `sandbox ${spec.name} is already running`);
    const dir = this.#dir(spec.name);
    await this.create(spec);
    const logFd = openSync(join(dir, RUN_LOG), 'w', 0o600);
    const command = [...(this.#cgroup === null ? prlimitPrefix(spec.memoryBytes) : []), this.#bwrap, ...bwrapArgs(spec, join(dir, 'home'))];
    let monitor: ChildProcess;
    try {
      // The environment (secrets included) goes to bwrap's own environment, never its argv, which any local user can read.
      monitor = spawn(command[0]!, command.slice(1), { env: spec.env, stdio: ['ignore', logFd, logFd, 'pipe'], detached: true });
    } finally {
      closeSync(logFd);
    }
    const exited = new Promise<number | null>((resolve) => {
      monitor.once('exit', (code, signal) => resolve(signal ? null : code));
      // bwrap gone since the probe: the start fails below instead of an unhandled 'error' taking the gateway down.
      monitor.once('error', () => resolve(null));
    });
    let childPid: number;
    try {
      childPid = await readChildPid(monitor, exited);
      await setUpDone(childPid, exited);
      if (spec.init && spec.init.length > 0) await initStepsDone(childPid, exited);
    } catch (err) {
      monitor.kill('SIGKILL');
      await exited;
      const log = readFileSync(join(dir, RUN_LOG), 'utf8').trim().split('\n').slice(-3).join(' / ');
      throw new SandboxApiError('policy_rejected', `the sandbox runtime refused to start ${spec.name}: ${(err as Error).message}`, { detail: log || undefined });
    }
    if (this.#cgroup !== null && (spec.cpu !== undefined || spec.memoryBytes !== undefined)) {
      for (const pid of [monitor.pid!, childPid]) applyCgroupLimits(this.#cgroup, spec.name, pid, spec.cpu, spec.memoryBytes);
    }
    const run: Run = { monitor, childPid, startedAt: new Date().toISOString(), stopping: false, dropLog: false, exited };
    this.#runs.set(spec.name, run);
    writeFileSync(join(dir, RUN_META), JSON.stringify({ started_at: run.startedAt }), { mode: 0o600 });
    void exited.then((code) => this.#ended(spec.name, run, code));
    return this.inspect(spec.name);
  }

  /** A run ended on its own (exited) or was stopped (interrupted): keep its log, forget it. */
  #ended(name: string, run: Run, code: number | null): void {
    if (this.#runs.get(name) === run) this.#runs.delete(name);
    if (!existsSync(this.#dir(name))) return;
    if (run.dropLog) dropRunLogs(this.#dir(name));
    else keepRunLog(this.#dir(name), { state: run.stopping ? 'interrupted' : 'exited', exit: run.stopping ? null : code, started_at: run.startedAt });
    rmSync(join(this.#dir(name), RUN_META), { force: true });
    if (this.#cgroup !== null) removeCgroup(this.#cgroup, name);
  }

  async stop(name: string, options: { keepLog?: boolean } = {}): Promise<{ interrupted: boolean }> {
    const run = this.#runs.get(name);
    if (!run) return { interrupted: false };
    run.stopping = true;
    run.dropLog = options.keepLog === false;
    // The monitor's death kills the sandbox init (PR_SET_PDEATHSIG), and with it the whole PID namespace.
    run.monitor.kill('SIGKILL');
    await run.exited;
    await killInit(run.childPid);
    // #ended has kept the log by the time `exited` resolved for the listener registered first.
    return { interrupted: true };
  }

  async exec(name: string, argv: string[], options: { input?: string; timeoutMs?: number } = {}): Promise<ExecResult> {
    const command = this.attachCommand(name, argv);
    const run = this.#runs.get(name);
    if (!command || !run) throw new SandboxApiError('conflict', `sandbox ${name} is not running`);
    return runCommand(command[0]!, command.slice(1), { env: processEnv(run.childPid), ...options });
  }

  execDetached(name: string, argv: string[]): void {
    const command = this.attachCommand(name, argv);
    const run = this.#runs.get(name);
    if (!command || !run) throw new SandboxApiError('conflict', `sandbox ${name} is not running`);
    const logFd = openSync(join(this.#dir(name), RUN_LOG), 'a', 0o600);
    try {
      spawn(command[0]!, command.slice(1), { env: processEnv(run.childPid), stdio: ['ignore', logFd, logFd], detached: true }).unref();
    } finally {
      closeSync(logFd);
    }
  }

  attachCommand(name: string, argv: string[] = ['/bin/sh', '-i']): string[] | null {
    const run = this.#runs.get(name);
    if (!run) return null;
    // Same namespaces, root and working directory as the sandbox's init, then every capability and the bounding set dropped before the command.
    return [
      this.#nsenter, '--target', String(run.childPid), '--all', '--root', '--wd',
      'setpriv', '--bounding-set=-all', '--inh-caps=-all', '--no-new-privs', '--', ...argv,
    ];
  }

  inspect(name: string): RunInfo {
    const run = this.#runs.get(name);
    if (!run) return { running: false };
    return { running: true, pid: run.monitor.pid!, init_pid: run.childPid, started_at: run.startedAt };
  }

  async remove(name: string): Promise<void> {
    await this.stop(name);
    rmSync(this.#dir(name), { recursive: true, force: true });
  }

  recoverEndedRuns(): void {
    for (const name of this.list()) {
      const meta = join(this.#dir(name), RUN_META);
      if (this.#runs.has(name) || !existsSync(meta)) continue;
      let startedAt = '';
      try {
        startedAt = String((JSON.parse(readFileSync(meta, 'utf8')) as { started_at?: unknown }).started_at ?? '');
      } catch {
        // A torn file: the run's start time is unknown.
      }
      keepRunLog(this.#dir(name), { state: 'interrupted', exit: null, started_at: startedAt });
      rmSync(meta, { force: true });
    }
  }

  list(): string[] {
    try {
      return readdirSync(this.#root, { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && existsSync(join(this.#root, entry.name, 'runtime')))
        .map((entry) => entry.name);
    } catch {
      return [];
    }
  }

  keptLog(name: string): { meta: KeptLog; log: Buffer } | null {
    return readKeptLog(this.#dir(name));
  }

  /** Stops every running sandbox (gateway shutdown). */
  async stopAll(): Promise<void> {
    await Promise.all([...this.#runs.keys()].map((name) => this.stop(name)));
  }
}

/** The absolute path of a program on the gateway's PATH (commands are spawned with the sandbox's environment, not ours). */
function findExecutable(name: string): string {
  for (const dir of (process.env.PATH ?? '/usr/bin:/bin').split(':')) {
    if (dir !== '' && existsSync(join(dir, name))) return join(dir, name);
  }
  return name;
}

/** The environment of a running process (the sandbox's), for commands entering it. */
function processEnv(pid: number): Record<string, string> {
  const env: Record<string, string> = {};
  for (const entry of readFileSync(`/proc/${pid}/environ`).toString('utf8').split('\0')) {
    const at = entry.indexOf('=');
    if (at > 0) env[entry.slice(0, at)] = entry.slice(at + 1);
  }
  return env;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits briefly for the PID namespace init to die with its monitor, and kills it when it lingers. */
async function killInit(pid: number): Promise<void> {
  for (let i = 0; i < 50 && alive(pid); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  if (alive(pid)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone in between.
    }
  }
}

/**
 * bwrap reports the child before it has built the sandbox's mounts; the child, as PID 1 of the namespace,
 * forks the entry program only once they are done. Commands entering it earlier would see a half-built root.
 */
async function setUpDone(childPid: number, exited: Promise<number | null>): Promise<void> {
  let ended = false;
  void exited.then(() => (ended = true));
  const deadline = Date.now() + INFO_TIMEOUT_MS;
  while (!ended && Date.now() < deadline) {
    try {
      if (readFileSync(`/proc/${childPid}/task/${childPid}/children`, 'utf8').trim() !== '') return;
    } catch {
      throw new Error('the sandbox ended while it was being set up');
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  throw new Error(ended ? 'bubblewrap exited while setting up the sandbox' : 'the sandbox was not set up in time');
}

/**
 * The spec's init steps (bwrap-args.ts) have run and the entry program has replaced their shell: until then the
 * sandbox's first process still carries the `warden-init` marker argument. A start returns only after this, so
 * nothing (an exec, the harness's first request) races a step such as the egress forwarder's listener.
 */
async function initStepsDone(childPid: number, exited: Promise<number | null>): Promise<void> {
  let ended = false;
  void exited.then(() => (ended = true));
  const deadline = Date.now() + INFO_TIMEOUT_MS;
  while (!ended && Date.now() < deadline) {
    let first: string;
    try {
      first = readFileSync(`/proc/${childPid}/task/${childPid}/children`, 'utf8').trim().split(' ')[0] ?? '';
      if (first !== '' && !readFileSync(`/proc/${first}/cmdline`, 'utf8').split('\0').includes(INIT_MARKER)) return;
    } catch {
      // The first process is changing (exec) or gone: look again, or fail below when the sandbox ended.
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(ended ? 'an init step of the sandbox failed' : 'the init steps of the sandbox did not finish in time');
}

/** bwrap writes `{"child-pid": N, …}` on --info-fd once the sandbox exists. */
function readChildPid(monitor: ChildProcess, exited: Promise<number | null>): Promise<number> {
  const info = monitor.stdio[3] as NodeJS.ReadableStream | null;
  return new Promise((resolve, reject) => {
    if (!info) return reject(new Error('bubblewrap could not be started'));
    let text = '';
    const timer = setTimeout(() => reject(new Error('bubblewrap did not report the sandbox in time')), INFO_TIMEOUT_MS);
    const done = (fn: () => void) => {
      clearTimeout(timer);
      fn();
    };
    info.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const match = /"child-pid":\s*(\d+)/.exec(text);
      if (match) done(() => resolve(Number(match[1])));
    });
    void exited.then((code) => done(() => reject(new Error(`bubblewrap exited with ${String(code)}`))));
  });
}

function runCommand(
  file: string,
  args: string[],
  options: { env?: Record<string, string>; input?: string; timeoutMs?: number },
): Promise<ExecResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      env: options.env ?? {}, stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'], timeout: options.timeoutMs ?? 30_000, killSignal: 'SIGKILL',
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout!.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr) }));
    // A command that exits without reading its input is not an error of ours.
    child.stdin?.on('error', () => {});
    child.stdin?.end(options.input);
  });
}
