// The agents whose OTLP events Warden understands: one map per agent in this folder, one line here. Records from
// anything else are still kept, as `other` events filed under the authenticated source or `unknown`.
import { claudeCodeTelemetry } from './claudecode.js';
import { codexTelemetry } from './codex.js';
import { geminiCliTelemetry } from './geminicli.js';
import type { AgentTelemetryMap } from './types.js';

export const AGENT_TELEMETRY: readonly AgentTelemetryMap[] = [claudeCodeTelemetry, codexTelemetry, geminiCliTelemetry];

/** Sources that can hold a scoped OTLP credential (spec "Authentication" 7); geminicli uses the master token. */
export const SCOPED_SOURCES = ['claudecode', 'codex'] as const;

/** Every source name an OTLP request may declare in X-Warden-Source. */
export const OTLP_SOURCES: readonly string[] = AGENT_TELEMETRY.map((a) => a.source);

export function telemetryOfSource(source: string | undefined): AgentTelemetryMap | undefined {
  return AGENT_TELEMETRY.find((a) => a.source === source);
}

/** The agent an event name belongs to, by its prefix. */
export function telemetryOfEvent(name: string): AgentTelemetryMap | undefined {
  return AGENT_TELEMETRY.find((a) => name.startsWith(a.eventPrefix));
}

export function telemetryOfService(serviceName: string | undefined): AgentTelemetryMap | undefined {
  return serviceName === undefined ? undefined : AGENT_TELEMETRY.find((a) => a.serviceNames.includes(serviceName));
}
