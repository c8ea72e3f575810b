// Signature packs: the facts discovery looks for (agent process and folder names, IDE extension ids, local model
// server ports and API probes, AI SDK package names, provider key variable names), as YAML, so the scanner stays
// generic. The shipped packs (policies/discovery/*.yaml, except confidence.yaml) load first; an operator's packs
// (`ai_discovery.signature_packs`) load after them and must each be pinned by the SHA-256 of their bytes in
// `ai_discovery.signature_pack_digests`: a pack without a pin or with another digest is refused and reported,
// never loaded. Entries of a later pack replace earlier entries with the same id.
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Type, { type Static } from 'typebox';
import { resolvePolicyDir } from '../policy/files.js';
import { readYamlChecked, readCappedFile, YamlProblem } from './yaml-file.js';

export const SHIPPED_DISCOVERY_DIR = fileURLToPath(new URL('../../policies/discovery/', import.meta.url));
/** The shipped confidence policy lives beside the packs but is not one. */
export const CONFIDENCE_FILE = 'confidence.yaml';

const Id = Type.String({ minLength: 1, maxLength: 128, pattern: '^[a-z0-9][a-z0-9._@/-]*$', description: 'Stable id, lower case.' });
const Label = (description: string) => Type.String({ minLength: 1, maxLength: 256, description });
const Names = (description: string) => Type.Array(Type.String({ minLength: 1, maxLength: 256 }), { default: [], maxItems: 1000, description });

const AgentSignature = Type.Object(
  {
    id: Id,
    name: Label('Product name, as reports show it.'),
    vendor: Type.Optional(Label('Who makes it.')),
    processes: Names('Executable names of its processes (`/proc/<pid>/comm`, or the base name of the program or script it runs).'),
    config_paths: Names('Folders or files it keeps in the home folder (`~/.claude`, `~/.codex/config.toml`).'),
    mcp_agent: Type.Optional(Type.String({ maxLength: 64, description: 'Its name in the MCP configuration readers (`claude-code`, `cursor`, …), linking MCP servers to it.' })),
  },
  { additionalProperties: false, description: 'An AI agent or AI-enabled editor.' },
);

const ExtensionSignature = Type.Object(
  {
    id: Type.String({ minLength: 3, maxLength: 256, pattern: '^[a-z0-9][a-z0-9-]*\\.[a-z0-9][a-z0-9._-]*$', description: 'Marketplace id `<publisher>.<name>`, lower case.' }),
    name: Label('Extension name, as reports show it.'),
    agent: Type.Optional(Type.String({ maxLength: 128, description: 'Id of the agent it belongs to, whose evidence it adds to.' })),
  },
  { additionalProperties: false, description: 'An AI IDE extension.' },
);

const Probe = Type.Object(
  {
    path: Type.String({ pattern: '^/[A-Za-z0-9/_.-]*$', maxLength: 256, description: 'GET path on the loopback port.' }),
    list_key: Type.String({ minLength: 1, maxLength: 64, description: 'Key of the JSON answer holding the list of models (`models`, `data`).' }),
    name_key: Type.String({ minLength: 1, maxLength: 64, description: 'Key of a model entry holding its name (`name`, `id`).' }),
  },
  { additionalProperties: false, description: 'How the server\'s API answers a list of models.' },
);

const LocalModelSignature = Type.Object(
  {
    id: Id,
    name: Label('Server name, as reports show it.'),
    ports: Type.Array(Type.Integer({ minimum: 1, maximum: 65535 }), { default: [], maxItems: 32, description: 'Its usual loopback ports.' }),
    probe: Probe,
  },
  { additionalProperties: false, description: 'A local model server.' },
);

const SdkList = (ecosystem: string) => Names(`${ecosystem} package names of AI SDKs and frameworks.`);

export const DiscoveryPackSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z0-9][a-z0-9_.-]*$', description: 'Pack name.' }),
    version: Type.String({ minLength: 1, maxLength: 64, description: 'Pack version, as reports show it.' }),
    description: Type.Optional(Type.String({ maxLength: 1024 })),
    agents: Type.Array(AgentSignature, { default: [], maxItems: 1000, description: 'AI agents and editors.' }),
    extension_dirs: Names('Folders (`~/…`) whose children are IDE extensions named `<publisher>.<name>-<version>`.'),
    ide_extensions: Type.Array(ExtensionSignature, { default: [], maxItems: 1000, description: 'AI IDE extensions.' }),
    local_models: Type.Array(LocalModelSignature, { default: [], maxItems: 100, description: 'Local model servers.' }),
    sdks: Type.Object(
      { npm: SdkList('npm'), pypi: SdkList('PyPI (normalised: lower case, `-` for runs of `-_.`)'), go: SdkList('Go module'), cargo: SdkList('crates.io') },
      { additionalProperties: false, default: {}, description: 'AI SDK dependencies looked for in project manifests.' },
    ),
    env_keys: Names('Names of environment variables holding AI provider keys (only names are ever reported).'),
  },
  { additionalProperties: false, title: 'Warden AI discovery signature pack', description: 'What AI usage discovery looks for.' },
);

