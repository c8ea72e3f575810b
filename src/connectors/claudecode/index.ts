// Claude Code hooks (settings.json).
// Source: Claude Code hooks reference, https://code.claude.com/docs/en/hooks (common input fields session_id,
// transcript_path, cwd, permission_mode, hook_event_name; PreToolUse tool_name/tool_input/tool_use_id; PostToolUse
// tool_response; PostToolUseFailure error; UserPromptSubmit prompt; Stop last_assistant_message; decision control:
// PreToolUse hookSpecificOutput.permissionDecision allow|deny|ask + permissionDecisionReason, top-level
// decision "block" + reason for UserPromptSubmit/PostToolUse/Stop, systemMessage "warning shown to the user";
// exit code 2 = blocking error with stderr fed to Claude). PostToolUse runs only after a successful call.
// Alert deliberately does not answer permissionDecision "allow": that would skip the user's own permission prompt.
import type { HookAgent } from '../definition.js';
import { exit2 } from '../native/answers.js';
import { CLAUDE_LIFECYCLE, claudeEvents, decodeClaudeStyle, renderClaudeStyle } from '../native/claude-form.js';
import { readPayload } from '../native/payload.js';
import { jsonHookFile, commandEntry } from '../setup/json-hooks.js';
import { installJsonEnv, otlpHeaders } from '../setup/otel-settings.js';

export const claudecode: HookAgent = {
  kind: 'hook',
  name: 'claudecode',
  description: 'Anthropic Claude Code (settings.json hooks)',
  telemetry: ['hooks', 'otel'],
  events: claudeEvents([...CLAUDE_LIFECYCLE, 'SubagentStop', 'Notification', 'PreCompact']),
  decode(payload) {
    const { p, event } = readPayload(payload, ['hook_event_name']);
    return decodeClaudeStyle(p, event, { postToolUseMeansSuccess: true });
  },
  render: (event, decision) => renderClaudeStyle(event, decision, { ask: true }),
  refusal: exit2,
  harness: { package: '@anthropic-ai/claude-code', version: '2.1.332', bin: 'claude' },
  setup: jsonHookFile('.claude/settings.json', { shape: 'nested', container: 'hooks', matcher: '*', entry: commandEntry }),
  // Claude Code's monitoring settings ("Monitoring usage" in its docs) are environment variables, which it also reads
  // from the `env` block of ~/.claude/settings.json: logs (its events) and metrics over OTLP/HTTP protobuf.
  otelSetup: {
    file: '.claude/settings.json',
    scoped: true,
    install: (text, target) => installJsonEnv(text, {
      CLAUDE_CODE_ENABLE_TELEMETRY: '1',
      OTEL_LOGS_EXPORTER: 'otlp',
      OTEL_METRICS_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      OTEL_EXPORTER_OTLP_ENDPOINT: target.endpoint,
      OTEL_EXPORTER_OTLP_HEADERS: Object.entries(otlpHeaders(target)).map(([k, v]) => `${k}=${v}`).join(','),
    }),
    notes: ['~/.claude/settings.json now holds the scoped OTLP token (it opens only Claude Code telemetry ingest); restart Claude Code to start exporting.'],
  },
};
