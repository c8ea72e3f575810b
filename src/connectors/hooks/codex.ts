// OpenAI Codex CLI: hooks (hooks.json) and the `notify` program.
// Sources: Codex hooks, https://developers.openai.com/codex/hooks (Claude Code wire format: hook_event_name,
// session_id, transcript_path, cwd, model, turn_id; PreToolUse/PostToolUse for Bash, apply_patch and mcp__* tools
// with tool_name/tool_input/tool_use_id/tool_response; Stop last_assistant_message; answers as Claude Code, but a
// PreToolUse "ask" is parsed and fails open, so confirmation is answered as deny). The hookshot Codex reference
// (github.com/CorridorSecurity/hookshot, docs/reference-codex.md) lists the same fields.
// Notify: Codex's config.toml `notify` program receives {"type": "agent-turn-complete", "thread-id", "turn-id",
// "cwd", "input-messages", "last-assistant-message"}; it is fire-and-forget, so nothing it answers is read.
import { decodeClaudeStyle, hookEvent, notice, readPayload, renderClaudeStyle, str } from './shared.js';
import type { ConnectorHooks } from './types.js';

const NOTIFY_EVENTS = new Set(['agent-turn-complete']);

export const codex: ConnectorHooks = {
  decode(payload) {
    const { p, event, field } = readPayload(payload, ['hook_event_name', 'type']);
    if (field === 'hook_event_name') return decodeClaudeStyle(p, event);
    return hookEvent({
      event,
      phase: NOTIFY_EVENTS.has(event) ? 'response' : 'other',
      session_id: str(p['thread-id']),
      response: str(p['last-assistant-message']),
      cwd: str(p.cwd),
    });
  },
  render(event, decision) {
    if (NOTIFY_EVENTS.has(event.event)) return notice(decision);
    return renderClaudeStyle(event, decision, { ask: false });
  },
};
