// Every built-in connector, one registration line each, in the order `warden setup --list` and GET /connectors
// show them. Adding an agent: its folder (src/connectors/<agent>/, one HookAgent definition) and a line here; the
// registry, `warden setup`, the hook route and the hook script's fail-closed answer (which setup writes into the
// script's settings file) all follow from the definition.
import { antigravity } from './antigravity/index.js';
import { claudecode } from './claudecode/index.js';
import { codex } from './codex/index.js';
import { copilot } from './copilot/index.js';
import { cursor } from './cursor/index.js';
import type { ConnectorDefinition } from './definition.js';
import { geminicli } from './geminicli/index.js';
import { hermes } from './hermes/index.js';
import { omnigent } from './omnigent/index.js';
import { opencode } from './opencode/index.js';
import { openhands } from './openhands/index.js';
import { openclaw, zeptoclaw } from './proxy-clients/index.js';
import { windsurf } from './windsurf/index.js';

export const CONNECTORS: readonly ConnectorDefinition[] = [
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
  openclaw,
  zeptoclaw,
];
