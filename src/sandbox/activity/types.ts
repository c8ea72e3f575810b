// The activity stream's event (spec document 1, "Sandbox resources" ActivityEvent): what happened in which
// sandbox, numbered by the gateway. Producers (egress proxy, hook ingress, approvals, the manager) do not import
// this type: they hand `ActivityLog.append` a partial event `{kind, sandbox, ...fields}` and the log assigns
// `seq` and `time`.

/** The kinds of the spec's table. */
export const ACTIVITY_KINDS = [
  'egress.allowed', 'egress.blocked', 'egress.large_upload', 'egress.unblocked',
  'approval.requested', 'approval.resolved', 'tool.blocked', 'sandbox.lifecycle', 'finding', 'workspace', 'dropped',
] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

/** `sandbox` of an event that concerns every sandbox (an unblock with `always` and no sandbox). */
export const EVERY_SANDBOX = '*';

/** What a producer hands the log (the seam E and H emit through). */
export interface ActivityInput {
  kind: string;
  sandbox: string;
  [field: string]: unknown;
}

export interface ActivityEvent {
  /** One higher per event, per gateway process. */
  seq: number;
  /** ISO 8601. */
  time: string;
  kind: ActivityKind | (string & {});
  sandbox: string;
  host?: string;
  port?: number;
  method?: string;
  /** Which part of Warden saw it: the egress proxy's fixed source string, or the sandbox runtime's. */
  source?: string;
  category?: string;
  rule?: string;
  unblockable?: boolean;
  bytes_up?: number;
  bytes_down?: number;
  threshold?: number;
  approval_id?: string;
  tool?: string;
  event?: string;
  phase?: string;
  severity?: string;
  reason?: string;
  message?: string;
  /** `dropped` only: how many events this subscriber missed. */
  missed?: number;
  [field: string]: unknown;
}
