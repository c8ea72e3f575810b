// The config.yaml schema (config_version 9). One TypeBox schema gives the TypeScript type, the validator, the
// defaults, config.schema.json for editors and the key table of docs/configuration.md (scripts/emit-schemas.ts):
// every key carries a `description` an operator can act on. Every object rejects unknown keys so a typo is an
// error, not a silently ignored setting.
import Type, { type Static } from 'typebox';
import { AiDiscoverySection } from './sections/ai-discovery.js';
import { CustomPacksSection } from './sections/custom-packs.js';
import { JudgeSource } from './sections/judge-source.js';
import { OllamaPorts } from './sections/llm-providers.js';
import { DeploymentSection } from './sections/deployment.js';
import { guardrailRuntimeKeys } from './sections/guardrail-runtime.js';
import { openshellPolicyKeys } from './sections/openshell-policy.js';
import { OpenshellHooksKeys } from './sections/openshell-hooks.js';
import { OpenshellRuntimeKeys } from './sections/openshell.js';
import { OpenshellEgressSection } from './sections/openshell-egress.js';
import { RulesSection } from './sections/rules.js';
import { ScannersSection } from './sections/scanners.js';
import { TelemetrySection } from './sections/telemetry.js';
import { UpdateSection } from './sections/update.js';
import { ObservabilitySection } from './sections/observability.js';
import { UpstreamGatewayKeys } from './sections/upstream-gateway.js';

export const CURRENT_CONFIG_VERSION = 9;

type Annotations<T> = { default?: T; description?: string };

/**
 * One of a fixed list of strings, as an `anyOf` of literals (what the config error messages list). A union
 * built from a mapped array loses its static type, so the type is stated with Type.Unsafe.
 */
export function oneOf<const T extends readonly string[]>(values: T, options: Annotations<T[number]> = {}) {
  return Type.Unsafe<T[number]>(Type.Union(values.map((v) => Type.Literal(v)), options));
}

export const SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'] as const;
export const Severity = oneOf(SEVERITIES);
export type Severity = (typeof SEVERITIES)[number];

const strict = (description: string) => ({ additionalProperties: false, default: {}, description }) as const;
const Port = (port: number, description: string) => Type.Integer({ minimum: 0, maximum: 65535, default: port, description });
const Enum = <const T extends readonly string[]>(values: T, fallback: T[number], description: string) =>
  oneOf(values, { default: fallback, description });

export const GatewaySection = Type.Object(
  {
    api_port: Port(18970, 'Port of the sidecar API that hook scripts and the CLI call; 0 takes any free port (printed in the ready line).'),
    api_bind: Type.String({
      default: '',
      description: 'Address the sidecar API listens on. Empty means 127.0.0.1, except on a legacy host with ' +
        '`openshell.mode: standalone`, where a non-empty `guardrail.host` other than `localhost` is used. ' +
        'A non-loopback address logs a warning: put TLS and a firewall in front of it.',
    }),
    host: Type.String({ default: '127.0.0.1', description: 'Host of the upstream agent gateway (not the guardrail proxy).' }),
    port: Port(18789, 'Port of the upstream agent gateway.'),
    token: Type.String({
      default: '',
      description: 'Gateway token written in this file: the last resort. Prefer `WARDEN_GATEWAY_TOKEN` in the ' +
        'environment or `$WARDEN_HOME/.env` (mode 0600), which Warden creates on first start.',
    }),
    token_env: Type.String({
      default: '',
      pattern: '^([A-Za-z_][A-Za-z0-9_]*)?$',
      description: 'Name of an environment variable (or `.env` entry) that holds the gateway token; checked before every other source.',
    }),
    log_level: Enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info',
      'How much the gateway logs; the `WARDEN_LOG_LEVEL` variable overrides it.'),
    ...UpstreamGatewayKeys,
  },
  strict('The sidecar API and the upstream agent gateway it talks to.'),
);

