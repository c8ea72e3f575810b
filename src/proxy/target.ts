// Where a proxied request goes. With X-Warden-Target-URL: that URL's origin joined with the incoming path
// (spec "Guardrail proxy routes"), accepted only for a registered provider. Without it (chat completions
// only): llm.base_url.
import type { Provider, ProviderRegistry } from './providers.js';

export type TargetResult =
  | { ok: true; url: URL; provider: Pick<Provider, 'name' | 'auth_header'>; via: 'passthrough' | 'default' }
  | { ok: false; status: 400 | 403 | 404; message: string; host?: string };

/** OpenAI-style upstream when llm.base_url is not a registered provider: the operator chose it. */
const CONFIGURED_UPSTREAM = { name: 'configured', auth_header: 'authorization' } as const;

/**
 * llm.base_url for the chat route: a bare origin gets `/v1/chat/completions`; a base with a path (`…/v1`,
 * `…/api/v1`) gets `/chat/completions`, as OpenAI SDKs treat a base URL.
 */
function defaultChatUrl(baseUrl: string, search: string): URL {
  const url = new URL(chatHrefs.get(baseUrl) ?? rememberChatHref(baseUrl));
  if (search !== '') url.search = search;
  return url;
}

/** The chat URL of a base, worked out once per base rather than on every call. */
const chatHrefs = new Map<string, string>();
function rememberChatHref(baseUrl: string): string {
  const base = new URL(baseUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  base.pathname = prefix === '' ? '/v1/chat/completions' : `${prefix}/chat/completions`;
  base.search = '';
  if (chatHrefs.size > 16) chatHrefs.clear();
  chatHrefs.set(baseUrl, base.href);
  return base.href;
}

export function resolveTarget(
  registry: ProviderRegistry,
  header: string | string[] | undefined,
  incomingUrl: string,
  defaultBase: string | undefined,
): TargetResult {
  const queryAt = incomingUrl.indexOf('?');
  const path = queryAt < 0 ? incomingUrl : incomingUrl.slice(0, queryAt);
  const search = queryAt < 0 ? '' : incomingUrl.slice(queryAt);
  if (header === undefined) {
    if (defaultBase === undefined) {
      return { ok: false, status: 404, message: `no route POST ${path}: send X-Warden-Target-URL for provider passthrough` };
    }
    const url = defaultChatUrl(defaultBase, search);
    return { ok: true, url, provider: registry.lookup(url) ?? CONFIGURED_UPSTREAM, via: 'default' };
  }
  if (Array.isArray(header)) return { ok: false, status: 400, message: 'X-Warden-Target-URL given more than once' };
  let target: URL;
  try {
    target = new URL(header);
  } catch {
    return { ok: false, status: 400, message: 'X-Warden-Target-URL is not an absolute URL' };
  }
  if (target.protocol !== 'https:' && target.protocol !== 'http:') {
    return { ok: false, status: 400, message: 'X-Warden-Target-URL must be http or https' };
  }
  if (target.username !== '' || target.password !== '') {
    return { ok: false, status: 400, message: 'X-Warden-Target-URL must not carry credentials' };
  }
  const provider = registry.lookup(target);
  if (!provider) {
    return { ok: false, status: 403, message: `target ${target.host} is not in the provider registry`, host: target.host };
  }
  // Set the path as a path: resolving `//other.host/…` against the origin would switch hosts.
  const url = new URL(target.origin);
  url.pathname = path;
  url.search = search;
  return { ok: true, url, provider, via: 'passthrough' };
}
