// OpenHands agent hooks (.openhands/hooks.json).
// Sources: OpenHands hooks, https://docs.openhands.dev/openhands/usage/customization/hooks ("compatible with Claude
// Code hooks": PreToolUse, PostToolUse, UserPromptSubmit, Stop, SessionStart, SessionEnd) and the SDK that runs them,
// github.com/OpenHands/software-agent-sdk openhands-sdk/openhands/sdk/hooks/{types,executor}.py: stdin is
// {event_type, tool_name, tool_input, tool_output, message, session_id, working_dir, metadata}; exit code 2 blocks;
// on exit 0 stdout JSON is read for decision ("allow" | "deny"; "ask" is not implemented), reason,
// additionalContext and continue. PreToolUse, UserPromptSubmit and Stop can block; there is no ask, so confirmation
// is answered as deny. Claude Code's hook_event_name/cwd/prompt spellings are read too.
import type { HookAgent } from '../definition.js';
import { exit2, json, notice } from '../native/answers.js';
import { CLAUDE_LIFECYCLE, claudeEvents, decodeClaudeStyle } from '../native/claude-form.js';
import { readPayload } from '../native/payload.js';
import { hookEvent, str } from '../native/values.js';
import { commandEntry, jsonHookFile } from '../setup/json-hooks.js';

export const openhands: HookAgent = {
  kind: 'hook',
  name: 'openhands',
  description: 'OpenHands agent hooks',
  telemetry: ['hooks'],
  // Stop can block too, but a refusal there would only keep the agent working, so it is no gate.
  events: claudeEvents(CLAUDE_LIFECYCLE),
  decode(payload) {
    const { p, event } = readPayload(payload, ['hook_event_name', 'event_type']);
    const decoded = decodeClaudeStyle(p, event);
    return hookEvent({
      ...decoded,
      prompt: decoded.phase === 'prompt' ? (decoded.prompt ?? str(p.message)) : undefined,
      cwd: decoded.cwd ?? str(p.working_dir),
    });
  },
  render(event, { action, reason }) {
    if (action === 'allow') return { exit_code: 0 };
    if (action === 'alert') return json({ decision: 'allow', reason });
    if (event.phase === 'pre_tool' || event.phase === 'prompt') return json({ decision: 'deny', reason });
    return notice({ action, reason });
  },
  refusal: exit2,
  setup: {
    ...jsonHookFile('.openhands/hooks.json', { shape: 'nested', container: 'hooks', entry: commandEntry }),
    notes: () => ['OpenHands reads ~/.openhands/hooks.json only in projects without their own .openhands/hooks.json.'],
  },
};
