// The version 8 config.yaml, as /work/shared/migration-v8.md describes it (and docs/migration.md restates), so
// the migration refuses a file the 0.8.x release would have refused: unknown keys are errors, `config_version`
// must be 8, and the legacy keys version 8 itself rejected (`audit_db`, `audit_sinks`, `judge_bodies_db`, `otel`,
// `splunk`) are unknown here. Sections whose inner keys the version 8 facts do not list (observability buckets,
// cloud_auth, registries, …) are checked as mappings only; every key a rule reads has its exact shape.
import Type, { type Static, type TSchema } from 'typebox';

const strict = { additionalProperties: false } as const;
/** An object the version 8 facts name but whose inner keys they do not give. */
const Mapping = Type.Record(Type.String(), Type.Unknown());
const opt = <T extends TSchema>(schema: T) => Type.Optional(schema);
const Str = Type.String();
const Bool = Type.Boolean();
const Int = Type.Integer();
const Num = Type.Number();
const lit = <const T extends readonly string[]>(values: T) => Type.Union(values.map((v) => Type.Literal(v)));

export const V8_SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
const Severity = lit(['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'] as const);

/** `skill_actions` / `mcp_actions` / `plugin_actions`: severity → config.yaml's vocabulary of the triple. */
export const V8ActionTriple = Type.Object(
  {
    file: lit(['none', 'quarantine'] as const),
    runtime: lit(['enable', 'disable'] as const),
    install: lit(['block', 'allow', 'none'] as const),
  },
  strict,
);
const ActionMatrix = Type.Object(Object.fromEntries(V8_SEVERITIES.map((s) => [s, opt(V8ActionTriple)])), strict);

/** An LLM block (`llm`, `guardrail.llm`, `scanners.skill_scanner.llm`, `scanners.plugin_llm`). */
const LlmBlock = Type.Object(
  {
    model: opt(Str), provider: opt(Str), base_url: opt(Str), api_key: opt(Str), api_key_env: opt(Str),
    timeout: opt(Num), max_retries: opt(Int),
  },
  strict,
);

const Connector = Type.Object(
  {
    mode: opt(lit(['observe', 'action'] as const)),
    hilt: opt(Type.Object({ enabled: opt(Bool), min_severity: opt(Severity) }, strict)),
    hook_fail_mode: opt(lit(['open', 'closed'] as const)),
    block_message: opt(Str),
    rule_pack_dir: opt(Str),
    enabled: opt(Bool),
  },
  strict,
);

const DetectionStrategy = lit(['regex_only', 'regex_judge', 'judge_first'] as const);

const Guardrail = Type.Object(
  {
    enabled: opt(Bool),
    mode: opt(lit(['observe', 'action'] as const)),
    scanner_mode: opt(lit(['local', 'remote', 'both'] as const)),
    host: opt(Str),
    port: opt(Int),
    connector: opt(Str),
    block_message: opt(Str),
    stream_buffer_bytes: opt(Int),
    llm: opt(LlmBlock),
    rule_pack_dir: opt(Str),
    judge: opt(Mapping),
    hilt: opt(Type.Object({ enabled: opt(Bool), min_severity: opt(Severity) }, strict)),
    detection_strategy: opt(DetectionStrategy),
    detection_strategy_prompt: opt(DetectionStrategy),
    detection_strategy_completion: opt(DetectionStrategy),
    detection_strategy_tool_call: opt(DetectionStrategy),
    hook_fail_mode: opt(lit(['open', 'closed'] as const)),
    /** Thresholds written in config.yaml by a 0.8.x operator; rule 3: "a value already in config.yaml wins". */
    block_at: opt(Severity),
    alert_at: opt(Severity),
    connectors: opt(Type.Record(Type.String(), Connector)),
  },
  strict,
);

const Gateway = Type.Object(
  {
    host: opt(Str), port: opt(Int), token_env: opt(Str), tls: opt(Bool), tls_skip_verify: opt(Bool),
    device_key_file: opt(Str), auto_approve_safe: opt(Bool), reconnect_ms: opt(Int), max_reconnect_ms: opt(Int),
    approval_timeout_s: opt(Int), api_port: opt(Int), api_bind: opt(Str), fleet_mode: opt(Str),
    config_reload: opt(Type.Object({ mode: opt(Str) }, strict)),
    watcher: opt(Mapping),
    watchdog: opt(Mapping),
  },
  strict,
);

/** The skill scanner's switches are `use_<analyzer>` (and `enable_meta`), as its own flags are named. */
export const SKILL_ANALYZER_SWITCHES = {
  use_behavioral: 'behavioral', use_llm: 'llm', use_reputation: 'reputation', use_ai_guard: 'ai_guard',
  use_trigger: 'trigger', use_osv: 'osv', enable_meta: 'meta',
} as const;

const SkillScanner = Type.Object(
  {
    binary: opt(Str),
    policy: opt(Str),
    lenient: opt(Bool),
    ...Object.fromEntries(Object.keys(SKILL_ANALYZER_SWITCHES).map((k) => [k, opt(Bool)])),
    llm_consensus_runs: opt(Int),
    llm: opt(LlmBlock),
  },
  strict,
);

