// The proxy connectors: agents whose LLM traffic goes through Warden's guardrail proxy, so they have no hooks to
// decode or install. One file for both, because a definition is only a name, a description and telemetry.
import type { ProxyConnector } from '../definition.js';

const proxyConnector = (name: string, description: string): ProxyConnector => ({ kind: 'proxy', name, description, telemetry: ['proxy'] });

export const openclaw = proxyConnector('openclaw', 'OpenClaw gateway; LLM traffic through the guardrail proxy');
export const zeptoclaw = proxyConnector('zeptoclaw', 'ZeptoClaw; LLM traffic through the guardrail proxy');
