// config.yaml `telemetry`: what the OTLP receiver keeps (src/telemetry/) and for how long. Its own file so that
// parallel work on other sections never edits the same lines of schema.ts.
import Type from 'typebox';

export const TelemetrySection = Type.Object(
  {
    retention_days: Type.Integer({
      minimum: 0,
      maximum: 3650,
      default: 30,
      description: 'Days the OTLP records in `$WARDEN_HOME/telemetry.db` (agent events, span and metric summaries) are kept; ' +
        'older ones are deleted at start and every hour. 0 keeps them forever.',
    }),
    store_prompt_text: Type.Boolean({
      default: false,
      description: 'Keep the text of user prompts that an agent\'s telemetry carries (Claude Code with OTEL_LOG_USER_PROMPTS=1, ' +
        'Codex with log_user_prompt, Gemini CLI with logPrompts). Off: only the prompt\'s length and SHA-256 are kept.',
    }),
  },
  { additionalProperties: false, default: {}, description: 'What the OTLP receiver keeps (see [telemetry.md](telemetry.md)).' },
);