const McpScanner = Type.Object(
  {
    binary: opt(Str), analyzers: opt(Str), scan_prompts: opt(Bool), scan_resources: opt(Bool), scan_instructions: opt(Bool),
  },
  strict,
);

const Scanners = Type.Object(
  {
    skill_scanner: opt(SkillScanner),
    mcp_scanner: opt(McpScanner),
    plugin_scanner: opt(Str),
    plugin_llm: opt(LlmBlock),
    codeguard: opt(Str),
  },
  strict,
);

const AssetEntry = Type.Object(
  { name: Str, url: opt(Str), connector: opt(Str), reason: opt(Str), source_path_contains: opt(Type.Union([Str, Type.Array(Str)])) },
  strict,
);
const AssetType = Type.Object(
  {
    default: opt(lit(['allow', 'deny', 'block', 'observe'] as const)),
    registry_required: opt(Bool),
    registry_empty_action: opt(Str),
    registry: opt(Type.Array(Type.Unknown())),
    allowed: opt(Type.Array(AssetEntry)),
    denied: opt(Type.Array(AssetEntry)),
    runtime_detection: opt(Mapping),
  },
  strict,
);

const Destination = Type.Object(
  {
    name: Str,
    kind: lit(['jsonl', 'console', 'prometheus', 'splunk_hec', 'http_jsonl', 'otlp'] as const),
    enabled: opt(Bool),
  },
  // A destination's own settings depend on its kind (endpoint, path, token_env, …).
  { additionalProperties: true },
);

const Observability = Type.Object(
  {
    resource: opt(Mapping), trace_policy: opt(Mapping), metric_policy: opt(Mapping), defaults: opt(Mapping),
    buckets: opt(Mapping), redaction_profiles: opt(Mapping),
    local: opt(Type.Object({ path: opt(Str), judge_bodies_path: opt(Str), retention_days: opt(Int) }, strict)),
    destinations: opt(Type.Array(Destination)),
  },
  strict,
);

export const V8ConfigSchema = Type.Object(
  {
    config_version: Type.Literal(8),
    llm: opt(LlmBlock),
    data_dir: opt(Str), quarantine_dir: opt(Str), plugin_dir: opt(Str), policy_dir: opt(Str),
    environment: opt(Str), tenant_id: opt(Str), workspace_id: opt(Str),
    deployment_mode: opt(lit(['managed_enterprise', 'unmanaged_byod', 'ci_cd', 'sandboxed', 'server', 'saas'] as const)),
    discovery_source: opt(Str),
    claw: opt(Type.Object({ mode: opt(Str), home_dir: opt(Str), config_file: opt(Str) }, strict)),
    agent: opt(Type.Object({ id: opt(Str), name: opt(Str) }, strict)),
    inspect_llm: opt(Mapping),
    cisco_ai_defense: opt(Type.Object(
      { endpoint: opt(Str), api_key: opt(Str), api_key_env: opt(Str), timeout_ms: opt(Int), enabled_rules: opt(Type.Array(Type.Unknown())) },
      strict,
    )),
    scanners: opt(Scanners),
    openshell: opt(Type.Object(
      {
        binary: opt(Str), policy_dir: opt(Str), mode: opt(Str), version: opt(Str), sandbox_home: opt(Str),
        auto_pair: opt(Bool), host_networking: opt(Bool),
      },
      strict,
    )),
    watch: opt(Type.Object(
      {
        debounce_ms: opt(Int), auto_block: opt(Bool), allow_list_bypass_scan: opt(Bool), rescan_enabled: opt(Bool),
        rescan_interval_min: opt(Int), rescan_content_gated: opt(Bool),
      },
      strict,
    )),
    firewall: opt(Type.Object({ config_file: opt(Str), rules_file: opt(Str), anchor_name: opt(Str) }, strict)),
    guardrail: opt(Guardrail),
    gateway: opt(Gateway),
    skill_actions: opt(ActionMatrix),
    mcp_actions: opt(ActionMatrix),
    plugin_actions: opt(ActionMatrix),
    asset_policy: opt(Type.Object(
      {
        enabled: opt(Bool), mode: opt(lit(['observe', 'action'] as const)),
        mcp: opt(AssetType), skill: opt(AssetType), plugin: opt(AssetType), connectors: opt(Mapping),
      },
      strict,
    )),
    registries: opt(Type.Unknown()),
    cloud_auth: opt(Mapping),
    claude_code: opt(Mapping), codex: opt(Mapping), connector_hooks: opt(Mapping),
    webhooks: opt(Type.Array(Type.Unknown())),
    ai_discovery: opt(Mapping),
    application_protection: opt(Mapping),
    notifications: opt(Mapping),
    managed: opt(Mapping),
    privacy: opt(Type.Object({}, strict)),
    observability: opt(Observability),
    /** Rule 7. */
    update_check: opt(Bool),
  },
  { additionalProperties: false, title: 'Warden config.yaml, version 8' },
);

export type V8Config = Static<typeof V8ConfigSchema>;
