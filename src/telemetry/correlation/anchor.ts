// The identity anchors the correlation routes accept (spec "Correlation ledger"): exactly one of record_id,
// semantic_event_id, session_id, trace_id or tool_invocation_id. evaluation_id names a finding evaluation, not an
// identity, and is refused. A semantic event is one tool call as every source saw it; its id is derived from the
// tool invocation id, so it needs no table of its own. Cursors are opaque: base64url of the last item's position.
import { WardenError } from '../../errors.js';

export const ANCHOR_KEYS = ['record_id', 'semantic_event_id', 'session_id', 'trace_id', 'tool_invocation_id'] as const;
export type AnchorKey = (typeof ANCHOR_KEYS)[number];

export interface Anchor {
  key: AnchorKey;
  value: string;
}

const badRequest = (code: string, message: string) => new WardenError(code, message, { statusCode: 400 });

export function anchorOf(query: Record<string, unknown>): Anchor {
  if (query.evaluation_id !== undefined) {
    throw badRequest('WARDEN_ERR_CORRELATION_ANCHOR', 'evaluation_id is not an identity anchor; use one of ' + ANCHOR_KEYS.join(', '));
  }
  const given = ANCHOR_KEYS.filter((k) => query[k] !== undefined);
  if (given.length !== 1) {
    throw badRequest('WARDEN_ERR_CORRELATION_ANCHOR', `exactly one identity anchor is needed (${ANCHOR_KEYS.join(', ')}); got ${given.length}`);
  }
  const key = given[0]!;
  const value = query[key];
  if (typeof value !== 'string' || value === '') throw badRequest('WARDEN_ERR_CORRELATION_ANCHOR', `${key} must be a non-empty string`);
  return { key, value };
}

const SEMANTIC_PREFIX = 'sem_';

export const semanticEventId = (toolInvocationId: string): string => SEMANTIC_PREFIX + Buffer.from(toolInvocationId, 'utf8').toString('base64url');

/** The tool invocation id a semantic event id stands for. */
export function toolOfSemanticEvent(id: string): string {
  const tool = id.startsWith(SEMANTIC_PREFIX) ? Buffer.from(id.slice(SEMANTIC_PREFIX.length), 'base64url').toString('utf8') : '';
  if (tool === '' || semanticEventId(tool) !== id) throw badRequest('WARDEN_ERR_CORRELATION_ANCHOR', 'not a semantic_event_id');
  return tool;
}

export interface Position {
  timestamp: string;
  id: string;
}

export const encodeCursor = (p: Position): string => Buffer.from(JSON.stringify([p.timestamp, p.id]), 'utf8').toString('base64url');

export function decodeCursor(cursor: string | undefined): Position | undefined {
  if (cursor === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === 2 && typeof parsed[0] === 'string' && typeof parsed[1] === 'string') {
      return { timestamp: parsed[0], id: parsed[1] };
    }
  } catch {
    // answered below
  }
  throw badRequest('WARDEN_ERR_CORRELATION_CURSOR', 'invalid cursor');
}
