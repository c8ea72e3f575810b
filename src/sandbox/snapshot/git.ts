// The real `git` binary, run as plumbing on a private bare repository: GIT_DIR is the sandbox's snapshots.git,
// GIT_WORK_TREE the folder being recorded or restored, GIT_INDEX_FILE a private index. The user's and the
// system's git config are not read (a global filter, autocrlf or fsmonitor would change what is stored or run
// code), and the repository's info/attributes switches every content conversion off, so a blob is the file's
// bytes as they are on disk, whatever `.gitattributes` the project carries.
import { spawn } from 'node:child_process';
import { Readable } from 'node:stream';
import { WorkspaceError } from './errors.js';
import { SNAPSHOT_LIMITS } from './limits.js';

/** Highest-precedence attributes of the private repository: no eol, text, filter or encoding conversion. */
export const NEUTRAL_ATTRIBUTES = '* -text -eol -filter -ident -working-tree-encoding\n';

export interface GitScope {
  gitDir: string;
  workTree?: string;
  indexFile?: string;
}

export interface GitRunOptions {
  /** Standard input: a whole buffer, or chunks streamed with backpressure. */
  input?: Buffer | string | AsyncIterable<Buffer>;
  /** Stop reading after this many bytes of output and report `truncated` (the process is killed). */
  maxOutputBytes?: number;
}

export interface GitOutput {
  stdout: Buffer;
  truncated: boolean;
}

const GIT_CONFIG = ['-c', 'core.fileMode=true', '-c', 'core.symlinks=true', '-c', 'core.autocrlf=false', '-c', 'core.safecrlf=false', '-c', 'core.quotePath=false', '-c', 'gc.auto=0'];

function gitEnv(scope: GitScope): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  // Only what git needs to run: PATH and HOME (git looks there even with the global config off), a locale.
  for (const key of ['PATH', 'HOME', 'TMPDIR']) if (process.env[key] !== undefined) env[key] = process.env[key];
  Object.assign(env, {
    LC_ALL: 'C',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_AUTHOR_NAME: 'warden',
    GIT_AUTHOR_EMAIL: 'warden@localhost',
    GIT_COMMITTER_NAME: 'warden',
    GIT_COMMITTER_EMAIL: 'warden@localhost',
    GIT_DIR: scope.gitDir,
  });
  if (scope.workTree !== undefined) env.GIT_WORK_TREE = scope.workTree;
  if (scope.indexFile !== undefined) env.GIT_INDEX_FILE = scope.indexFile;
  return env;
}

/** Runs one git command; a non-zero exit is a WorkspaceError carrying git's stderr (logged, not answered). */
export function git(scope: GitScope, args: string[], options: GitRunOptions = {}): Promise<GitOutput> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', [...GIT_CONFIG, ...args], {
      env: gitEnv(scope),
      cwd: scope.gitDir,
      stdio: ['pipe', 'pipe', 'pipe'],
      timeout: SNAPSHOT_LIMITS.gitTimeoutMs,
    });
    const out: Buffer[] = [];
    let outBytes = 0;
    let truncated = false;
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => {
      if (truncated) return;
      out.push(chunk);
      outBytes += chunk.length;
      if (options.maxOutputBytes !== undefined && outBytes > options.maxOutputBytes) {
        truncated = true;
        child.kill('SIGKILL');
      }
    });
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (cause) => reject(new WorkspaceError('WARDEN_ERR_SANDBOX_GIT_FAILED', `git ${args[0]}: ${cause.message}`, cause)));
    child.on('close', (code, signal) => {
      let stdout = Buffer.concat(out);
      if (truncated) {
        stdout = stdout.subarray(0, options.maxOutputBytes);
        resolve({ stdout, truncated });
      } else if (code === 0) {
        resolve({ stdout, truncated });
      } else {
        const why = signal ? `killed by ${signal}` : `exit ${code}`;
        reject(new WorkspaceError('WARDEN_ERR_SANDBOX_GIT_FAILED', `git ${args[0]} failed (${why}): ${Buffer.concat(err).toString('utf8').trim().slice(0, 2000)}`));
      }
    });
    // A pipe closed early by git (it read what it needed, or failed) is not a failure of ours: git's exit says.
    child.stdin.on('error', () => {});
    const input = options.input;
    if (input === undefined || typeof input === 'string' || Buffer.isBuffer(input)) child.stdin.end(input);
    else {
      Readable.from(input)
        .on('error', (cause) => {
          child.kill('SIGKILL');
          reject(cause);
        })
        .pipe(child.stdin);
    }
  });
}

/** Runs git and answers its standard output as text without the trailing newline. */
export async function gitText(scope: GitScope, args: string[], options: GitRunOptions = {}): Promise<string> {
  return (await git(scope, args, options)).stdout.toString('utf8').replace(/\n$/, '');
}

/** NUL-separated paths for `--stdin -z` plumbing. */
export function nulList(paths: Iterable<string>): Buffer {
  const parts: string[] = [];
  for (const path of paths) parts.push(path, '\0');
  return Buffer.from(parts.join(''), 'utf8');
}
