// A tool call's fingerprint: what chain state stores instead of the call itself. It names the call as the
// parsed facts see it, so the same call spelled differently (quotes, escapes) gets the same fingerprint and a
// replayed deny cannot be dodged by re-quoting; and it is one-way, so no command text reaches the database.
import { createHash } from 'node:crypto';
import type { ActionFacts } from '../facts/types.js';

/**
 * `rawArguments` (e.g. the JSON of the tool input) is used only when the facts say nothing: an unparsed
 * command, or a tool with no effects the facts record; otherwise every such call would share one fingerprint.
 */
export function fingerprintOf(tool: string, facts: ActionFacts | undefined, rawArguments = ''): string {
  const what = facts?.parsed && facts.normalized !== '' ? facts.normalized : rawArguments;
  return createHash('sha256').update(`${tool.toLowerCase()}\0${what}`).digest('base64url').slice(0, 22);
}
