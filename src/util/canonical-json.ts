// Canonical JSON of a plain JSON value: object keys sorted, no whitespace, so two documents with the same content
// give the same text (and the same digest) whatever order their keys were written in. Used for content digests
// (MCP tool definitions, whose recorded hashes depend on this exact form, and sandbox packs). An `undefined`
// value is written as `null`.
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    return `{${Object.keys(object).sort().map((key) => `${JSON.stringify(key)}:${canonicalJson(object[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
