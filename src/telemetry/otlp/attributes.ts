// OTLP attribute lists (`[{key, value: AnyValue}]`) as plain objects, and the small readers the per-agent maps
// use on them. Values come from agents and exporters we do not control: every reader tolerates a missing or
// oddly typed value, and nesting is bounded.
import { TELEMETRY_LIMITS } from '../limits.js';

export type Attributes = Record<string, unknown>;

function anyValue(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  if (v.stringValue !== undefined) return String(v.stringValue);
  if (v.boolValue !== undefined) return Boolean(v.boolValue);
  if (v.intValue !== undefined) {
    const n = Number(v.intValue);
    return Number.isSafeInteger(n) ? n : String(v.intValue);
  }
  if (v.doubleValue !== undefined) return Number(v.doubleValue);
  if (v.bytesValue !== undefined) return Buffer.isBuffer(v.bytesValue) || v.bytesValue instanceof Uint8Array ? Buffer.from(v.bytesValue).toString('base64') : String(v.bytesValue);
  if (depth >= TELEMETRY_LIMITS.attributeDepth) return null;
  if (v.arrayValue !== undefined) {
    const values = (v.arrayValue as { values?: unknown[] }).values;
    return Array.isArray(values) ? values.map((x) => anyValue(x, depth + 1)) : [];
  }
  if (v.kvlistValue !== undefined) return attributesOf((v.kvlistValue as { values?: unknown }).values, depth + 1);
  return null;
}

/** `[{key, value}]` → `{key: value}`; a later duplicate key wins, as in the OTel SDKs. */
export function attributesOf(list: unknown, depth = 0): Attributes {
  const out: Attributes = {};
  if (!Array.isArray(list)) return out;
  for (const kv of list) {
    if (typeof kv !== 'object' || kv === null) continue;
    const key = (kv as { key?: unknown }).key;
    if (typeof key !== 'string' || key === '' || key === '__proto__') continue;
    out[key] = anyValue((kv as { value?: unknown }).value, depth);
  }
  return out;
}

/** The body of a log record as text, when it is a string. */
export const anyValueText = (value: unknown): string | undefined => {
  const v = anyValue(value, TELEMETRY_LIMITS.attributeDepth);
  return typeof v === 'string' ? v : undefined;
};

export function text(attrs: Attributes, ...keys: string[]): string | undefined {
  for (const key of keys) {
    const v = attrs[key];
    if (typeof v === 'string' && v !== '') return v;
    if (typeof v === 'number') return String(v);
  }
  return undefined;
}

export function number(attrs: Attributes, ...keys: string[]): number | undefined {
  for (const key of keys) {
    const v = attrs[key];
    const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
    if (Number.isFinite(n)) return n;
  }
  return undefined;
}

/** Agents send booleans as booleans or as the strings "true"/"false". */
export function flag(attrs: Attributes, ...keys: string[]): boolean | undefined {
  for (const key of keys) {
    const v = attrs[key];
    if (typeof v === 'boolean') return v;
    if (v === 'true') return true;
    if (v === 'false') return false;
  }
  return undefined;
}
