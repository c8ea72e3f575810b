// Caller-supplied objects stored in audit rows (`structured`, egress `details`) are serialised when the row
// is appended, not when its batch commits: a value that cannot be stored is refused to its own caller (400)
// and can never take other callers' rows down with it. Depth and size are bounded so one request cannot make
// the writer recurse 100,000 levels or store megabytes per row.
import { WardenError } from '../errors.js';
import { AUDIT_LIMITS } from './limits.js';

export const { maxRowObjectDepth: MAX_ROW_OBJECT_DEPTH, maxRowObjectChars: MAX_ROW_OBJECT_CHARS } = AUDIT_LIMITS;

export class AuditRowRejected extends WardenError {
  constructor(message: string) {
    super('WARDEN_ERR_AUDIT_ROW_INVALID', message, { statusCode: 400 });
  }
}

/** `value` as JSON text, or AuditRowRejected when it is too deep, too large or not serialisable. */
export function serialiseRowObject(value: unknown, field: string): string {
  if (depthExceeds(value, MAX_ROW_OBJECT_DEPTH)) {
    throw new AuditRowRejected(`${field} is nested more than ${MAX_ROW_OBJECT_DEPTH} levels deep`);
  }
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (err) {
    throw new AuditRowRejected(`${field} cannot be stored as JSON: ${(err as Error).message}`);
  }
  if (text === undefined) throw new AuditRowRejected(`${field} cannot be stored as JSON`);
  if (text.length > MAX_ROW_OBJECT_CHARS) {
    throw new AuditRowRejected(`${field} is ${text.length} characters as JSON; at most ${MAX_ROW_OBJECT_CHARS} are stored`);
  }
  return text;
}

/** True when arrays and objects in `value` nest deeper than `limit` (never recurses past `limit`). */
function depthExceeds(value: unknown, limit: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (limit === 0) return true;
  for (const item of Array.isArray(value) ? value : Object.values(value)) {
    if (depthExceeds(item, limit - 1)) return true;
  }
  return false;
}
