// What a pipeline stage writes to standard output when that is known from the command line alone:
// enough to follow `echo <base64> | base64 -d | sh` and hand the decoded script to the parser.
import { Buffer } from 'node:buffer';

/** Decoded payloads larger than this are not examined. */
const MAX_DECODED_BYTES = 64 * 1024;
const MAX_ENCODED_CHARS = Math.ceil(MAX_DECODED_BYTES / 3) * 4;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const WHITESPACE = /\s+/g;
const ECHO_FLAGS = /^-[neE]+$/;
const SHORT_OPTIONS = /^-[A-Za-z]+$/;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The text `encoded` decodes to, when it is base64 of valid UTF-8 text. */
export function decodeBase64Text(encoded: string): string | undefined {
  const compact = encoded.replace(WHITESPACE, '');
  if (compact === '' || compact.length > MAX_ENCODED_CHARS || !BASE64.test(compact)) return undefined;
  let text: string;
  try {
    text = UTF8.decode(Buffer.from(compact, 'base64'));
  } catch {
    return undefined;
  }
  return isText(text) ? text : undefined;
}

/** No control characters other than tab, newlines, vertical tab, form feed and carriage return. */
function isText(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 9 || (c > 13 && c < 32) || c === 127) return false;
  }
  return true;
}

function isBase64Decode(name: string, args: readonly string[]): boolean {
  if (name === 'base64') {
    const decodes = args.some((a) => a === '--decode' || (SHORT_OPTIONS.test(a) && (a.includes('d') || a.includes('D'))));
    return decodes && args.every((a, i) => a.startsWith('-') || args[i - 1] === '-w');
  }
  if (name !== 'openssl') return false;
  const base64 = args[0] === 'base64' || (args[0] === 'enc' && (args.includes('-base64') || args.includes('-a')));
  return base64 && args.includes('-d') && !args.includes('-in');
}

function printfOutput(args: readonly string[]): string | undefined {
  const [format, ...rest] = args;
  if (format === '%s' || format === '%s\\n') return rest.join('') + (format === '%s' ? '' : '\n');
  if (format !== undefined && rest.length === 0 && !format.includes('%')) return format.replaceAll('\\n', '\n');
  return undefined;
}

/** The commands staticOutput knows. */
export const STATIC_OUTPUT_COMMANDS: ReadonlySet<string> = new Set(['echo', 'printf', 'cat', 'base64', 'openssl']);

/** Output of `name args` given `stdin` (undefined when unknown), or undefined when not known. */
export function staticOutput(name: string, args: readonly string[], stdin: string | undefined): string | undefined {
  if (name === 'echo') {
    let first = 0;
    while (first < args.length && ECHO_FLAGS.test(args[first]!)) first++;
    const newline = args.slice(0, first).some((a) => a.includes('n')) ? '' : '\n';
    return args.slice(first).join(' ') + newline;
  }
  if (name === 'printf') return printfOutput(args);
  if (name === 'cat') return args.length === 0 || (args.length === 1 && args[0] === '-') ? stdin : undefined;
  if (stdin !== undefined && isBase64Decode(name, args)) return decodeBase64Text(stdin);
  return undefined;
}
