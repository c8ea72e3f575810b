// Every environment variable Warden reads about itself, in one TypeBox schema: its meaning (the table in
// docs/configuration.md is generated from it), its shape, and one reader that checks a value before anything
// uses it. A malformed value stops the caller with WARDEN_ERR_CONFIG_ENV_INVALID naming the variable and what
// it expects, never the value (it may be a secret). A variable is read where it is used (the environment a
// server or a test was given), so one bad optional variable does not stop a start that never needs it.
// Not here: the variable that `gateway.token_env` names (any name; read by token.ts) and names of variables in
// code the scanners analyse.
import Type, { type Static, type TSchema } from 'typebox';
import Value from 'typebox/value';
import { WardenError } from '../errors.js';
import { oneOf } from './schema.js';

const ENV_INVALID = 'WARDEN_ERR_CONFIG_ENV_INVALID';

/** Extra keyword on a variable's schema: what a valid value looks like, for the error message and the docs. */
type Expected = { 'x-expected'?: string };

const Text = (description: string) => Type.Optional(Type.String({ description }));
const Secret = (description: string) => Type.Optional(Type.String({ description, 'x-secret': true }));
const HexKey = (description: string) =>
  Type.Optional(Type.String({ description, pattern: '^[0-9a-fA-F]{64}$', 'x-expected': '64 hex digits (32 bytes)', 'x-secret': true }));
const HttpUrl = (description: string, fallback: string) =>
  Type.Optional(Type.String({ description, default: fallback, pattern: '^[hH][tT][tT][pP][sS]?://', 'x-expected': 'an http or https URL' }));
const Milliseconds = (description: string, fallback: number) =>
  Type.Optional(Type.Integer({ description, default: fallback, minimum: 1, 'x-expected': 'a positive whole number of milliseconds' }));

