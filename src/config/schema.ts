// The config.yaml schema (config_version 9). One TypeBox schema gives the TypeScript type, the validator and
// the defaults; every object rejects unknown keys so a typo is an error, not a silently ignored setting.
import Type, { type Static } from 'typebox';

export const CURRENT_CONFIG_VERSION = 9;

/**
 * One of a fixed list of strings, as an `anyOf` of literals (what the config error messages list). A union
 * built from a mapped array loses its static type, so the type is stated with Type.Unsafe.
 */
export function oneOf<const T extends readonly string[]>(values: T, options: { default?: T[number] } = {}) {
  return Type.Unsafe<T[number]>(Type.Union(values.map((v) => Type.Literal(v)), options));
}

export const SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'] as const;
export const Severity = oneOf(SEVERITIES);
export type Severity = (typeof SEVERITIES)[number];

const strict = { additionalProperties: false, default: {} } as const;
const Port = (port: number) => Type.Integer({ minimum: 0, maximum: 65535, default: port });
const Enum = <const T extends readonly string[]>(values: T, fallback: T[number]) => oneOf(values, { default: fallback });

export const GatewaySection = Type.Object(
  {
    api_port: Port(18970),
    /** Empty: 127.0.0.1 (see bind.ts for the legacy standalone exception). */
    api_bind: Type.String({ default: '' }),
    /** The upstream agent gateway (not the guardrail proxy). */
    host: Type.String({ default: '127.0.0.1' }),
    port: Port(18789),
    token: Type.String({ default: '' }),
    /** Name of an environment variable that holds the gateway token; checked first. */
    token_env: Type.String({ default: '', pattern: '^([A-Za-z_][A-Za-z0-9_]*)?$' }),
    log_level: Enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info'),
  },
  strict,
);

export const GuardrailSection = Type.Object(
  {
    enabled: Type.Boolean({ default: true }),
    host: Type.String({ default: '127.0.0.1' }),
    port: Port(4000),
    mode: Enum(['observe', 'action'] as const, 'action'),
    rule_pack: Type.String({ default: 'default', pattern: '^[a-z0-9][a-z0-9_.-]*$' }),
    /** Unset: follow the rule pack (see thresholds in the guardrail engine). */
    block_at: Type.Optional(Severity),
    alert_at: Type.Optional(Severity),
    hilt_enabled: Type.Boolean({ default: false }),
    hilt_min_severity: oneOf(SEVERITIES, { default: 'HIGH' }),
    /** The primary connector; `connectors` lists further active ones. */
    connector: Type.String({ default: 'claudecode' }),
    connectors: Type.Array(Type.String(), { default: [] }),
    hook_fail_mode: Enum(['closed', 'open'] as const, 'closed'),
  },
  strict,
);

export const OpenshellSection = Type.Object(
  {
    enabled: Type.Boolean({ default: false }),
    /** `standalone` marks a legacy sandbox host that has not been cleaned up yet. */
    mode: Enum(['', 'standalone', 'managed'] as const, ''),
  },
  strict,
);

export const FleetSection = Type.Object(
  {
    enabled: Type.Boolean({ default: false }),
    /** Tenant-scoped API tokens: `{"<tenant_id>": "<token>"}` (WARDEN_FLEET_TENANT_TOKENS wins per tenant). */
    tenant_tokens: Type.Record(Type.String({ pattern: '^(0|[1-9][0-9]{0,4})$' }), Type.String({ minLength: 16 }), { default: {} }),
    /** A TLS-terminating proxy sits in front of a non-loopback sidecar, so keys may be delivered over it. */
    trusted_tls_proxy: Type.Boolean({ default: false }),
    mqtt: Type.Object(
      {
        /** An external broker (`mqtt://host:1883`, `mqtts://…`); empty: the embedded broker. */
        url: Type.String({ default: '', pattern: '^(|mqtts?://.+)$' }),
        /** Start an embedded broker on 127.0.0.1 when no url is set. */
        embedded: Type.Boolean({ default: true }),
        embedded_port: Port(1883),
        /** MQTT version towards an external broker: 5 reports a refused publication (ACL) as a PUBACK reason code; 3.1.1 cannot. */
        protocol_version: Type.Union([Type.Literal(4), Type.Literal(5)], { default: 5 }),
        /** User name at an external broker; the password is WARDEN_FLEET_MQTT_PASSWORD, never this file. */
        username: Type.String({ default: '' }),
        /** Devices without a key may enroll over MQTT and get one (local development; embedded broker only). */
        auto_register: Type.Boolean({ default: false }),
      },
      strict,
    ),
  },
  strict,
);

export const ScannerSection = Type.Object(
  {
    /** Folders /v1/skill/fetch may package skills from (`~` is the home directory). */
    skill_roots: Type.Array(Type.String({ minLength: 1 }), { default: ['~/.claude/skills'] }),
    /** Folders /v1/skill/fetch may package plugins from. */
    plugin_roots: Type.Array(Type.String({ minLength: 1 }), { default: ['~/.claude/plugins'] }),
    allowed_roots: Type.Array(Type.String({ minLength: 1 }), {
      default: [],
      description: 'Further folders the sidecar scan routes may read (project folders for /api/v1/scan/code), besides ' +
        'skill_roots, plugin_roots, the agent skill folders and SKILL_SCANNER_ALLOWED_ROOTS; `~` is the home directory.',
    }),
  },
  strict,
);

export const LlmSection = Type.Object(
  {
    /** Upstream of /v1/chat/completions when a request names no X-Warden-Target-URL. */
    base_url: Type.String({ default: 'https://api.openai.com', pattern: '^https?://' }),
    /** What GET /v1/models on the proxy lists. */
    models: Type.Array(Type.String({ minLength: 1 }), { default: [] }),
    /** Longest wait for upstream progress (the answer's headers, or its next bytes) before 504 / end of stream. */
    timeout_ms: Type.Integer({ minimum: 100, maximum: 3_600_000, default: 300_000 }),
  },
  strict,
);

export const CustomProvider = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    domains: Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }),
    /** How the credential goes upstream: `authorization` (Bearer), another header name, `passthrough`, or `as-sent` (unset: the client's own header). */
    auth_header: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9-]+$' })),
    base_url: Type.Optional(Type.String({ pattern: '^https?://' })),
  },
  { additionalProperties: false },
);

export const LlmProvidersSection = Type.Object(
  { custom: Type.Array(CustomProvider, { default: [] }) },
  strict,
);

export const ConfigSchema = Type.Object(
  {
    config_version: Type.Literal(CURRENT_CONFIG_VERSION),
    gateway: GatewaySection,
    guardrail: GuardrailSection,
    openshell: OpenshellSection,
    fleet: FleetSection,
    scanner: ScannerSection,
    llm: LlmSection,
    llm_providers: LlmProvidersSection,
  },
  { additionalProperties: false },
);

export type Config = Static<typeof ConfigSchema>;
