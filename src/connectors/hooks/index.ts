// The hook connectors by name: each decodes its agent's native hook payload and renders Warden's decision in the
// agent's native answer form. Names match the hook connectors in ../registry.ts.
import { antigravity } from './antigravity.js';
import { claudecode } from './claudecode.js';
import { codex } from './codex.js';
import { copilot } from './copilot.js';
import { cursor } from './cursor.js';
import { geminicli } from './geminicli.js';
import { hermes } from './hermes.js';
import { omnigent } from './omnigent.js';
import { opencode } from './opencode.js';
import { openhands } from './openhands.js';
import type { ConnectorHooks } from './types.js';
import { windsurf } from './windsurf.js';

export const HOOK_CONNECTORS: Readonly<Record<string, ConnectorHooks>> = Object.freeze({
  claudecode,
  codex,
  cursor,
  windsurf,
  geminicli,
  copilot,
  openhands,
  antigravity,
  opencode,
  hermes,
  omnigent,
});
