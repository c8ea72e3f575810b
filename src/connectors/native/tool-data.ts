// A tool call's data as agents send it, made uniform: arguments as an object (JSON-string arguments parsed), the
// result as text capped for inspection, success from the result's own fields, and MCP tool names.
import { isObject, parseJson, type JsonObject } from '../../util/json.js';
import { HOOK_LIMITS } from '../limits.js';

export const MAX_TOOL_OUTPUT_BYTES = HOOK_LIMITS.maxToolOutputBytes;

/** Tool arguments as an object: objects as they are, JSON-string arguments parsed, any other value wrapped. */
export function toolArgs(value: unknown): JsonObject | undefined {
  if (value === undefined || value === null) return undefined;
  if (isObject(value)) return value;
  if (typeof value === 'string') {
    if (value.trim() === '') return {};
    const parsed = parseJson(value);
    return isObject(parsed) ? parsed : { value };
  }
  return { value };
}

/** Cuts text to MAX_TOOL_OUTPUT_BYTES of UTF-8 without splitting a character. */
export function capText(text: string): string {
  // A UTF-16 code unit is at most 3 UTF-8 bytes, so short strings need no encoding to be known to fit.
  if (text.length * 3 <= MAX_TOOL_OUTPUT_BYTES) return text;
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= MAX_TOOL_OUTPUT_BYTES) return text;
  let end = MAX_TOOL_OUTPUT_BYTES;
  while (end > 0 && ((bytes[end] as number) & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8');
}

/** A tool result as capped text: strings as they are, anything else as JSON. */
export function outputText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  return capText(typeof value === 'string' ? value : JSON.stringify(value));
}

/** Success from a result object's `success`, `exit_code`/`exitCode` or `error` field; undefined when none is set. */
export function successOf(value: unknown): boolean | undefined {
  if (!isObject(value)) return undefined;
  if (typeof value.success === 'boolean') return value.success;
  for (const key of ['exit_code', 'exitCode']) {
    const code = value[key];
    if (typeof code === 'number') return code === 0;
  }
  const error = value.error;
  if (error !== undefined && error !== null && error !== false && error !== '') return false;
  return undefined;
}

/** The inspection engine's name for an MCP tool: `mcp__<server>__<tool>` when the server is known. */
export function mcpTool(server: string | undefined, tool: string): string {
  return server ? `mcp__${server}__${tool}` : tool;
}
