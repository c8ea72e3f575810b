// What Warden knows about one agent, in one typed object per agent (src/connectors/<agent>/): its events (phase,
// whether setup installs it, whether it is a gate), how its native payload decodes and Warden's decision renders,
// the agent's own refusal for when Warden cannot be asked, and the configuration file `warden setup` edits. The
// registry, the hook route, `warden setup` and the fail-closed answer setup writes for the hook script are all
// derived from these.
import type { DecodedHookEvent, HookDecision, HookPhase, NativeHookAnswer } from './hook-event.js';
import type { HookTarget } from './setup/hook-command.js';
import type { OtelTarget } from './setup/otel-settings.js';

export interface HookEventSpec {
  phase: HookPhase;
  /** `warden setup` installs the hook script for this event. */
  installed: boolean;
  /** A refusal on this event stops something (a tool call, a prompt), so a hook that fails closed refuses it.
   *  Only installed events are gates. */
  gate: boolean;
}

/** An installed event whose refusal stops a tool call or a prompt. */
export const gate = (phase: HookPhase): HookEventSpec => ({ phase, installed: true, gate: true });
/** An installed event that is inspected and recorded but cannot be stopped by a refusal. */
export const hooked = (phase: HookPhase): HookEventSpec => ({ phase, installed: true, gate: false });
/** An event decoded when the agent sends it, which setup does not install (the reason is beside each one). */
export const decodedOnly = (phase: HookPhase): HookEventSpec => ({ phase, installed: false, gate: false });

/** The agent's own configuration file and how Warden's hook entries are written into it. */
export interface SetupTarget {
  /** The agent configuration file, relative to the user's home directory. */
  file: string;
  /** New file text with our hooks (text undefined: no file yet). Throws AgentConfigError. */
  install(text: string | undefined, events: readonly string[], target: HookTarget): string;
  /** The text without our entries; null to delete the file (it held nothing else). */
  remove(text: string): string | null;
  installed(text: string): boolean;
  /** What the user still has to do or know, given the installed file's text. */
  notes?(text: string): string[];
}

interface Described {
  name: string;
  description: string;
  /** Telemetry channels the connector can wire up besides its main data path. */
  telemetry: readonly string[];
}

/** How `warden setup <agent> --telemetry` points the agent's own OpenTelemetry export at Warden's OTLP receiver. */
export interface OtelSetup {
  /** The agent's file holding its OTel settings, relative to the user's home directory. */
  file: string;
  /** The agent gets a scoped OTLP token (spec "Authentication" 7); otherwise it uses the gateway token over loopback. */
  scoped: boolean;
  /** New file text with the agent's OTel settings. Throws AgentConfigError. */
  install(text: string | undefined, target: OtelTarget): string;
  /** What the user still has to do or know. */
  notes?: readonly string[];
}

/** An agent that runs Warden's hook script on its lifecycle events (POST /api/v1/<name>/hook). */
export interface HookAgent extends Described {
  kind: 'hook';
  /** Every native event Warden knows, in the order setup installs them. */
  events: Readonly<Record<string, HookEventSpec>>;
  /** Throws HookPayloadError when the payload is not an object or names no event. */
  decode(payload: unknown): DecodedHookEvent;
  render(event: DecodedHookEvent, decision: HookDecision): NativeHookAnswer;
  /** The agent's simplest block, answered by the hook script on a gate event when Warden cannot be asked. */
  refusal(reason: string): NativeHookAnswer;
  setup: SetupTarget;
  /** Its OpenTelemetry export, where the agent has one Warden can configure. */
  otelSetup?: OtelSetup;
  /** The agent's CLI on the npm registry, installed into its sandbox harness image (src/sandbox/images/). */
  harness?: HarnessPackage;
}

/** An agent CLI as `npm install <package>@<version>` installs it; `bin` is the command it puts in node_modules/.bin. */
export interface HarnessPackage {
  package: string;
  /** Pinned exactly: an image's content, and so its image_id, follows from it. */
  version: string;
  bin: string;
}

/** An agent whose LLM traffic goes through the guardrail proxy instead of hooks. */
export interface ProxyConnector extends Described {
  kind: 'proxy';
}

export type ConnectorDefinition = HookAgent | ProxyConnector;

/** The events `warden setup` installs, in order. */
export function installedEvents(agent: Pick<HookAgent, 'events'>): string[] {
  return Object.entries(agent.events).filter(([, e]) => e.installed).map(([name]) => name);
}

/** The events a fail-closed hook refuses. */
export function gateEvents(agent: Pick<HookAgent, 'events'>): string[] {
  return Object.entries(agent.events).filter(([, e]) => e.gate).map(([name]) => name);
}