export const EnvSchema = Type.Object({
  WARDEN_HOME: Text('Data directory holding config.yaml, .env, the databases and keys (default `~/.warden`).'),
  WARDEN_LOG_LEVEL: Type.Optional(oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, {
    description: 'Overrides `gateway.log_level` for this process.',
  })),
  WARDEN_BWRAP: Text('The bubblewrap program the sandbox manager runs (default: `bwrap` on `PATH`).'),
  WARDEN_GATEWAY_TOKEN: Secret('The gateway token (also read from `$WARDEN_HOME/.env`, where the first start writes it).'),
  AGENT_GATEWAY_TOKEN: Secret('Legacy name of the gateway token, read after `WARDEN_GATEWAY_TOKEN`.'),
  WARDEN_FLEET_API_TOKEN: Secret('Admin token of the device fleet API (all tenants).'),
  WARDEN_FLEET_TENANT_TOKENS: Type.Optional(Type.String({
    description: 'Tenant-scoped fleet API tokens, `<tenant_id>:<token>,…`; wins per tenant over `fleet.tenant_tokens`.',
    'x-expected': '`<tenant_id>:<token>` pairs (uint16 tenant, token of 16+ characters), comma-separated',
    'x-secret': true,
  })),
  WARDEN_FLEET_MQTT_PASSWORD: Secret('Password at the external MQTT broker (`fleet.mqtt.username`); never in config.yaml.'),
  WARDEN_FLEET_VAULT_KEY: HexKey('Key sealing device keys in fleet.db; unset: `$WARDEN_HOME/fleet.key` (created on first use).'),
  WARDEN_OTA_HMAC_KEY: HexKey('Key signing the device policies pushed to devices (OTA); unset: policy pushes answer 501.'),
  WARDEN_EMERGENCY_KEY: HexKey('Key signing emergency commands sent to devices; unset: emergency commands answer 501.'),
  HOME: Text('The user\'s home folder: where `~` in scan roots and the agents\' skill folders are looked for.'),
  SKILL_SCANNER_ALLOWED_ROOTS: Type.Optional(Type.String({
    description: 'Folders (`:`-separated) the skill scanner may read, besides the configured roots.',
  })),
  SKILL_SCANNER_HTTP_TIMEOUT_MS: Milliseconds('Deadline of each lookup of the reputation, OSV and AI Guard analyzers, its retries included.', 10_000),
  SKILL_SCANNER_OSV_URL: HttpUrl('OSV API the dependency analyzer asks about vulnerable packages.', 'https://api.osv.dev'),
  SKILL_SCANNER_KNOWN_BAD_FILE: Text('Extra file of known-bad SHA-256 digests (one a line), besides the shipped list.'),
  SKILL_SCANNER_REPUTATION_URL: Type.Optional(Type.String({
    description: 'Reputation service the reputation analyzer asks about file digests (with `SKILL_SCANNER_REPUTATION_API_KEY`); unset: the known-bad lists only.',
    pattern: '^[hH][tT][tT][pP][sS]?://',
    'x-expected': 'an http or https URL',
  })),
  SKILL_SCANNER_REPUTATION_API_KEY: Secret('Bearer key for `SKILL_SCANNER_REPUTATION_URL`.'),
  SKILL_SCANNER_LLM_API_KEY: Secret('Key of the LLM used by the `llm` and `meta` analyzers; unset: they are unavailable.'),
  SKILL_SCANNER_LLM_BASE_URL: HttpUrl('OpenAI-compatible API of the `llm` and `meta` analyzers.', 'https://api.openai.com/v1'),
  SKILL_SCANNER_LLM_MODEL: Type.Optional(Type.String({ description: 'Model the `llm` and `meta` analyzers ask.', default: 'gpt-4o-mini' })),
  SKILL_SCANNER_LLM_TIMEOUT_MS: Type.Optional(Type.Integer({
    description: 'Deadline of each LLM call; unset: `SKILL_SCANNER_HTTP_TIMEOUT_MS` when that is set, else 60000 ' +
      '(an LLM answer takes longer than a lookup).',
    minimum: 1,
    'x-expected': 'a positive whole number of milliseconds',
  })),
  AI_GUARD_API_KEY: Secret('Key of the AI Guard service; unset: the `ai_guard` analyzer is unavailable.'),
  AI_GUARD_URL: HttpUrl('AI Guard service the `ai_guard` analyzer calls.', 'http://127.0.0.1:8090'),
});

export type WardenEnv = Static<typeof EnvSchema>;
export type EnvName = keyof WardenEnv;
export type EnvSource = Readonly<Record<string, string | undefined>>;

const variables = EnvSchema.properties as unknown as Record<EnvName, TSchema & Expected & { type?: string; default?: unknown }>;

/**
 * The value of `name` in `env`, trimmed and checked against its schema (a number for integer variables). Unset
 * or blank: `fallback` when given, else the schema's default, else undefined. Throws
 * WARDEN_ERR_CONFIG_ENV_INVALID when the value does not fit.
 */
export function envVar<N extends EnvName>(env: EnvSource, name: N, options: { fallback?: WardenEnv[N] } = {}): WardenEnv[N] {
  const schema = variables[name];
  const text = env[name]?.trim();
  if (!text) return ('fallback' in options ? options.fallback : schema.default) as WardenEnv[N];
  const value: unknown = schema.type === 'integer' ? Number(text) : text;
  if (!Value.Check(schema, value)) throw envInvalid(name, schema);
  return value as WardenEnv[N];
}

/** Whether `name` has a non-blank value in `env`, without checking it (for "is this feature configured"). */
export const envIsSet = (env: EnvSource, name: EnvName): boolean => Boolean(env[name]?.trim());

/** The error for a malformed `name` (also thrown by readers that check more than the schema can say). */
export function envInvalid(name: EnvName, schema: Expected = variables[name]): WardenError {
  const allowed = (schema as { anyOf?: { const: string }[] }).anyOf?.map((v) => JSON.stringify(v.const)).join(', ');
  const expected = schema['x-expected'] ?? (allowed ? `one of ${allowed}` : 'a valid value');
  return new WardenError(ENV_INVALID, `environment variable ${name} must be ${expected}`);
}
