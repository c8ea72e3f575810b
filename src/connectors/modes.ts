// The connector mode summary reported by GET /status (spec table "Connector mode summary").
import type { Config } from '../config/schema.js';
import type { ConnectorInfo } from './registry.js';

export interface ConnectorMode {
  connector: string;
  mode: 'guardrail' | 'observability';
  policy_mode: 'observe' | 'action';
  guardrail_mode: 'observe' | 'action';
  hook_fail_mode: 'closed' | 'open';
  enabled: boolean;
  hook_enforcement: boolean;
  enforcement_surface: 'llm_proxy' | 'agent_lifecycle_hooks';
  telemetry: string[];
  proxy_intercept: boolean;
}

export function connectorMode(connector: ConnectorInfo, config: Config): ConnectorMode {
  const isProxy = connector.llm_traffic === 'proxy';
  const posture = config.guardrail.mode;
  return {
    connector: connector.name,
    // LLM traffic through our proxy can be stopped (guardrail); traffic straight to the provider is only observed.
    mode: isProxy ? 'guardrail' : 'observability',
    policy_mode: posture,
    guardrail_mode: posture,
    hook_fail_mode: config.guardrail.hook_fail_mode,
    enabled: config.guardrail.enabled,
    hook_enforcement: !isProxy && posture === 'action' && config.guardrail.enabled,
    enforcement_surface: isProxy ? 'llm_proxy' : 'agent_lifecycle_hooks',
    telemetry: connector.telemetry,
    proxy_intercept: isProxy,
  };
}
