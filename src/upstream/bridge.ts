// What the sidecar asks of the upstream agent gateway, in the gateway's own methods: skill inventory and
// enablement (`skills.status`, `skills.update` in its config mode), the tools catalog (`tools.catalog`) and config
// changes (`config.patch`, merged upstream). Plugin enablement goes through the config RPC, as the spec says:
// `plugins.entries.<id>.enabled`. Free of HTTP: the routes in gateway/routes/upstream.ts shape the answers.
import { WardenError } from '../errors.js';
import type { UpstreamGatewayClient } from './client.js';
import { UpstreamCallError } from './errors.js';

/** A config path segment the bridge forwards: no empty segment and nothing that names a prototype. */
const FORBIDDEN_SEGMENTS: ReadonlySet<string> = new Set(['__proto__', 'prototype', 'constructor']);

export class InvalidConfigPathError extends WardenError {
  constructor(path: string) {
    super('WARDEN_ERR_UPSTREAM_CONFIG_PATH', `invalid config path "${path}": dot-separated names, none empty or __proto__/prototype/constructor`, { statusCode: 400 });
  }
}

/** Path segments and a value as the partial document `{a: {b: {c: value}}}` that config.patch merges. */
function partialConfig(segments: readonly string[], value: unknown): Record<string, unknown> {
  if (segments.length === 0 || segments.some((s) => s.trim() === '' || FORBIDDEN_SEGMENTS.has(s))) {
    throw new InvalidConfigPathError(segments.join('.'));
  }
  let document: unknown = value;
  for (const segment of [...segments].reverse()) document = Object.fromEntries([[segment, document]]);
  return document as Record<string, unknown>;
}

/** OpenClaw refuses a config write whose base hash is stale ("re-run config.get and retry with baseHash"). */
const isStaleHash = (err: unknown) => err instanceof UpstreamCallError && /base ?hash/i.test(err.message);

export class UpstreamBridge {
  constructor(readonly client: UpstreamGatewayClient) {}

  skillsStatus(): Promise<unknown> {
    return this.client.call('skills.status', {});
  }

  toolsCatalog(): Promise<unknown> {
    return this.client.call('tools.catalog', {});
  }

  setSkillEnabled(skillKey: string, enabled: boolean): Promise<unknown> {
    return this.client.call('skills.update', { skillKey, enabled });
  }

  setPluginEnabled(pluginId: string, enabled: boolean): Promise<unknown> {
    // Built from segments, not a dotted string: a plugin id may itself contain a dot.
    return this.patchDocument(partialConfig(['plugins', 'entries', pluginId, 'enabled'], enabled));
  }

  /** Merges `value` at the dot-separated `path` of the upstream configuration. */
  patchConfig(path: string, value: unknown): Promise<unknown> {
    return this.patchDocument(partialConfig(path.split('.'), value));
  }

  /**
   * config.patch is guarded by the hash config.get returns: read it, patch against it, and read it again once
   * if another writer got in between.
   */
  private async patchDocument(document: Record<string, unknown>): Promise<unknown> {
    const raw = JSON.stringify(document);
    for (let attempt = 0; ; attempt++) {
      const current = await this.client.call<{ hash?: unknown }>('config.get', {});
      const baseHash = typeof current?.hash === 'string' ? current.hash : undefined;
      try {
        return await this.client.call('config.patch', { raw, ...(baseHash ? { baseHash } : {}) });
      } catch (err) {
        if (attempt > 0 || !isStaleHash(err)) throw err;
      }
    }
  }
}
