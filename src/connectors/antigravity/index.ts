// Google Antigravity (agy) agent hooks (hooks.json under ~/.gemini/config/ or .agents/).
// Sources: Antigravity's hook spec as summarised in the pinta-gemini research notes (ANTIGRAVITY2_HOOKS.md,
// Antigravity 2.0 / agy CLI) and safe-chains' agy target (docs.rs/safe-chains, targets::agy, verified against
// agy 1.1.2): events PreToolUse, PostToolUse, PreInvocation, PostInvocation, Stop; camelCase input with
// conversationId, workspacePaths[], transcriptPath, artifactDirectoryPath; PreToolUse {toolCall {name, args},
// stepIdx} with PascalCase args (run_command {CommandLine, Cwd}); PostToolUse {stepIdx, error?}; PreToolUse answer
// {decision: allow|deny|ask|force_ask, reason} where decision is required (a missing one fails closed) and
// force_ask prompts the user even when an "always allow" rule matches; other events answer {}.
// The payload names no event, so Warden's hook script (installed per event) adds hook_event_name.
import { gate, hooked, type HookAgent, type HookEventSpec } from '../definition.js';
import type { NativeHookAnswer } from '../hook-event.js';
import { json } from '../native/answers.js';
import { phaseOf, readPayload } from '../native/payload.js';
import { asArray, type JsonObject } from '../../util/json.js';
import { toolArgs } from '../native/tool-data.js';
import { defined, hookEvent, id, obj, str } from '../native/values.js';
import { commandEntry, jsonHookFile } from '../setup/json-hooks.js';
import { bestGuessNote } from '../setup/notes.js';

// PreInvocation (before each model call) carries nothing Warden inspects, so it is neither listed nor installed.
const EVENTS: Readonly<Record<string, HookEventSpec>> = {
  PreToolUse: gate('pre_tool'),
  PostToolUse: hooked('post_tool'),
  PostInvocation: hooked('response'),
  Stop: hooked('session'),
};

/** Shell commands become `{command}`; other tools keep their arguments. */
function toolInput(name: string | undefined, args: JsonObject | undefined): JsonObject | undefined {
  if (name === 'run_command' && args) return defined({ command: str(args.CommandLine) });
  return args;
}

const DECISIONS = { allow: 'allow', alert: 'allow', confirm: 'force_ask', block: 'deny' } as const;

export const antigravity: HookAgent = {
  kind: 'hook',
  name: 'antigravity',
  description: 'Google Antigravity agent hooks',
  telemetry: ['hooks'],
  events: EVENTS,
  decode(payload) {
    const { p, event } = readPayload(payload, ['hook_event_name', 'hookEventName']);
    const phase = phaseOf(EVENTS, event);
    const call = obj(p.toolCall);
    const name = str(call?.name);
    const args = toolArgs(call?.args);
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
      cwd: str(args?.Cwd) ?? str(asArray(p.workspacePaths)[0]),
    });
  },
  render(event, { action, reason }): NativeHookAnswer {
    if (event.phase === 'pre_tool') {
      return json(action === 'allow' ? { decision: 'allow' } : { decision: DECISIONS[action], reason });
    }
    return action === 'allow' ? json({}) : { stdout: {}, stderr: reason, exit_code: 0 };
  },
  refusal: (reason) => json({ decision: 'deny', reason }),
  // Antigravity's hooks.json holds named hook groups; Warden owns the "warden" group.
  setup: {
    ...jsonHookFile('.gemini/config/hooks.json', {
      shape: 'nested', container: 'warden', containerDefaults: { enabled: true }, matcher: '*', entry: commandEntry,
    }),
    notes: () => [bestGuessNote('Antigravity')],
  },
};
