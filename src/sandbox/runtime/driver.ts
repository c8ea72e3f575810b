// The compute driver seam: what the manager asks of an isolation runtime. Nothing here assumes containers or
// an engine daemon: a sandbox is a name, a mount plan and an entry program; a driver decides how to isolate it
// (bubblewrap namespaces today; a MicroVM driver would boot an image instead).

/** One host folder made visible inside the sandbox. */
export interface Mount {
  host: string;
  /** Absolute path inside the sandbox. */
  target: string;
  writable: boolean;
}

export interface SandboxSpec {
  name: string;
  /** The harness image folder (read-only inside, at IMAGE_MOUNT). */
  imageDir: string;
  /** The program the sandbox runs in the background (argv, resolved inside the sandbox). */
  entry: string[];
  /** Working directory inside the sandbox. */
  workdir: string;
  mounts: Mount[];
  /** The harness process environment, secrets included: held in memory, never written down by the driver. */
  env: Record<string, string>;
  /** Commands run inside the sandbox, in order, before the entry program (each must exit 0), such as the egress forwarder. */
  init?: string[][];
  /** CPU cores (fractions allowed) and memory in bytes; absent means unlimited. */
  cpu?: number;
  memoryBytes?: number;
}

/** How resource limits are enforced on this machine. */
export type LimitMechanism = 'cgroup' | 'prlimit';

export interface RunInfo {
  running: boolean;
  /** Host pid of the runtime's monitor process while running. */
  pid?: number;
  /** Host pid of the sandbox's first process (its PID namespace's init) while running: where its processes are found. */
  init_pid?: number;
  started_at?: string;
  exit?: number | null;
}

/** What was kept of a detached run's output when it ended or was stopped (spec "RunLog"). */
export interface KeptLog {
  state: 'exited' | 'interrupted';
  exit: number | null;
  started_at: string;
  kept_at: string;
}

export interface ExecResult {
  code: number | null;
  stdout: Buffer;
  stderr: Buffer;
}

export interface ComputeDriver {
  /** `bwrap` (status `gateway.compute_driver`). */
  readonly name: string;
  readonly limits: LimitMechanism;
  /** Checks the runtime can isolate a process on this machine; throws with the cause when it cannot. */
  probe(): Promise<void>;
  /** Prepares the sandbox's private state (its home folder). */
  create(spec: SandboxSpec): Promise<void>;
  /** Starts the entry program in the background, its output in the run log. */
  start(spec: SandboxSpec): Promise<RunInfo>;
  /** Stops a running sandbox; a run that was going is kept as `interrupted`, unless `keepLog` is false (no log is kept). */
  stop(name: string, options?: { keepLog?: boolean }): Promise<{ interrupted: boolean }>;
  /** Runs a command inside the running sandbox (same namespaces and mounts). */
  exec(name: string, argv: string[], options?: { input?: string; timeoutMs?: number }): Promise<ExecResult>;
  /** Runs a command inside the running sandbox in the background, its output appended to the run log. */
  execDetached(name: string, argv: string[]): void;
  inspect(name: string): RunInfo;
  /** Stops it if running and forgets its state (home folder, logs). */
  remove(name: string): Promise<void>;
  /** Keeps the log of runs that ended while no gateway watched them (a crash: the sandbox died with it). */
  recoverEndedRuns(): void;
  /** The sandbox names this driver has state for (to find orphans). */
  list(): string[];
  /** The kept run log, or null when none was kept. */
  keptLog(name: string): { meta: KeptLog; log: Buffer } | null;
  /** The argv a local terminal runs to attach to the running sandbox (interactive shell by default). */
  attachCommand(name: string, argv?: string[]): string[] | null;
}
