// The egress proxy's seams (issue "Step 11"): what it is told about a sandbox when it starts, the callbacks it
// reports and asks through (activity, approvals, unblocks, audit), and what it answers for the Sandbox view.
// Approvals and the activity log are another module's: the proxy only knows these function shapes.
import type { FirewallInput, FirewallOutput } from '../../policy/service.js';
import type { NewEgressRecord } from '../../audit/store.js';
import type { NetworkMode } from '../ports.js';
import type { Mount } from '../runtime/driver.js';

/** A `credentials` binding of a create request: injected by the proxy into requests to host:port. */
export interface CredentialBinding {
  name: string;
  value: string;
  host: string;
  port: number;
}

/** What the proxy needs to know of a sandbox session. */
export interface EgressSandbox {
  name: string;
  session: number;
  pack: string;
  profile: string;
  network_mode: NetworkMode;
  approvals: boolean;
  host_ports: number[];
  credentials: CredentialBinding[];
}

/** One activity event as the activity log takes it (it adds `seq` and `time`). */
export type EmitActivity = (event: { kind: string; sandbox: string; [field: string]: unknown }) => void;

export interface AskRequest {
  sandbox: string;
  host: string;
  port: number;
  binary?: string;
  kind: 'network_rule' | 'host_port';
  reason: string;
}
export type Ask = (request: AskRequest) => Promise<{ decision: 'approve' | 'reject' }>;

/** The `openshell.egress` settings in force (read on every decision: a reload or an `always` applies at once). */
export interface EgressSettings {
  large_upload_bytes: number;
  large_upload_block: boolean;
  large_upload_exempt: string[];
  unblocked: string[];
  block: string[];
}

/**
 * Where a sandbox's model traffic goes (the guardrail proxy in force) and which destinations are model providers
 * (the guardrail proxy's own registry, so both agree on what is model traffic).
 */
export interface GuardrailRoute {
  /** The guardrail proxy's base URL (`http://127.0.0.1:<guardrail.port>`). */
  url: string;
  /** The gateway token, sent as X-Warden-Auth on the host side (never given to the sandbox). */
  token: string | undefined;
  /** The registry's provider name for a destination (`scheme://host:port`), if it is one. */
  provider(url: URL): string | undefined;
  /** Whether the guardrail proxy serves `method path` as model traffic: only those requests carry the token. */
  isModelCall(method: string, path: string): boolean;
}

export interface EgressDeps {
  /** The firewall decision (the policy service's `evaluate('firewall', …)`). */
  firewall: (input: FirewallInput) => FirewallOutput;
  settings: () => EgressSettings;
  /** Network egress audit rows (the audit store's appendEgress). */
  audit?: (record: NewEgressRecord) => Promise<void>;
  emit?: EmitActivity;
  ask?: Ask;
  isUnblocked?: (sandbox: string, host: string) => boolean;
  /** Where a sandbox's proxy socket and CA file live on the host (`$WARDEN_HOME/sandboxes/<name>/egress`). */
  dirOf: (sandbox: string) => string;
  /** Name resolution (default: the system resolver, every address). */
  resolve?: (host: string) => Promise<string[]>;
  /** Ports of Warden's own listeners on the host a sandbox reaches without asking (the guardrail proxy's). */
  gatewayPorts?: () => number[];
  /** Model traffic: requests to a registered provider go to the guardrail proxy instead (absent: none do). */
  guardrail?: () => GuardrailRoute | undefined;
  /** Test only: the CA that signs the test's TLS upstream, trusted besides the system's. */
  upstreamCA?: string;
}

/** What a sandbox needs to use the proxy: mounts, variables for the harness, and the forwarder to start first. */
export interface EgressSetup {
  mounts: Mount[];
  env: Record<string, string>;
  /** Commands run inside the sandbox, in order, before the entry program (each must exit 0). */
  init: string[][];
}

/** The refusal facts approvals need (what can be unblocked). */
export interface Refusal {
  unblockable: boolean;
  category: string;
}

/** Last result of one credentialed endpoint (Sandbox `endpoints`). */
export interface EndpointResult {
  name: string;
  host: string;
  port: number;
  /** `ok` (an answer below 400), `error` (an answer of 400 or more) or `unreachable`. */
  result: 'ok' | 'error' | 'unreachable' | 'unused';
  status?: number;
  at?: string;
  error?: string;
}

/** Sandbox `egress` totals. */
export interface EgressTotals {
  allowed: number;
  blocked: number;
  asked: number;
  large_uploads: number;
  bytes_up: number;
  bytes_down: number;
}

/** The manager's view of the proxy: set a sandbox up before each start, forget it on delete. */
export interface EgressPort {
  attach(sandbox: EgressSandbox): EgressSetup;
  detach(name: string): void;
  /** The Sandbox view's `egress` totals and `endpoints` (the proxy's own; a test's port may have none). */
  view?(name: string): { totals: EgressTotals | undefined; endpoints: EndpointResult[] };
}
