// OpenHands agent hooks (.openhands/hooks.json).
// Sources: OpenHands hooks, https://docs.openhands.dev/openhands/usage/customization/hooks ("compatible with Claude
// Code hooks": PreToolUse, PostToolUse, UserPromptSubmit, Stop, SessionStart, SessionEnd) and the SDK that runs them,
// github.com/OpenHands/software-agent-sdk openhands-sdk/openhands/sdk/hooks/{types,executor}.py: stdin is
// {event_type, tool_name, tool_input, tool_output, message, session_id, working_dir, metadata}; exit code 2 blocks;
// on exit 0 stdout JSON is read for decision ("allow" | "deny"; "ask" is not implemented), reason,
// additionalContext and continue. PreToolUse, UserPromptSubmit and Stop can block; there is no ask, so confirmation
// is answered as deny. Claude Code's hook_event_name/cwd/prompt spellings are read too.
import { decodeClaudeStyle, hookEvent, json, notice, readPayload, str } from './shared.js';
import type { ConnectorHooks } from './types.js';

export const openhands: ConnectorHooks = {
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
};