export const GuardrailSection = Type.Object(
  {
    enabled: Type.Boolean({ default: true, description: 'Guardrail enforcement on or off.' }),
    host: Type.String({ default: '127.0.0.1', description: 'Address the guardrail proxy listens on (agents use it as their model endpoint).' }),
    port: Port(4000, 'Port of the guardrail proxy.'),
    mode: Enum(['observe', 'action'] as const, 'action',
      '`action` enforces verdicts (blocks); `observe` records them in the audit trail and allows everything.'),
    rule_pack: Type.String({
      default: 'default',
      pattern: '^[a-z0-9][a-z0-9_.-]*$',
      description: 'Rule pack to inspect with: `default`, `strict`, `permissive`, or an operator pack in ' +
        '`$WARDEN_HOME/rules/<name>/`. A bad pack stops the start; on SIGHUP the running pack is kept.',
    }),
    block_at: Type.Optional(oneOf(SEVERITIES, {
      description: 'Lowest severity that is blocked (`CRITICAL`, `HIGH`, `MEDIUM`, `LOW`, `INFO`). Unset: the rule pack decides.',
    })),
    alert_at: Type.Optional(oneOf(SEVERITIES, {
      description: 'Lowest severity that raises an alert. Unset: the rule pack decides.',
    })),
    hilt_enabled: Type.Boolean({
      default: false,
      description: 'Ask a human (the agent\'s native confirmation) for verdicts between `hilt_min_severity` and the block threshold.',
    }),
    hilt_min_severity: oneOf(SEVERITIES, { default: 'HIGH', description: 'Lowest severity that asks a human when `hilt_enabled` is on.' }),
    connector: Type.String({
      default: 'claudecode',
      description: 'The primary connector (agent); names are checked against the built-in registry (`GET /v1/connectors`).',
    }),
    connectors: Type.Array(Type.String(), { default: [], description: 'Further active connectors, besides `connector`.' }),
    hook_fail_mode: Enum(['closed', 'open'] as const, 'closed',
      'What hook scripts do when the sidecar cannot answer: `closed` blocks the tool call, `open` allows it ' +
        '(and records the bypass in `hook-failures.jsonl`).'),
    ...guardrailRuntimeKeys,
  },
  strict('What the guardrail inspects, how strictly, and what happens when it cannot answer.'),
);

export const OpenshellSection = Type.Object(
  {
    enabled: Type.Boolean({ default: false, description: 'Run the sandbox manager.' }),
    mode: Enum(['', 'standalone', 'managed'] as const, '',
      '`standalone` marks a legacy sandbox host not yet cleaned up (`GET /health` then reports the `sandbox` ' +
        'subsystem degraded, naming this file): stop and remove the old standalone sandbox service by hand, then run ' +
        '`warden sandbox legacy-cleanup` (it deletes this key), and reload.'),
    ...openshellPolicyKeys,
    ...OpenshellRuntimeKeys,
    egress: OpenshellEgressSection,
    ...OpenshellHooksKeys,
  },
  strict('The sandbox manager.'),
);

export const FleetSection = Type.Object(
  {
    enabled: Type.Boolean({
      default: false,
      description: 'Mount the device fleet API on the sidecar (`/api/v1/fleet`, see [fleet.md](fleet.md)).',
    }),
    tenant_tokens: Type.Record(Type.String({ pattern: '^(0|[1-9][0-9]{0,4})$' }), Type.String({ minLength: 16 }), {
      default: {},
      description: 'Tenant-scoped fleet API tokens, `{"<tenant_id>": "<token>"}` (tokens of 16 characters or more); ' +
        '`WARDEN_FLEET_TENANT_TOKENS` wins per tenant.',
    }),
    trusted_tls_proxy: Type.Boolean({
      default: false,
      description: 'A TLS-terminating proxy fronts a non-loopback sidecar, so device keys may be delivered through it.',
    }),
    mqtt: Type.Object(
      {
        url: Type.String({
          default: '',
          pattern: '^(|mqtts?://.+)$',
          description: 'External MQTT broker (`mqtt://host:1883`, `mqtts://…`); empty: the embedded broker. ' +
            'Userinfo in the URL works and is never reported.',
        }),
        embedded: Type.Boolean({
          default: true,
          description: 'Start an embedded broker on 127.0.0.1 when no `url` is set (off and no url: publishing routes answer 503).',
        }),
        embedded_port: Port(1883, 'Port of the embedded broker.'),
        protocol_version: Type.Union([Type.Literal(4), Type.Literal(5)], {
          default: 5,
          description: 'MQTT version towards `url`: `5` reports a broker\'s refusal of a publication (ACL) as ' +
            '500 `distribution failed`; `4` (3.1.1) for a broker without MQTT 5. The embedded broker is always ' +
            'spoken to in 3.1.1 (see [fleet.md](fleet.md#brokers)).',
        }),
        username: Type.String({
          default: '',
          description: 'User name at the external broker; its password is the `WARDEN_FLEET_MQTT_PASSWORD` variable ' +
            '(environment or `.env`), never this file.',
        }),
        auto_register: Type.Boolean({
          default: false,
          description: 'Keyless devices may enroll over MQTT and receive a key (local development only; the embedded ' +
            'broker only, refused with `url`; see [fleet.md](fleet.md#devices)).',
        }),
      },
      strict('How the fleet API reaches devices over MQTT.'),
    ),
  },
  strict('The device fleet API.'),
);

