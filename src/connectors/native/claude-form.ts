// The Claude Code hook form (https://code.claude.com/docs/en/hooks): its events, payload and answers, which Codex,
// OpenHands and Omnigent reuse. Each agent's definition picks which of these events its setup installs.
import { gate, hooked, decodedOnly, type HookEventSpec } from '../definition.js';
import type { DecodedHookEvent, HookDecision, NativeHookAnswer } from '../hook-event.js';
import { json } from './answers.js';
import { phaseOf } from './payload.js';
import type { JsonObject } from '../../util/json.js';
import { outputText, successOf, toolArgs } from './tool-data.js';
import { hookEvent, id, str } from './values.js';

/** Every Claude Code event Warden decodes, not installed; `claudeEvents` marks which ones an agent installs. */
const CLAUDE_EVENTS: Readonly<Record<string, HookEventSpec>> = {
  SessionStart: decodedOnly('session'),
  UserPromptSubmit: decodedOnly('prompt'),
  PreToolUse: decodedOnly('pre_tool'),
  PostToolUse: decodedOnly('post_tool'),
  PostToolUseFailure: decodedOnly('post_tool'),
  Stop: decodedOnly('session'),
  SessionEnd: decodedOnly('session'),
  SubagentStart: decodedOnly('session'),
  SubagentStop: decodedOnly('session'),
  Notification: decodedOnly('session'),
  PreCompact: decodedOnly('session'),
  PostCompact: decodedOnly('session'),
};

/** The events a fail-closed hook refuses: the pre-tool and prompt events, the ones whose answer can stop something. */
const CLAUDE_GATES = new Set(['PreToolUse', 'UserPromptSubmit']);

/** Claude Code's lifecycle events, the ones every Claude-compatible agent has. */
export const CLAUDE_LIFECYCLE = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop', 'SessionEnd'] as const;

/** The Claude Code event table with `installed` hooked by setup (in that order, then the rest, decoded only). */
export function claudeEvents(installed: readonly string[]): Record<string, HookEventSpec> {
  const events: Record<string, HookEventSpec> = {};
  for (const name of installed) {
    const { phase } = CLAUDE_EVENTS[name] as HookEventSpec;
    events[name] = CLAUDE_GATES.has(name) ? gate(phase) : hooked(phase);
  }
  return { ...events, ...Object.fromEntries(Object.entries(CLAUDE_EVENTS).filter(([name]) => !(name in events))) };
}

export interface ClaudeDecodeOptions {
  /** The agent runs PostToolUse only after a successful call (Claude Code does; failures go to PostToolUseFailure). */
  postToolUseMeansSuccess?: boolean;
}

/** Decodes `{hook_event_name, session_id, cwd, tool_name, tool_input, tool_response, tool_use_id, prompt, …}`. */
export function decodeClaudeStyle(p: JsonObject, event: string, options: ClaudeDecodeOptions = {}): DecodedHookEvent {
  const phase = phaseOf(CLAUDE_EVENTS, event);
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
