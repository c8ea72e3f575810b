// The provider registry: which upstream hosts the proxy forwards to and how each takes its credential. The
// built-in list ships in policies/providers.yaml; the operator adds to it with llm_providers.custom in
// config.yaml. Both are read together, and a reload replaces them together or not at all.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Type from 'typebox';
import Value from 'typebox/value';
import { parse } from 'yaml';
import type { Config } from '../config/schema.js';

const BUILTIN_PROVIDERS_FILE = fileURLToPath(new URL('../../policies/providers.yaml', import.meta.url));

export const BuiltinFile = Type.Object(
  {
    providers: Type.Array(
      Type.Object(
        {
          name: Type.String({ minLength: 1 }),
          domains: Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }),
          auth_header: Type.String({ pattern: '^[a-z0-9-]+$' }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

/**
 * auth_header of a custom provider that sets none: the credential goes upstream in the header the client sent
 * it in. An operator's own endpoint may speak any provider's dialect (Anthropic's x-api-key, Azure's api-key,
 * Google's x-goog-api-key), and the client's SDK knows which one; rewriting it to Bearer broke all but OpenAI's.
 */
export const AS_SENT = 'as-sent';

export interface Provider {
  name: string;
  /** Host names or host:port; `*` is one DNS label. */
  domains: string[];
  /** `authorization` (Bearer), another header name for the bare key, `passthrough`, or `as-sent` (AS_SENT). */
  auth_header: string;
  base_url?: string;
  source: 'builtin' | 'custom';
}

export interface RegistryStatus {
  builtin: { path: string; providers: number };
  overlay: { source: 'config.yaml llm_providers.custom'; providers: number };
  loaded_at: string;
  /** Why the last reload was refused (the registry in force is the previous one). */
  last_reload_error?: string;
}

/** A domain entry compiled: exact host (any port), exact host:port, or a one-label wildcard. */
interface DomainMatcher {
  matches(host: string, port: string): boolean;
}

function compileDomain(entry: string): DomainMatcher {
  const lower = entry.toLowerCase();
  // host:port, with bracketed IPv6 literals ([::1]:11434)
  const portMatch = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(lower);
  const hostPart = portMatch ? portMatch[1]! : lower;
  const portPart = portMatch?.[2];
  const labels = hostPart.split('.');
  const hostMatches = (host: string): boolean => {
    if (!hostPart.includes('*')) return host === hostPart;
    const hostLabels = host.split('.');
    if (hostLabels.length !== labels.length) return false;
    return labels.every((label, i) => {
      const star = label.indexOf('*');
      if (star < 0) return label === hostLabels[i];
      const [prefix, suffix] = [label.slice(0, star), label.slice(star + 1)];
      const candidate = hostLabels[i]!;
      return candidate.length > prefix.length + suffix.length && candidate.startsWith(prefix) && candidate.endsWith(suffix);
    });
  };
  return { matches: (host, port) => hostMatches(host) && (portPart === undefined || portPart === port) };
}

interface Snapshot {
  providers: Provider[];
  matchers: { provider: Provider; domain: DomainMatcher }[];
  status: RegistryStatus;
  /** Answers by host:port, so a busy agent's target is matched once, not on every call. */
  lookups: Map<string, Provider | null>;
}

const MAX_CACHED_LOOKUPS = 1024;

function readBuiltin(path: string): Provider[] {
  const data: unknown = parse(readFileSync(path, 'utf8'));
  if (!Value.Check(BuiltinFile, data)) {
    const first = Value.Errors(BuiltinFile, data)[0];
    throw new Error(`${path}: ${first ? `${first.instancePath || '/'} ${first.message}` : 'invalid provider registry'}`);
  }
  return data.providers.map((p) => ({ ...p, source: 'builtin' as const }));
}

function build(builtinPath: string, config: Config): Snapshot {
  const builtin = readBuiltin(builtinPath);
  const custom: Provider[] = config.llm_providers.custom.map((p) => ({
    name: p.name,
    domains: p.domains,
    auth_header: (p.auth_header ?? AS_SENT).toLowerCase(),
    ...(p.base_url ? { base_url: p.base_url } : {}),
    source: 'custom' as const,
  }));
  // Custom entries come first so an operator can change how a built-in host takes its credential.
  const providers = [...custom, ...builtin];
  return {
    providers,
    matchers: providers.flatMap((provider) => provider.domains.map((d) => ({ provider, domain: compileDomain(d) }))),
    status: {
      builtin: { path: builtinPath, providers: builtin.length },
      overlay: { source: 'config.yaml llm_providers.custom', providers: custom.length },
      loaded_at: new Date().toISOString(),
    },
    lookups: new Map(),
  };
}

export class ProviderRegistry {
  private snapshot: Snapshot;

  constructor(config: Config, private readonly builtinPath = BUILTIN_PROVIDERS_FILE) {
    this.snapshot = build(builtinPath, config);
  }

  /** Re-reads the built-in file and the custom overlay; on any error the current registry stays. */
  reload(readConfig: () => Config): { ok: true } | { ok: false; error: string } {
    try {
      this.snapshot = build(this.builtinPath, readConfig());
      return { ok: true };
    } catch (err) {
      const error = (err as Error).message;
      this.snapshot.status = { ...this.snapshot.status, last_reload_error: error };
      return { ok: false, error };
    }
  }

  /** The provider serving `url`, if its host or host:port is registered. */
  lookup(url: URL): Provider | undefined {
    const host = url.hostname.toLowerCase();
    const port = url.port || (url.protocol === 'https:' ? '443' : '80');
    const { lookups, matchers } = this.snapshot;
    const key = `${host}:${port}`;
    const known = lookups.get(key);
    if (known !== undefined) return known ?? undefined;
    const provider = matchers.find((m) => m.domain.matches(host, port))?.provider;
    if (lookups.size >= MAX_CACHED_LOOKUPS) lookups.clear();
    lookups.set(key, provider ?? null);
    return provider;
  }

  list(): { providers: Provider[]; status: RegistryStatus } {
    return { providers: this.snapshot.providers, status: this.snapshot.status };
  }
}