export const ScannerSection = Type.Object(
  {
    skill_roots: Type.Array(Type.String({ minLength: 1 }), {
      default: ['~/.claude/skills'],
      description: 'Folders `POST /v1/skill/fetch` may package skills from (`~` is the home directory).',
    }),
    plugin_roots: Type.Array(Type.String({ minLength: 1 }), {
      default: ['~/.claude/plugins'],
      description: 'Folders `POST /v1/skill/fetch` may package plugins from (`~` is the home directory).',
    }),
    allowed_roots: Type.Array(Type.String({ minLength: 1 }), {
      default: [],
      description: 'Further folders the sidecar scan routes (`/v1/skill/scan`, `/v1/plugin/scan`, `/api/v1/scan/code`) ' +
        'may read, typically project folders for the code scanner, besides `skill_roots`, `plugin_roots`, the agent ' +
        'skill folders and `SKILL_SCANNER_ALLOWED_ROOTS`; `~` is the home directory (see ' +
        '[skill-scanner.md](skill-scanner.md#where-scans-may-read)).',
    }),
  },
  strict('Where the sidecar\'s skill, plugin and code scans may read.'),
);

export const LlmSection = Type.Object(
  {
    base_url: Type.String({
      default: 'https://api.openai.com',
      pattern: '^https?://',
      description: 'Upstream of `/v1/chat/completions` when a request names no `X-Warden-Target-URL` (a bare origin ' +
        'gets `/v1/chat/completions`, a base with a path gets `/chat/completions`).',
    }),
    models: Type.Array(Type.String({ minLength: 1 }), { default: [], description: 'What the proxy\'s `GET /v1/models` lists.' }),
    timeout_ms: Type.Integer({
      minimum: 100,
      maximum: 3_600_000,
      default: 300_000,
      description: 'Longest wait, in milliseconds, for upstream progress (the answer\'s headers, or its next bytes) ' +
        'before 504 / the end of a stream.',
    }),
  },
  strict('The model upstream of the guardrail proxy.'),
);

export const CustomProvider = Type.Object(
  {
    name: Type.String({ minLength: 1, description: 'Provider name, as audit rows and logs report it.' }),
    domains: Type.Array(Type.String({ minLength: 1 }), {
      minItems: 1,
      description: 'Hosts (`host` or `host:port`; `*` stands for one label) whose requests belong to this provider.',
    }),
    auth_header: Type.Optional(Type.String({
      pattern: '^[A-Za-z0-9-]+$',
      description: 'How the credential goes upstream: `authorization` (Bearer), another header name for the bare ' +
        'key, `passthrough`, or `as-sent`. Unset: the header the client used (see [proxy.md](proxy.md)).',
    })),
    base_url: Type.Optional(Type.String({ pattern: '^https?://', description: 'Upstream base URL of this provider.' })),
  },
  { additionalProperties: false, description: 'One operator-defined LLM provider.' },
);

export const LlmProvidersSection = Type.Object(
  {
    custom: Type.Array(CustomProvider, { default: [], description: 'Extra providers, besides the built-in ones (policies/providers.yaml).' }),
    ollama_ports: OllamaPorts,
  },
  strict('LLM providers the proxy recognises.'),
);

