// Approvals (spec document 1, "Sandbox resources" Approval and the "Approval status" table): egress the policy
// neither allows nor blocks is asked of a human. The egress proxy asks through `Approvals.ask` (the seam below),
// the operator decides with `POST /api/v1/sandbox/approvals/{id}`, and the decision is applied in a batch when
// the sandbox's hooks are quiet.

export type ApprovalKind = 'network_rule' | 'host_port';
export type ApprovalStatus = 'pending' | 'queued' | 'approved' | 'rejected' | 'failed';
export type Decision = 'approve' | 'reject';

/** What the egress proxy asks (the seam it takes at construction). */
export interface AskRequest {
  sandbox: string;
  host: string;
  port: number;
  /** The program that opened the connection, when the proxy knows it. */
  binary?: string;
  kind: ApprovalKind;
  /** Why the policy asks (the proxy's triage). */
  reason: string;
}

export interface AskAnswer {
  decision: Decision;
}

export interface Approval {
  id: string;
  sandbox: string;
  kind: ApprovalKind;
  host: string;
  port: number;
  /** Every `host:port` asked for while this approval was open (one approval per sandbox, kind and host). */
  endpoints: string[];
  binary: string | null;
  risky: boolean;
  /** The triage reason: why the policy asked, and the advisor's verdict. */
  reason: string;
  rationale: string;
  security_notes: string[];
  status: ApprovalStatus;
  created_at: string;
  /** Set when decided: the decision, whether it was made for every sandbox, the operator's reason. */
  decision: Decision | null;
  always: boolean;
  decision_reason: string | null;
  decided_at: string | null;
  /** Set when applied (approved, rejected) or given up (failed); `failure` says why it failed. */
  resolved_at: string | null;
  failure: string | null;
}
