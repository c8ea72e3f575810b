// Omnigent agent hooks.
// No authoritative external hook format could be found: Omnigent's own docs (omnigent-ai/omnigent, docs/POLICIES.md)
// describe in-process Python policies that return ALLOW, DENY or ASK at enforcement points, not a shell-hook wire
// format. Modelled on the closest documented format, Claude Code's: Warden's hook bridge sends the Claude Code
// payload, and Omnigent's three verdicts map onto permissionDecision allow/deny/ask. So this definition decodes,
// answers and refuses as Claude Code's does (../claudecode/index.ts), on Claude Code's lifecycle events only.
import { claudecode } from '../claudecode/index.js';
import type { HookAgent } from '../definition.js';
import { CLAUDE_LIFECYCLE, claudeEvents } from '../native/claude-form.js';
import { jsonHookFile, commandEntry } from '../setup/json-hooks.js';
import { bestGuessNote } from '../setup/notes.js';

export const omnigent: HookAgent = {
  ...claudecode,
  // Claude Code's wire format, not its CLI: Omnigent has no npm package, so no harness image.
  harness: undefined,
  name: 'omnigent',
  description: 'Omnigent agent hooks',
  telemetry: ['hooks'],
  events: claudeEvents(CLAUDE_LIFECYCLE),
  setup: {
    ...jsonHookFile('.omnigent/settings.json', { shape: 'nested', container: 'hooks', matcher: '*', entry: commandEntry }),
    notes: () => [bestGuessNote('Omnigent')],
  },
};
