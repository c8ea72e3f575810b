// Google Antigravity (agy) agent hooks (hooks.json under ~/.gemini/config/ or .agents/).
// Sources: Antigravity's hook spec as summarised in the pinta-gemini research notes (ANTIGRAVITY2_HOOKS.md,
// Antigravity 2.0 / agy CLI) and safe-chains' agy target (docs.rs/safe-chains, targets::agy, verified against
// agy 1.1.2): events PreToolUse, PostToolUse, PreInvocation, PostInvocation, Stop; camelCase input with
// conversationId, workspacePaths[], transcriptPath, artifactDirectoryPath; PreToolUse {toolCall {name, args},
// stepIdx} with PascalCase args (run_command {CommandLine, Cwd}); PostToolUse {stepIdx, error?}; PreToolUse answer
// {decision: allow|deny|ask|force_ask, reason} where decision is required (a missing one fails closed) and
// force_ask prompts the user even when an "always allow" rule matches; other events answer {}.
// The payload names no event, so Warden's hook script (installed per event) adds hook_event_name.
import { defined, hookEvent, id, json, obj, phaseOf, readPayload, str, toolArgs, type JsonObject } from './shared.js';
import type { ConnectorHooks, HookPhase, NativeHookAnswer } from './types.js';

const PHASES: Readonly<Record<string, HookPhase>> = {
  PreToolUse: 'pre_tool',
  PostToolUse: 'post_tool',
  PostInvocation: 'response',
  Stop: 'session',
};

/** Shell commands become `{command}`; other tools keep their arguments. */
function toolInput(name: string | undefined, args: JsonObject | undefined): JsonObject | undefined {
  if (name === 'run_command' && args) return defined({ command: str(args.CommandLine) });
  return args;
}

const DECISIONS = { allow: 'allow', alert: 'allow', confirm: 'force_ask', block: 'deny' } as const;

export const antigravity: ConnectorHooks = {
  decode(payload) {
    const { p, event } = readPayload(payload, ['hook_event_name', 'hookEventName']);
    const phase = phaseOf(PHASES, event);
    const call = obj(p.toolCall);
    const name = str(call?.name);
    const args = toolArgs(call?.args);
    const roots = Array.isArray(p.workspacePaths) ? p.workspacePaths : [];
    const error = str(p.error);
    return hookEvent({
      event,
      phase,
      session_id: str(p.conversationId),
      tool: name,
      tool_input: toolInput(name, args),
      tool_output: phase === 'post_tool' ? error : undefined,
      tool_succeeded: phase === 'post_tool' ? error === undefined : undefined,
      tool_call_id: id(p.stepIdx),
      cwd: str(args?.Cwd) ?? str(roots[0]),
    });
  },
  render(event, { action, reason }): NativeHookAnswer {
    if (event.phase === 'pre_tool') {
      return json(action === 'allow' ? { decision: 'allow' } : { decision: DECISIONS[action], reason });
    }
    return action === 'allow' ? json({}) : { stdout: {}, stderr: reason, exit_code: 0 };
  },
};