export const ASSET_TYPES = ['skill', 'mcp', 'plugin', 'tool'] as const;
export type AssetType = (typeof ASSET_TYPES)[number];
export const ASSET_LISTS = ['denied', 'allowed'] as const;
export type AssetList = (typeof ASSET_LISTS)[number];

/** Entries per list: far above any operator's hand-kept list, low enough that admission stays a short scan. */
export const MAX_ASSET_LIST_ENTRIES = 10_000;

const reasonOptions = { maxLength: 1024, description: 'Why the entry exists, as the audit trail and admission answers report it.' };
/** An entry's reason without its default: the /enforce bodies reuse it, where an absent reason stays absent. */
export const AssetReason = Type.String(reasonOptions);

/** The fields of an enforcement list entry; the /enforce bodies reuse their bounds. */
export const assetEntryFields = {
  name: Type.String({ minLength: 1, maxLength: 512, description: 'Name of the skill, MCP server, plugin or tool, matched exactly.' }),
  connector: Type.Optional(Type.String({
    minLength: 1,
    maxLength: 64,
    pattern: '^[a-z0-9][a-z0-9_-]*$',
    description: 'Limits the entry to one connector (agent), e.g. `claudecode`; unset: every connector.',
  })),
  reason: Type.String({ default: '', ...reasonOptions }),
};

export const AssetSourcePath = Type.String({
  minLength: 1,
  maxLength: 4096,
  description: 'Pins the allow to installs whose source path contains this text; unset: any path.',
});

const DeniedAsset = Type.Object(assetEntryFields, { additionalProperties: false, description: 'One blocked asset.' });

const AllowedAsset = Type.Object(
  {
    ...assetEntryFields,
    source_path_contains: Type.Optional(AssetSourcePath),
  },
  { additionalProperties: false, description: 'One allowed asset.' },
);

const assetLists = (type: string) =>
  Type.Object(
    {
      denied: Type.Array(DeniedAsset, {
        default: [],
        maxItems: MAX_ASSET_LIST_ENTRIES,
        description: `Blocked ${type}; a block wins over an allow of the same name and connector. One entry per name and connector.`,
      }),
      allowed: Type.Array(AllowedAsset, {
        default: [],
        maxItems: MAX_ASSET_LIST_ENTRIES,
        description: `Allowed ${type}: admission skips their scan when \`admission.defaults.allow_list_bypass_scan\` is on ` +
          '(only at a source path containing `source_path_contains` where the entry gives one). One entry per name and connector.',
      }),
    },
    strict(`Operator block and allow lists of ${type}; \`POST /enforce/block\` and \`/enforce/allow\` edit them (see [policy.md](policy.md#enforcement-lists)).`),
  );

export const AssetPolicySection = Type.Object(
  {
    skill: assetLists('skills'),
    mcp: assetLists('MCP servers'),
    plugin: assetLists('plugins'),
    tool: assetLists('tools'),
  },
  strict('Enforcement lists: skills, MCP servers, plugins and tools the operator blocked or allowed.'),
);

export type AssetPolicy = Static<typeof AssetPolicySection>;
export type AssetEntry = Static<typeof AllowedAsset>;

/** A second entry for the same name and connector in one list: the schema cannot see it, so loading checks it. */
export function duplicateAssetEntries(policy: AssetPolicy): { segments: string[]; message: string }[] {
  const problems: { segments: string[]; message: string }[] = [];
  for (const type of ASSET_TYPES) {
    for (const list of ASSET_LISTS) {
      const seen = new Set<string>();
      policy[type][list].forEach((entry, i) => {
        const key = JSON.stringify([entry.name, entry.connector ?? null]);
        const segments = ['asset_policy', type, list, String(i)];
        if (seen.has(key)) {
          const who = entry.connector === undefined ? '' : ` for connector "${entry.connector}"`;
          problems.push({ segments, message: `${segments.join('.')}: "${entry.name}"${who} is already listed; keep one entry` });
        }
        seen.add(key);
      });
    }
  }
  return problems;
}

