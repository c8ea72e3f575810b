// One discovery scan of this host, as plain data in and out (it runs in a worker thread, see run.ts): agents
// from their processes, home folders, extensions and MCP servers; AI IDE extensions; MCP server definitions
// (read by the MCP scanner's own readers); local model servers on loopback; AI SDK dependencies in the project
// manifests under the roots; provider key variables, by name. What to look for comes from the signature packs;
// nothing here scores (confidence.ts does) or stores (store.ts does).
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readDefinitions, type McpServerDefinition } from '../scanners/mcp/definitions.js';
import { discoverDefinitions } from '../scanners/mcp/targets.js';
import { expandHome } from '../scanners/paths.js';
import { DISCOVERY_LIMITS } from './limits.js';
import { findLocalServers } from './local-models.js';
import { dependenciesIn, normalisePypi, type Dependency } from './manifests.js';
import type { SdkEcosystem, Signatures } from './packs.js';
import { agentProcesses } from './processes.js';
import type { Component, Endpoint, Evidence, Findings, LocalModel, UnscoredSignal } from './types.js';
import { walkRoots } from './walk.js';

export interface ScanInput {
  home: string;
  /** Absolute folders to walk for project files. */
  roots: string[];
  maxEntries: number;
  /** Epoch milliseconds past which the walk stops. */
  deadline: number;
  probePorts: number[];
  /** Provider key variables that are set: names only, the values never reach the scan. */
  envKeysSet: string[];
  signatures: Signatures;
  procRoot?: string;
}

export interface RawScan {
  findings: Findings;
  entries: number;
  truncated: { files: boolean; time: boolean };
  warnings: string[];
}

/** Collects components by ecosystem and name, with their versions and locations. */
class Components {
  private readonly map = new Map<string, { ecosystem: string; name: string; versions: Set<string>; locations: Set<string> }>();

  add(ecosystem: string, name: string, version: string, location: string): void {
    const key = `${ecosystem}\0${name}`;
    let entry = this.map.get(key);
    if (!entry) this.map.set(key, (entry = { ecosystem, name, versions: new Set(), locations: new Set() }));
    if (version !== '' && entry.versions.size < DISCOVERY_LIMITS.locationsPerComponent) entry.versions.add(version);
    if (entry.locations.size < DISCOVERY_LIMITS.locationsPerComponent) entry.locations.add(location);
  }

  list(): Component[] {
    return [...this.map.values()].map((c) => ({ ecosystem: c.ecosystem, name: c.name, versions: [...c.versions], locations: [...c.locations] }));
  }
}

/** Collects signals by id, merging evidence. */
class Signals {
  private readonly map = new Map<string, UnscoredSignal>();

  add(signal: Omit<UnscoredSignal, 'evidence'>, evidence: Evidence): void {
    const found = this.map.get(signal.id);
    if (!found) this.map.set(signal.id, { ...signal, evidence: [evidence] });
    else if (found.evidence.length < 200) found.evidence.push(evidence);
  }

  list(): UnscoredSignal[] {
    return [...this.map.values()];
  }
}

const exists = (path: string) => {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
};

/** `publisher.name-1.2.3[-platform]` → id and version, or undefined for a folder that is not an extension. */
export function extensionFolder(folder: string): { id: string; version: string } | undefined {
  const parts = folder.split('-');
  const at = parts.findIndex((part, i) => i > 0 && /^[0-9]+\.[0-9]+/.test(part));
  if (at < 0) return undefined;
  const id = parts.slice(0, at).join('-').toLowerCase();
  return id.includes('.') ? { id, version: parts.slice(at).join('-') } : undefined;
}

function sdkMatcher(sdks: Signatures['sdks']): (dep: Dependency) => boolean {
  const sets = Object.fromEntries(Object.entries(sdks).map(([eco, names]) => [eco, new Set(eco === 'pypi' ? names.map(normalisePypi) : names)])) as Record<SdkEcosystem, Set<string>>;
  return (dep) => sets[dep.ecosystem].has(dep.name) || (dep.ecosystem === 'go' && sets.go.has(dep.name.replace(/\/v[0-9]+$/, '')));
}

