// The command an agent runs for a hook event: this Node binary, the shipped hook script, the connector, the data
// directory and the event name, quoted for a POSIX shell (and for Python's shlex, which Hermes uses).
import { fileURLToPath } from 'node:url';

/** The hook script's file name: what identifies Warden's entries in an agent's hook configuration. */
export const HOOK_SCRIPT_NAME = 'warden-hook.mjs';

/** `hooks/warden-hook.mjs` at the package root (three levels up from both src/ and dist/connectors/setup/). */
export const HOOK_SCRIPT = fileURLToPath(new URL(`../../../hooks/${HOOK_SCRIPT_NAME}`, import.meta.url));

export interface HookTarget {
  connector: string;
  /** Absolute $WARDEN_HOME, passed as --home so the agent's own environment does not matter. */
  home: string;
  failMode: 'closed' | 'open';
}

/** Whether a configured command (or argv element) runs Warden's hook script. */
export function isWardenCommand(command: unknown): boolean {
  return typeof command === 'string' && command.includes(HOOK_SCRIPT_NAME);
}

/** The argv of the hook script for `target`; `event` is passed when the agent's payload may not name it. */
export function hookArgv(target: HookTarget, event?: string): string[] {
  // The absolute Node path: agents started from a desktop launcher often have no `node` on their PATH.
  const argv = [process.execPath, HOOK_SCRIPT, target.connector, '--home', target.home];
  return event === undefined ? argv : [...argv, '--event', event];
}

export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export function hookCommand(target: HookTarget, event: string): string {
  return hookArgv(target, event).map(shellQuote).join(' ');
}