const ActionTriple = Type.Object(
  {
    install: oneOf(['block', 'allow', 'none'] as const, { description: '`block` refuses the install; `allow` lets it through; `none` takes no install-time action.' }),
    file: oneOf(['quarantine', 'none'] as const, { description: '`quarantine` moves the files aside; `none` leaves them.' }),
    runtime: oneOf(['disable', 'enable'] as const, { description: '`disable` turns the asset off in the agent; `enable` leaves it on.' }),
  },
  { additionalProperties: false, description: 'An explicit action triple.' },
);
export const AdmissionAction = Type.Union([Type.Literal('block'), Type.Literal('quarantine'), Type.Literal('warn'), ActionTriple], {
  description: 'Shorthand `block` (install block, file quarantine, runtime disable), `quarantine` (install none, file ' +
    'quarantine, runtime disable), `warn` (install none, file none, runtime enable), or an `{install, file, runtime}` triple.',
});
export type AdmissionAction = Static<typeof AdmissionAction>;

const FirstPartyEntry = Type.Object(
  {
    name: Type.String({ minLength: 1, description: 'Name of the skill, MCP server or plugin.' }),
    reason: Type.String({ default: '', description: 'Why it is trusted (shown in the admission decision).' }),
    source_path_contains: Type.Optional(Type.Array(Type.String({ minLength: 1 }), {
      description: 'The entry only applies when the install path contains one of these markers.',
    })),
  },
  { additionalProperties: false, description: 'A first-party package that is admitted without its scan result deciding.' },
);

const admissionTarget = (what: string, defaults: string) =>
  Type.Object(
    {
      actions: Type.Object(Object.fromEntries(SEVERITIES.map((s) => [s, Type.Optional(AdmissionAction)])), {
        additionalProperties: false,
        default: {},
        description: `Action per highest scan severity (\`CRITICAL\` … \`INFO\`) for ${what}; an unset severity keeps the shipped default (${defaults}).`,
      }),
      first_party_allow_list: Type.Optional(Type.Array(FirstPartyEntry, {
        description: `First-party ${what} admitted without the scan deciding (when \`admission.defaults.allow_list_bypass_scan\` is on); ` +
          'set, it replaces the shipped list (policies/rego/admission.rego).',
      })),
    },
    strict(`Install admission of ${what}.`),
  );

export const AdmissionSection = Type.Object(
  {
    defaults: Type.Object(
      {
        allow_list_bypass_scan: Type.Boolean({
          default: true,
          description: 'An asset on the allow list (or first-party list) is admitted without its scan result deciding; off, the scan decides for it too.',
        }),
      },
      strict('Admission settings shared by every asset type.'),
    ),
    skill: admissionTarget('skills', 'block at CRITICAL and HIGH, warn below'),
    mcp: admissionTarget('MCP servers', 'block at CRITICAL, HIGH and MEDIUM, warn below'),
    plugin: admissionTarget('plugins', 'block at CRITICAL and HIGH, warn below'),
  },
  strict('Install admission of skills, MCP servers and plugins, decided by policies/rego/admission.rego (see [policy.md](policy.md)).'),
);

export const ConfigSchema = Type.Object(
  {
    config_version: Type.Literal(CURRENT_CONFIG_VERSION, { description: `Format version of this file; must be ${CURRENT_CONFIG_VERSION}.` }),
    gateway: GatewaySection,
    guardrail: GuardrailSection,
    openshell: OpenshellSection,
    fleet: FleetSection,
    scanner: ScannerSection,
    llm: LlmSection,
    llm_providers: LlmProvidersSection,
    asset_policy: AssetPolicySection,
    admission: AdmissionSection,
    custom_packs: CustomPacksSection,
    rules: RulesSection,
    scanners: ScannersSection,
    update: UpdateSection,
    ai_discovery: AiDiscoverySection,
    judge_source: JudgeSource,
    telemetry: TelemetrySection,
    observability: ObservabilitySection,
    deployment: DeploymentSection,
    policy_dir: Type.String({
      default: '',
      description: 'Folder of the operator\'s own Rego modules (`*.rego`) and `data.json`, loaded beside the shipped ' +
        'modules (its `rego` child when it has one); `~` is the home directory, a relative path is under `$WARDEN_HOME`. ' +
        'Empty: the shipped modules only. `POST /policy/reload` or `warden policy reload` reloads it.',
    }),
  },
  { additionalProperties: false, title: 'Warden config.yaml', description: 'Warden configuration ($WARDEN_HOME/config.yaml).' },
);

export type Config = Static<typeof ConfigSchema>;
