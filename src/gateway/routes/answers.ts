// Answer schemas several sidecar route families share, for /openapi.json and for serialisation. A large answer
// built elsewhere (a scan result) is described by its main fields and declared open: fast-json-stringify drops
// the fields a closed schema does not name, and an answer must never lose a field to its documentation.
import Type, { type TProperties } from 'typebox';

/** Every sidecar error answer (gateway/plugins/errors.ts). */
export const ErrorBody = Type.Object({ error: Type.String(), code: Type.String({ description: 'stable code, see docs/errors.md' }) });

export const StatusOk = Type.Object({ status: Type.Literal('ok') });

/** An object answer described by its main fields; its other fields are passed on as they are. */
export const OpenObject = <T extends TProperties>(properties: T, description: string) =>
  Type.Object(properties, { additionalProperties: true, description });

/** What every scan answer carries (skill, plugin, code and MCP scans; docs/scanners.md has the rest). */
export const ScanSummary = {
  scan_id: Type.String(),
  is_safe: Type.Boolean(),
  max_severity: Type.String(),
  findings_count: Type.Integer(),
};
