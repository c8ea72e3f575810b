// The `ai_discovery` section: where the on-host AI usage scanner looks, how far it may go, which signature packs
// beyond the shipped ones it loads (each pinned by its SHA-256) and which confidence policy scores what it finds
// (see docs/discovery.md). Its own file so that schema.ts gains one line.
import Type from 'typebox';

export const AiDiscoverySection = Type.Object(
  {
    enabled: Type.Boolean({
      default: true,
      description: 'AI usage discovery in the gateway on or off. Off: its scans and reports are refused (409) and no ' +
        'periodic scan runs; the recorded history stays readable, and `warden discover` still scans when asked.',
    }),
    roots: Type.Array(Type.String({ minLength: 1 }), {
      default: ['~'],
      description: 'Folders searched for project manifests (`package.json`, `requirements*.txt`, `pyproject.toml`, ' +
        '`go.mod`, `Cargo.toml`) and project MCP files; `~` is the home folder. Symbolic links are never followed, ' +
        'and special or network file systems are skipped.',
    }),
    max_files: Type.Integer({
      minimum: 1,
      maximum: 1_000_000,
      default: 50_000,
      description: 'Folder entries a scan looks at under `roots`, in all; past it the scan stops walking and says so (`truncated`).',
    }),
    timeout_ms: Type.Integer({
      minimum: 1000,
      maximum: 600_000,
      default: 30_000,
      description: 'Longest a scan may take, in milliseconds; the walk stops at the deadline and the partial result is kept (`truncated`).',
    }),
    interval_minutes: Type.Integer({
      minimum: 0,
      maximum: 10_080,
      default: 0,
      description: 'Minutes between periodic scans by the running gateway; 0 (the default) scans only when asked.',
    }),
    probe_ports: Type.Array(Type.Integer({ minimum: 1, maximum: 65535 }), {
      default: [],
      maxItems: 64,
      description: 'Further loopback ports probed for a local model server (each signature pack\'s API probes are tried ' +
        'on them), besides the ports the packs name (Ollama 11434, LM Studio 1234, llama.cpp 8080, …).',
    }),
    signature_packs: Type.Array(Type.String({ minLength: 1 }), {
      default: [],
      description: 'Operator signature packs (YAML, format `docs/schemas/discovery-pack.schema.json`) loaded after ' +
        'the shipped ones in policies/discovery/; `~` is the home folder, a relative path is under `$WARDEN_HOME` ' +
        '(its `signature-packs` folder by convention). Each must be pinned in `signature_pack_digests`.',
    }),
    signature_pack_digests: Type.Record(Type.String({ minLength: 1 }), Type.String({ pattern: '^sha256:[0-9a-f]{64}$' }), {
      default: {},
      description: 'SHA-256 of each operator signature pack file, `{"<path as written in signature_packs>": ' +
        '"sha256:<hex>"}`. A pack without a pin, or whose bytes hash otherwise, is refused and reported, not loaded.',
    }),
    confidence_policy: Type.String({
      default: '',
      description: 'Confidence-scoring policy file (YAML, format `docs/schemas/discovery-confidence.schema.json`): ' +
        'weights per evidence kind and the low/medium/high thresholds. Empty: the shipped ' +
        'policies/discovery/confidence.yaml. `~` is the home folder, a relative path is under `$WARDEN_HOME`.',
    }),
  },
  { additionalProperties: false, default: {}, description: 'AI usage discovery: what AI is in use on this machine (see [discovery.md](discovery.md)).' },
);
