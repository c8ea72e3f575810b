// Helpers the hook connector modules share: reading the native payload, JSON-string tool arguments, capped tool
// output, and the answers several agents have in common (the Claude Code form, which Codex, OpenHands and
// Omnigent reuse, and the plain stderr notice for events an agent cannot stop).
import {
  HookPayloadError,
  type DecodedHookEvent,
  type HookDecision,
  type HookPhase,
  type NativeHookAnswer,
} from './types.js';
import { HOOK_LIMITS } from '../limits.js';

export type JsonObject = Record<string, unknown>;

export const MAX_TOOL_OUTPUT_BYTES = HOOK_LIMITS.maxToolOutputBytes;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : typeof value;
}

/** Checks the payload is an object naming an event in the first of `fields` that holds a non-empty string. */
export function readPayload(payload: unknown, fields: readonly string[]): { p: JsonObject; event: string; field: string } {
  if (!isObject(payload)) throw new HookPayloadError(`hook payload must be a JSON object, got ${kindOf(payload)}`);
  for (const field of fields) {
    const value = payload[field];
    if (typeof value === 'string' && value.trim() !== '') return { p: payload, event: value, field };
  }
  const names = fields.map((f) => `"${f}"`).join(' or ');
  throw new HookPayloadError(`hook payload names no event: expected a non-empty string in ${names}`);
}

/** The phase a native event maps to; events the table does not know are `other`. */
export function phaseOf(table: Readonly<Record<string, HookPhase>>, event: string): HookPhase {
  return Object.hasOwn(table, event) ? (table[event] as HookPhase) : 'other';
}

/** A non-empty string, or undefined. */
export function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** An identifier the agent may send as a string or a number. */
export function id(value: unknown): string | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : str(value);
}

export function obj(value: unknown): JsonObject | undefined {
  return isObject(value) ? value : undefined;
}

/** The object without its undefined fields (so decoded events compare and serialise cleanly); undefined if empty. */
export function defined<T extends object>(value: T): T | undefined {
  const out = Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
  return Object.keys(out).length > 0 ? out : undefined;
}

/** A decoded event without its undefined fields. */
export function hookEvent(value: DecodedHookEvent): DecodedHookEvent {
  return defined(value) as DecodedHookEvent;
}

/** The parsed JSON text, or undefined when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

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

/** A JSON answer on stdout. */
export function json(stdout: JsonObject, exit_code = 0): NativeHookAnswer {
  return { stdout, exit_code };
}

/** For events the agent cannot stop or annotate: the hook succeeds and any reason goes to stderr. */
export function notice(decision: HookDecision): NativeHookAnswer {
  return decision.action === 'allow' || decision.reason === '' ? { exit_code: 0 } : { stderr: decision.reason, exit_code: 0 };
}

// ---- Claude Code form (https://code.claude.com/docs/en/hooks), reused by Claude-compatible agents ----

export const CLAUDE_PHASES: Readonly<Record<string, HookPhase>> = {
  UserPromptSubmit: 'prompt',
  PreToolUse: 'pre_tool',
  PostToolUse: 'post_tool',
  PostToolUseFailure: 'post_tool',
  SessionStart: 'session',
  SessionEnd: 'session',
  Stop: 'session',
  SubagentStart: 'session',
  SubagentStop: 'session',
  Notification: 'session',
  PreCompact: 'session',
  PostCompact: 'session',
};

export interface ClaudeDecodeOptions {
  /** The agent runs PostToolUse only after a successful call (Claude Code does; failures go to PostToolUseFailure). */
  postToolUseMeansSuccess?: boolean;
}

/** Decodes `{hook_event_name, session_id, cwd, tool_name, tool_input, tool_response, tool_use_id, prompt, …}`. */
export function decodeClaudeStyle(p: JsonObject, event: string, options: ClaudeDecodeOptions = {}): DecodedHookEvent {
  const phase = phaseOf(CLAUDE_PHASES, event);
  let tool_output: string | undefined;
  let tool_succeeded: boolean | undefined;
  if (phase === 'post_tool') {
    const result = p.tool_response ?? p.tool_output;
    tool_output = outputText(result ?? p.error);
    if (event === 'PostToolUseFailure') tool_succeeded = false;
    else tool_succeeded = successOf(result) ?? (options.postToolUseMeansSuccess ? true : undefined);
  }
  return hookEvent({
    event,
    phase,
    session_id: str(p.session_id),
    tool: str(p.tool_name),
    tool_input: toolArgs(p.tool_input),
    tool_output,
    tool_succeeded,
    tool_call_id: id(p.tool_use_id),
    prompt: phase === 'prompt' ? str(p.prompt) : undefined,
    response: str(p.last_assistant_message),
    cwd: str(p.cwd),
  });
}

/**
 * The Claude Code answer. allow: no output (the agent's own permission rules still apply). alert: `systemMessage`,
 * a warning shown to the user. pre_tool confirm/block: `hookSpecificOutput.permissionDecision` ask/deny with the
 * reason (deny's reason goes to the model); `ask: false` agents get deny for confirm. prompt/post_tool/response
 * block: top-level `decision: "block"` + `reason`. Events that cannot be stopped get the reason as `systemMessage`.
 */
export function renderClaudeStyle(event: DecodedHookEvent, decision: HookDecision, options: { ask: boolean }): NativeHookAnswer {
  const { action, reason } = decision;
  if (action === 'allow') return { exit_code: 0 };
  if (action === 'alert') return json({ systemMessage: reason });
  switch (event.phase) {
    case 'pre_tool':
      return json({
        hookSpecificOutput: {
          hookEventName: event.event,
          permissionDecision: action === 'confirm' && options.ask ? 'ask' : 'deny',
          permissionDecisionReason: reason,
        },
      });
    case 'prompt':
    case 'post_tool':
    case 'response':
      return json({ decision: 'block', reason });
    default:
      return json({ systemMessage: reason });
  }
}
