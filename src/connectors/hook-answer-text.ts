// The native hook answer as text a POSIX shell can print without any other tool: what the sidecar answers on
// POST /api/v1/<connector>/hook?native=1, for hooks/warden-hook.sh. Three parts, in this order:
//   line 1: the exit code (0-255)
//   line 2: what goes to stdout, without its newline: `native.stdout` as one line of JSON, or nothing
//   rest:   what goes to stderr, verbatim (newlines and non-ASCII kept), ending in a newline when not empty
// The bytes printed are those hooks/warden-hook.mjs prints for the same answer: JSON.stringify escapes every
// newline, so stdout is always one line, and stderr gets the same one trailing newline.
import type { NativeHookAnswer } from './hooks/types.js';

export const NATIVE_ANSWER_TYPE = 'text/plain; charset=utf-8';

export function nativeAnswerText(native: NativeHookAnswer): string {
  const stdout = native.stdout === undefined ? '' : JSON.stringify(native.stdout);
  const stderr = native.stderr ? native.stderr.replace(/\n?$/, '\n') : '';
  return `${native.exit_code}\n${stdout}\n${stderr}`;
}
