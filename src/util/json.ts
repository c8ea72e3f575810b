// Reading untrusted JSON without throwing: narrowing an unknown value to an object, array, string or
// non-negative integer, with a missing or oddly typed field read as empty. A hostile or malformed body must
// read as "nothing here", never crash the reader.
export type JsonObject = Record<string, unknown>;

/** A plain JSON object (not an array, not null). */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function asObject(value: unknown): JsonObject {
  return isObject(value) ? value : {};
}

export function asArray(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A non-negative integer (indexes, sequence numbers, timestamps), else undefined. */
export function asInteger(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/** JSON.parse that answers undefined instead of throwing. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
