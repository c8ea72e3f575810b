// Reading an agent's native hook payload: it must be a JSON object naming its event, and the event's phase comes
// from the agent's own event table (its definition).
import { isObject, type JsonObject } from '../../util/json.js';
import { HookPayloadError, type HookPhase } from '../hook-event.js';

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : typeof value;
}

/** Checks the payload is an object naming an event in the first of `fields` that holds a non-empty string. */
export function readPayload(payload: unknown, fields: readonly string[]): { p: JsonObject; event: string; field: string } {
  if (!isObject(payload)) throw new HookPayloadError(`hook payload must be a JSON object, got ${kindOf(payload)}`);
  for (const field of fields) {
    const value = payload[field];
    if (typeof value === 'string' && value.trim() !== '') return { p: payload, event: value, field };
  }
  const names = fields.map((f) => `"${f}"`).join(' or ');
  throw new HookPayloadError(`hook payload names no event: expected a non-empty string in ${names}`);
}

/** The phase a native event has in the agent's event table; events the table does not list are `other`. */
export function phaseOf(events: Readonly<Record<string, { phase: HookPhase }>>, event: string): HookPhase {
  return Object.hasOwn(events, event) ? (events[event] as { phase: HookPhase }).phase : 'other';
}