export async function scanHost(input: ScanInput): Promise<RawScan> {
  const { signatures: sig, home } = input;
  const signals = new Signals();
  const components = new Components();
  const warnings: string[] = [];
  const endpoints: Endpoint[] = [];
  const localModels: LocalModel[] = [];
  const agentById = new Map(sig.agents.map((a) => [a.id, a]));
  const agentSignal = (id: string) => {
    const agent = agentById.get(id)!;
    return { id: `agent:${id}`, category: 'agent' as const, name: agent.name, ...(agent.vendor ? { vendor: agent.vendor } : {}) };
  };

  // Agents: their folders and files in the home folder, and their processes.
  for (const agent of sig.agents) {
    for (const written of agent.config_paths) {
      const path = expandHome(written, home);
      if (exists(path)) signals.add(agentSignal(agent.id), { kind: 'config_path', detail: written, path });
    }
  }
  const processes = agentProcesses(sig.agents, input.procRoot);
  for (const p of processes) signals.add(agentSignal(p.agent), { kind: 'process', detail: `${p.name} (pid ${p.pid})` });

  // IDE extensions, by marketplace id, in the editors' extension folders.
  const extensions = new Map(sig.extensions.map((e) => [e.id, e]));
  for (const written of sig.extensionDirs) {
    const dir = expandHome(written, home);
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const parsed = entry.isDirectory() ? extensionFolder(entry.name) : undefined;
      const known = parsed && extensions.get(parsed.id);
      if (!parsed || !known) continue;
      const path = join(dir, entry.name);
      const evidence: Evidence = { kind: 'ide_extension', detail: `${parsed.id} ${parsed.version}`, path };
      signals.add({ id: `ide_extension:${known.id}`, category: 'ide_extension', name: known.name, ...(known.agent ? { agent: known.agent } : {}) }, evidence);
      if (known.agent && agentById.has(known.agent)) signals.add(agentSignal(known.agent), evidence);
      components.add('ide-extension', parsed.id, parsed.version, path);
    }
  }

  // Project files under the roots: manifests and project MCP files.
  const walk = walkRoots(input.roots, input.maxEntries, input.deadline);
  warnings.push(...walk.warnings);
  const isSdk = sdkMatcher(sig.sdks);
  const projectMcp: McpServerDefinition[] = [];
  for (const file of walk.files) {
    try {
      if (file.endsWith('.mcp.json')) {
        projectMcp.push(...readDefinitions(file));
        continue;
      }
      for (const dep of dependenciesIn(file).filter(isSdk)) {
        signals.add({ id: `sdk:${dep.ecosystem}:${dep.name}`, category: 'sdk', name: dep.name }, { kind: 'dependency', detail: `${dep.name} ${dep.version}`.trim(), path: file });
        components.add(dep.ecosystem, dep.name, dep.version, file);
      }
    } catch (err) {
      warnings.push(`${file}: ${(err as Error).message.split('\n')[0]}`);
    }
  }

  // MCP servers: the agents' own configuration files and the project files found above.
  const mcpAgents = new Map(sig.agents.filter((a) => a.mcp_agent).map((a) => [a.mcp_agent!, a.id]));
  const userMcp = discoverDefinitions(home);
  warnings.push(...userMcp.errors);
  for (const def of [...userMcp.definitions, ...projectMcp]) {
    const transport = def.url ? 'http' : 'stdio';
    const agentId = mcpAgents.get(def.agent);
    const evidence: Evidence = { kind: 'mcp_server', detail: `${def.name} (${def.agent}, ${transport})`, ...(def.source ? { path: def.source } : {}) };
    signals.add({ id: `mcp_server:${def.name}`, category: 'mcp_server', name: def.name, ...(agentId ? { agent: agentId } : {}) }, evidence);
    if (agentId) signals.add(agentSignal(agentId), evidence);
    components.add('mcp', def.name, '', def.source ?? def.url ?? def.name);
    // The origin only: a path or query can carry a key.
    if (def.url && URL.canParse(def.url)) endpoints.push({ url: new URL(def.url).origin, kind: 'mcp', name: def.name });
  }

  // Local model servers on loopback.
  for (const server of await findLocalServers(sig.localModels, input.probePorts)) {
    const base = { id: `local_model:${server.signature.id}`, category: 'local_model' as const, name: server.signature.name };
    signals.add(base, { kind: 'listening_port', detail: `127.0.0.1:${server.port}` });
    if (server.answered) signals.add(base, { kind: 'api_probe', detail: `GET ${server.signature.probe.path} on port ${server.port}: ${server.models.length} models` });
    endpoints.push({ url: server.url, kind: 'local-model', name: server.signature.name });
    for (const model of server.models) localModels.push({ model, server: server.signature.id, endpoint: server.url });
  }

  // Provider keys, by name.
  for (const name of input.envKeysSet) signals.add({ id: `provider_key:${name}`, category: 'provider_key', name }, { kind: 'env_key', detail: name });

  return {
    findings: { signals: signals.list(), processes, endpoints, local_models: localModels, components: components.list() },
    entries: walk.entries,
    truncated: walk.truncated,
    warnings,
  };
}
