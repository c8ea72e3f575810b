// The contract between the sidecar's hook route and each agent's definition: decode the agent's native hook
// payload into one common event, and render a decision back in the agent's native form.
import { WardenError } from '../errors.js';

/** Where in the agent's loop the event sits. Only `pre_tool` events can stop a tool call. `other`: an event
 *  Warden records but has no phase for (an agent's event it does not list, or one it does not inspect). */
export type HookPhase = 'prompt' | 'pre_tool' | 'post_tool' | 'response' | 'session' | 'other';

export interface DecodedHookEvent {
  /** The native event name exactly as the agent sent it (e.g. `PreToolUse`, `beforeShellExecution`). */
  event: string;
  phase: HookPhase;
  session_id?: string;
  /** Native tool name (e.g. `Bash`, `shell`, `run_shell_command`); for shell-specific events, the connector's
   *  name for its shell tool. */
  tool?: string;
  /** Tool arguments: an object (`{command: "..."}`, `{file_path, content}`, …). */
  tool_input?: Record<string, unknown>;
  /** Tool result as text (post_tool). */
  tool_output?: string;
  /** post_tool: whether the tool reported success (exit code 0 / no error). Undefined when unknown. */
  tool_succeeded?: boolean;
  tool_call_id?: string;
  /** User prompt text (prompt phase). */
  prompt?: string;
  /** Model answer text (response phase). */
  response?: string;
  cwd?: string;
}

export type HookAction = 'allow' | 'alert' | 'confirm' | 'block';

export interface HookDecision {
  action: HookAction;
  /** Text for the agent / user; empty for a plain allow. */
  reason: string;
}

/** What the hook script does with the answer: print `stdout` (JSON) if present, print `stderr` if present,
 *  and exit with `exit_code`. */
export interface NativeHookAnswer {
  stdout?: Record<string, unknown>;
  stderr?: string;
  exit_code: number;
}

/** A hook payload that is not an object or names no event: the hook route answers 400 with the message. */
export class HookPayloadError extends WardenError {
  constructor(message: string) {
    super('WARDEN_ERR_HOOK_PAYLOAD_INVALID', message, { statusCode: 400 });
  }
}
