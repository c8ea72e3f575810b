// Writers for an agent's own OpenTelemetry settings, used by the `otelSetup` of each agent's definition
// (`warden setup <connector> --telemetry`): a JSON settings file's `env` block (Claude Code), a JSON settings
// object (Gemini CLI's `telemetry`), and Codex's `[otel]` table in config.toml, written as one marked block the
// way codex-toml.ts writes the hooks (the user's comments and layout kept), checked with smol-toml.
import { stringify } from 'smol-toml';
import { isObject, type JsonObject } from '../../util/json.js';
import { AgentConfigError, formatJson } from './config-file.js';
import { parseCodexToml } from './codex-toml-check.js';
import { editJsonc, parseJsoncObject } from './jsonc-edit.js';

/** Where and how the agent exports: the sidecar's base URL, the source name, and its credential. */
export interface OtelTarget {
  endpoint: string;
  source: string;
  /** The scoped OTLP token; undefined for a source that authenticates otherwise (geminicli). */
  token?: string;
}

/** The OTLP headers Warden needs: the scoped token, the source it belongs to, and the CSRF client header. */
export function otlpHeaders(target: OtelTarget): Record<string, string> {
  return {
    ...(target.token ? { Authorization: `Bearer ${target.token}` } : {}),
    'X-Warden-Source': target.source,
    'X-Warden-Client': target.source,
  };
}

/** The agent's settings file with `key` set to `value(previous)`; comments and layout kept. */
function setJsonKey(text: string | undefined, key: string, value: (previous: unknown) => JsonObject): string {
  const before = parseJsoncObject(text);
  const after = { ...before, [key]: value(before[key]) };
  return text === undefined || text.trim() === '' ? formatJson(after) : editJsonc(text, before, after);
}

/** A JSON settings file whose `env` object the agent exports into its own environment (Claude Code). */
export function installJsonEnv(text: string | undefined, env: Record<string, string>): string {
  return setJsonKey(text, 'env', (previous) => {
    if (previous !== undefined && !isObject(previous)) throw new AgentConfigError('"env" is not an object');
    return { ...(previous ?? {}), ...env };
  });
}

/** A JSON settings file's object `key` merged with `settings` (Gemini CLI's `telemetry`). */
export function installJsonObject(text: string | undefined, key: string, settings: JsonObject): string {
  return setJsonKey(text, key, (previous) => {
    if (previous !== undefined && !isObject(previous)) throw new AgentConfigError(`"${key}" is not an object`);
    return { ...(previous ?? {}), ...settings };
  });
}

const BEGIN = '# >>> warden telemetry: written by `warden setup codex --telemetry` >>>';
const END = '# <<< warden telemetry <<<';

function withoutBlock(text: string): string {
  const start = text.indexOf(BEGIN);
  if (start < 0) return text;
  const end = text.indexOf(END, start);
  if (end < 0) throw new AgentConfigError('Warden\'s telemetry block has no end marker; fix the file by hand');
  return text.slice(0, start).replace(/\n+$/, '\n') + text.slice(end + END.length).replace(/^\n/, '');
}

/** Codex's config.toml with an `[otel]` table exporting OTLP/HTTP protobuf logs to Warden. */
export function installCodexOtel(text: string | undefined, target: OtelTarget, table: JsonObject): string {
  const base = withoutBlock(text ?? '');
  const parsed = parseCodexToml(base, 'the file');
  if (parsed.otel !== undefined) throw new AgentConfigError('it already has an [otel] table of its own; remove it (Warden writes its own) or point it at Warden by hand');
  const block = `${BEGIN}\n${stringify({ otel: table }).trim()}\n${END}\n`;
  const after = `${base}${base === '' || base.endsWith('\n') ? '' : '\n'}${base === '' ? '' : '\n'}${block}`;
  const check = parseCodexToml(after, "Warden's edit");
  if (!isObject(check.otel)) throw new AgentConfigError("Warden's edit lost its [otel] table; please report this");
  return after;
}
