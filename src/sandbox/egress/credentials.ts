// How a `credentials` binding is injected into a request to its host:port: as the provider's own header. Known
// providers are recognised by host; anything else gets `Authorization: Bearer <value>` (the common form of
// OAuth 2 bearer tokens and most API keys). The sandbox's own value for that header, if any, is replaced: the
// sandbox never holds the secret, so whatever it sent is a placeholder.
import type { CredentialBinding } from './types.js';

interface HeaderRule {
  /** Host suffixes (exact host or any subdomain). */
  hosts: string[];
  header: string;
  format: (value: string) => string;
}

const bearer = (value: string) => `Bearer ${value}`;
const raw = (value: string) => value;

/** Known providers; the first match wins. */
const RULES: HeaderRule[] = [
  { hosts: ['api.anthropic.com'], header: 'x-api-key', format: raw },
  { hosts: ['generativelanguage.googleapis.com'], header: 'x-goog-api-key', format: raw },
  { hosts: ['openai.azure.com', 'cognitiveservices.azure.com'], header: 'api-key', format: raw },
];

const DEFAULT_RULE = { header: 'authorization', format: bearer };

function matchesHost(host: string, suffix: string): boolean {
  return host === suffix || host.endsWith(`.${suffix}`);
}

/** The header name (lowercase) and value that carry the binding's secret to its host. */
export function credentialHeader(binding: CredentialBinding): { name: string; value: string } {
  const host = binding.host.toLowerCase();
  const rule = RULES.find((r) => r.hosts.some((suffix) => matchesHost(host, suffix))) ?? DEFAULT_RULE;
  return { name: rule.header.toLowerCase(), value: rule.format(binding.value) };
}

/** The binding for a destination, if any (host compared case-insensitively). */
export function bindingFor(bindings: readonly CredentialBinding[], host: string, port: number): CredentialBinding | undefined {
  const wanted = host.toLowerCase();
  return bindings.find((b) => b.host.toLowerCase() === wanted && b.port === port);
}