export type DiscoveryPack = Static<typeof DiscoveryPackSchema>;
export type AgentSignature = Static<typeof AgentSignature>;
export type LocalModelSignature = Static<typeof LocalModelSignature>;
export const ECOSYSTEMS = ['npm', 'pypi', 'go', 'cargo'] as const;
export type SdkEcosystem = (typeof ECOSYSTEMS)[number];

/** A pack that was loaded, as reports name it. */
export interface PackInfo {
  name: string;
  version: string;
  /** `shipped`, or the path as written in the configuration. */
  source: string;
  digest: string;
}

export interface RefusedPack {
  path: string;
  reason: string;
}

/** The packs in force, merged: what a scan looks for. */
export interface Signatures {
  agents: AgentSignature[];
  extensionDirs: string[];
  extensions: DiscoveryPack['ide_extensions'];
  localModels: LocalModelSignature[];
  sdks: Record<SdkEcosystem, string[]>;
  envKeys: string[];
  packs: PackInfo[];
  refused: RefusedPack[];
}

export interface PackSettings {
  signature_packs: readonly string[];
  signature_pack_digests: Readonly<Record<string, string>>;
}

const sha256 = (bytes: Buffer) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/** The shipped packs and the operator's pinned ones, merged; `wardenHome` and `home` resolve the paths. */
export function loadSignatures(settings: PackSettings, wardenHome: string, home: string): Signatures {
  const loaded: { pack: DiscoveryPack; info: PackInfo }[] = [];
  const refused: RefusedPack[] = [];
  const shipped = readdirSync(SHIPPED_DISCOVERY_DIR).filter((f) => f.endsWith('.yaml') && f !== CONFIDENCE_FILE).sort();
  for (const file of shipped) {
    // A shipped pack that does not load is a bug in this release: let it throw.
    loaded.push(packOf(readCappedFile(join(SHIPPED_DISCOVERY_DIR, file)), `policies/discovery/${file}`, 'shipped'));
  }
  for (const written of settings.signature_packs) {
    const pin = settings.signature_pack_digests[written];
    if (pin === undefined) {
      refused.push({ path: written, reason: 'no digest pinned in ai_discovery.signature_pack_digests' });
      continue;
    }
    try {
      const bytes = readCappedFile(resolvePolicyDir(written, wardenHome, home)!);
      const digest = sha256(bytes);
      if (digest !== pin) refused.push({ path: written, reason: `digest ${digest} differs from the pinned ${pin}` });
      else loaded.push(packOf(bytes, written, written));
    } catch (err) {
      if (!(err instanceof YamlProblem)) throw err;
      refused.push({ path: written, reason: err.message });
    }
  }
  return merge(loaded.map((l) => l.pack), loaded.map((l) => l.info), refused);
}

function packOf(bytes: Buffer, where: string, source: string): { pack: DiscoveryPack; info: PackInfo } {
  const pack = readYamlChecked<DiscoveryPack>(bytes, where, DiscoveryPackSchema);
  return { pack, info: { name: pack.name, version: pack.version, source, digest: sha256(bytes) } };
}

/** Later entries replace earlier ones of the same id; plain name lists are unions. */
function merge(packs: DiscoveryPack[], infos: PackInfo[], refused: RefusedPack[]): Signatures {
  const byId = <T extends { id: string }>(lists: T[][]) => [...new Map(lists.flat().map((entry) => [entry.id, entry])).values()];
  const union = (lists: string[][]) => [...new Set(lists.flat())];
  return {
    agents: byId(packs.map((p) => p.agents)),
    extensionDirs: union(packs.map((p) => p.extension_dirs)),
    extensions: byId(packs.map((p) => p.ide_extensions)),
    localModels: byId(packs.map((p) => p.local_models)),
    sdks: Object.fromEntries(ECOSYSTEMS.map((e) => [e, union(packs.map((p) => p.sdks[e]))])) as Record<SdkEcosystem, string[]>,
    envKeys: union(packs.map((p) => p.env_keys)),
    packs: infos,
    refused,
  };
}
