// Typed reads of single payload fields (a non-empty string, an id, an object), and the decoded event
// without its unset fields, so decoded events compare and serialise cleanly.
import type { DecodedHookEvent } from '../hook-event.js';
import { isObject, type JsonObject } from '../../util/json.js';

/** A non-empty string, or undefined. */
export function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** An identifier the agent may send as a string or a number. */
export function id(value: unknown): string | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : str(value);
}

export function obj(value: unknown): JsonObject | undefined {
  return isObject(value) ? value : undefined;
}

/** The object without its undefined fields; undefined if nothing is left. */
export function defined<T extends object>(value: T): T | undefined {
  const out = Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
  return Object.keys(out).length > 0 ? out : undefined;
}

/** A decoded event without its undefined fields. */
export function hookEvent(value: DecodedHookEvent): DecodedHookEvent {
  return defined(value) as DecodedHookEvent;
}
