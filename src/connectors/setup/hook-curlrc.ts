// $WARDEN_HOME/hooks/<connector>.curlrc (mode 0600): the settings of hooks/warden-hook.sh, derived by setup from the
// connector's settings file and hook token, in a form the script reads with sh built-ins and curl reads with -K.
// Five lines the script reads (a note, then `# node=`, `# curl=`, `# sidecar=`, `# total_ms=`: curl skips them as
// comments), then curl's options: the token's header lives here so it never appears in a process's arguments, and
// a sandbox's settings add `unix-socket` (its hook ingress), so the script itself needs no change for it.
import { HOOK_LIMITS } from '../limits.js';
import type { ShellRunner } from './hook-command.js';

/** What the curlrc is derived from: the fields of $WARDEN_HOME/hooks/<connector>.json that the sh script needs. */
export interface CurlrcSettings {
  connector: string;
  sidecar?: string;
  /** A Unix socket the sidecar answers on (a sandbox's hook ingress): curl connects there, `sidecar` names the URL. */
  socket?: string;
  total_timeout_ms?: number;
}

/** A value inside double quotes in a curl config file (backslash escapes, as curl's parser reads them). */
const curlQuoted = (value: string): string => `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

const oneLine = (value: string): string => {
  if (/[\r\n]/.test(value)) throw new Error(`a hook setting holds a line break: ${JSON.stringify(value)}`);
  return value;
};

export function hookCurlrc(settings: CurlrcSettings, token: string, shell: ShellRunner, node = process.execPath): string {
  const total = Number.isInteger(settings.total_timeout_ms) && settings.total_timeout_ms! > 0 ? settings.total_timeout_ms! : HOOK_LIMITS.totalTimeoutMs;
  return [
    `# Written by \`warden setup ${settings.connector}\` for hooks/warden-hook.sh from ${settings.connector}.json and ${settings.connector}.token; run setup again after changing them.`,
    `# node=${oneLine(node)}`,
    `# curl=${oneLine(shell.curl)}`,
    `# sidecar=${oneLine(settings.sidecar ?? '')}`,
    `# total_ms=${total}`,
    `header = ${curlQuoted(`Authorization: Bearer ${oneLine(token)}`)}`,
    ...(settings.socket === undefined ? [] : [`unix-socket = ${curlQuoted(oneLine(settings.socket))}`]),
    '',
  ].join('\n');
}
