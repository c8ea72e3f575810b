// The native hook answer as text a POSIX shell can print with built-ins only: what the sidecar answers on
// POST /api/v1/<connector>/hook?native=1, for hooks/warden-hook.sh. Three parts, in this order:
//   line 1: the exit code (0-255)
//   line 2: what goes to stderr, escaped for `printf %b` (so newlines, non-ASCII and even NUL survive on one line)
//   rest:   what goes to stdout, verbatim: `native.stdout` as one line of JSON and a newline, or nothing
// The bytes printed are those hooks/warden-hook.mjs prints for the same answer. The short parts come first because
// dash cuts a string at a long prefix in quadratic time: the script only ever cuts off the first two lines.
import type { NativeHookAnswer } from './hook-event.js';

export const NATIVE_ANSWER_TYPE = 'text/plain; charset=utf-8';

/** `text` (as UTF-8) for `printf %b`: printable ASCII as is with backslashes doubled, every other byte as \0NNN. */
export function printfEscaped(text: string): string {
  let escaped = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    if (byte === 0x5c) escaped += '\\\\';
    else if (byte >= 0x20 && byte < 0x7f) escaped += String.fromCharCode(byte);
    else escaped += `\\0${byte.toString(8).padStart(3, '0')}`;
  }
  return escaped;
}

export function nativeAnswerText(native: NativeHookAnswer): string {
  const stderr = native.stderr ? native.stderr.replace(/\n?$/, '\n') : '';
  const stdout = native.stdout === undefined ? '' : `${JSON.stringify(native.stdout)}\n`;
  return `${native.exit_code}\n${printfEscaped(stderr)}\n${stdout}`;
}
