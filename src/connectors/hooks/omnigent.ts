// Omnigent agent hooks.
// No authoritative external hook format could be found: Omnigent's own docs (omnigent-ai/omnigent, docs/POLICIES.md)
// describe in-process Python policies that return ALLOW, DENY or ASK at enforcement points, not a shell-hook wire
// format. Modelled on the closest documented format, Claude Code's (the registry already lists Claude Code's
// lifecycle event names for this connector): Warden's hook bridge sends the Claude Code payload, and Omnigent's three
// verdicts map onto permissionDecision allow/deny/ask. So this connector is the Claude Code one (see claudecode.ts).
import { claudecode } from './claudecode.js';
import type { ConnectorHooks } from './types.js';

export const omnigent: ConnectorHooks = claudecode;
