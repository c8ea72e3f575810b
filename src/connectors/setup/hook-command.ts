// The command an agent runs for a hook event, quoted for a POSIX shell (and for Python's shlex, which Hermes uses).
// Where `sh` and a recent-enough `curl` exist (checked once, at setup), it is `/bin/sh hooks/warden-hook.sh`, which
// asks the sidecar without starting a runtime; elsewhere (and on Windows) it is this Node binary with
// `hooks/warden-hook.mjs`. Both take the connector, the data directory and the event name.
import { accessSync, constants } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { delimiter, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The hook scripts' file names: what identifies Warden's entries in an agent's hook configuration. */
export const HOOK_SCRIPT_NAME = 'warden-hook.mjs';
export const HOOK_SH_SCRIPT_NAME = 'warden-hook.sh';

/** `hooks/warden-hook.mjs` at the package root (three levels up from both src/ and dist/connectors/setup/). */
export const HOOK_SCRIPT = fileURLToPath(new URL(`../../../hooks/${HOOK_SCRIPT_NAME}`, import.meta.url));
export const HOOK_SH_SCRIPT = fileURLToPath(new URL(`../../../hooks/${HOOK_SH_SCRIPT_NAME}`, import.meta.url));

/** The oldest curl whose options warden-hook.sh uses (-K, -T -, --max-filesize, -w %{time_connect}) as it expects. */
export const MIN_CURL_VERSION: readonly [number, number] = [7, 68];

/** The programs of the sh hook command, by absolute path (agents started from a launcher may have another PATH). */
export interface ShellRunner {
  sh: string;
  curl: string;
}

export interface HookTarget {
  connector: string;
  /** Absolute $WARDEN_HOME, passed as --home so the agent's own environment does not matter. */
  home: string;
  failMode: 'closed' | 'open';
  /** Set when the sh command is installed; absent means the Node command. */
  shell?: ShellRunner;
  /** The folder holding the hook scripts as the agent sees it (a sandbox image's copy); default the package's `hooks/`. */
  scripts?: string;
}

/** Whether a configured command (or argv element) runs one of Warden's hook scripts. */
export function isWardenCommand(command: unknown): boolean {
  return typeof command === 'string' && (command.includes(HOOK_SCRIPT_NAME) || command.includes(HOOK_SH_SCRIPT_NAME));
}

const isExecutable = (path: string): boolean => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** curl's absolute path on `path` (a PATH value), when it is there and at least MIN_CURL_VERSION. */
export function findCurl(path = process.env.PATH ?? ''): string | undefined {
  const curl = path.split(delimiter).filter((dir) => isAbsolute(dir)).map((dir) => join(dir, 'curl')).find(isExecutable);
  if (!curl || curl.includes('\n')) return undefined;
  const version = /^curl (\d+)\.(\d+)/.exec(spawnSync(curl, ['--version'], { encoding: 'utf8', timeout: 5000 }).stdout ?? '');
  if (!version) return undefined;
  const [major, minor] = [Number(version[1]), Number(version[2])];
  return major > MIN_CURL_VERSION[0] || (major === MIN_CURL_VERSION[0] && minor >= MIN_CURL_VERSION[1]) ? curl : undefined;
}

/** The sh command's programs on this machine, or undefined for the Node command (Windows, no sh, no usable curl). */
export function detectShellRunner(): ShellRunner | undefined {
  if (process.platform === 'win32' || !isExecutable('/bin/sh') || process.execPath.includes('\n')) return undefined;
  const curl = findCurl();
  return curl ? { sh: '/bin/sh', curl } : undefined;
}

/** The argv of the hook command for `target`; `event` is passed when the agent's payload may not name it. */
export function hookArgv(target: HookTarget, event?: string): string[] {
  // Absolute programs: agents started from a desktop launcher often have no `node` on their PATH.
  const script = (name: string, packaged: string) => (target.scripts === undefined ? packaged : `${target.scripts}/${name}`);
  const head = target.shell ? [target.shell.sh, script(HOOK_SH_SCRIPT_NAME, HOOK_SH_SCRIPT)] : [process.execPath, script(HOOK_SCRIPT_NAME, HOOK_SCRIPT)];
  const argv = [...head, target.connector, '--home', target.home];
  return event === undefined ? argv : [...argv, '--event', event];
}

/** The argv of a turn-complete notifier (Codex's `notify`): the hook command posting to the connector's notify route. */
export function notifyArgv(target: HookTarget): string[] {
  return [...hookArgv(target), '--notify'];
}

export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export function hookCommand(target: HookTarget, event: string): string {
  return hookArgv(target, event).map(shellQuote).join(' ');
}
