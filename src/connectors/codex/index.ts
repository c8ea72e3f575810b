// OpenAI Codex CLI: hooks (hooks.json) and the `notify` program.
// Sources: Codex hooks, https://developers.openai.com/codex/hooks (Claude Code wire format: hook_event_name,
// session_id, transcript_path, cwd, model, turn_id; PreToolUse/PostToolUse for Bash, apply_patch and mcp__* tools
// with tool_name/tool_input/tool_use_id/tool_response; Stop last_assistant_message; answers as Claude Code, but a
// PreToolUse "ask" is parsed and fails open, so confirmation is answered as deny). The hookshot Codex reference
// (github.com/CorridorSecurity/hookshot, docs/reference-codex.md) lists the same fields.
// Notify: Codex's config.toml `notify` program receives {"type": "agent-turn-complete", "thread-id", "turn-id",
// "cwd", "input-messages", "last-assistant-message"}; it is fire-and-forget, so nothing it answers is read. Setup
// installs the hook command with `--notify`, which posts it to POST /api/v1/codex/notify. Codex runs one notify
// program: a user's own is kept and Warden's left out (a note says how to chain them), never replaced or wrapped,
// since wrapping would run the user's program from Warden's hook and change what their config says.
import { decodedOnly, type HookAgent } from '../definition.js';
import { exit2, notice } from '../native/answers.js';
import { CLAUDE_LIFECYCLE, claudeEvents, decodeClaudeStyle, renderClaudeStyle } from '../native/claude-form.js';
import { readPayload } from '../native/payload.js';
import { hookEvent, str } from '../native/values.js';
import { codexConfigInstalled, foreignCodexNotify, installCodexConfig, removeCodexConfig } from '../setup/codex-toml.js';
import { installCodexOtel, otlpHeaders } from '../setup/otel-settings.js';

const NOTIFY_EVENTS = new Set(['agent-turn-complete']);

export const codex: HookAgent = {
  kind: 'hook',
  name: 'codex',
  description: 'OpenAI Codex CLI (hooks and notify)',
  telemetry: ['hooks', 'otel', 'notify'],
  events: {
    ...claudeEvents(CLAUDE_LIFECYCLE),
    // Arrives through `notify`, which setup writes beside the hooks (it is not a hook event).
    'agent-turn-complete': decodedOnly('response'),
  },
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
  refusal: exit2,
  harness: { package: '@openai/codex', version: '0.169.0', bin: 'codex' },
  setup: {
    file: '.codex/config.toml',
    install: installCodexConfig,
    remove: removeCodexConfig,
    installed: codexConfigInstalled,
    notes: (text) => [
      'Codex runs new hooks only once you trust them: open /hooks in Codex and review them.',
      ...(foreignCodexNotify(text) ? [
        'config.toml already sets notify to another program (Codex runs only one), so Warden\'s turn-complete notifier ' +
          'was not installed; the hooks were. To have both, make your program also run Warden\'s: the same command as ' +
          'the hooks with `--notify` in place of `--event …`, given the notification JSON as its last argument.',
      ] : []),
    ],
  },
  // Codex's `[otel]` table (docs/config.md): its events as OTLP/HTTP protobuf logs, prompts not logged.
  otelSetup: {
    file: '.codex/config.toml',
    scoped: true,
    install: (text, target) => installCodexOtel(text, target, {
      log_user_prompt: false,
      exporter: { 'otlp-http': { endpoint: `${target.endpoint}/v1/logs`, protocol: 'binary', headers: otlpHeaders(target) } },
    }),
    notes: ['~/.codex/config.toml now holds the scoped OTLP token (it opens only Codex telemetry ingest); restart Codex to start exporting.'],
  },
};
