// The seams inside the sandbox manager (spec document 1, "Sandbox resources", "Sandbox API"). The manager
// (manager/) owns state and phases; it asks the policy resolver (policy/) which settings a run gets, and the
// workspace keeper (snapshot/) for undo points and project checks. Each side is built and tested on its own;
// src/sandbox/index.ts joins them for the gateway.

/** The run options of a CreateRequest (and of `GET /policy/explain`), as the caller asked for them. */
export interface RunOptions {
  /** A connector name from the registry, or `shell`. */
  harness: string;
  /** Absolute host path of the launch folder. */
  project: string;
  pack?: string;
  profile?: string;
  /** Copy mode: the project is a label; the CLI uploads a copy and reports it with POST …/workspace. */
  copy?: boolean;
  safe?: boolean;
  yolo?: boolean;
  /** Extra host folders made visible read-only inside the sandbox. */
  context?: string[];
  /** Host paths the pack masks that the caller asks to see. */
  unmask?: string[];
  /** Ports on the host machine the sandbox may reach (each one is an approval of kind host_port). */
  host_ports?: number[];
  no_mcp?: boolean;
  learn?: boolean;
  /** CPU limit in cores (fractions allowed). */
  cpu?: number;
  /** Memory limit, `<n>m` or `<n>g`. */
  memory?: string;
}

export type SettingSource = 'pack' | 'user' | 'flag' | 'admin' | 'gateway' | 'default';

/** One resolved setting of the Explain answer. */
export interface PolicySetting {
  key: string;
  value: unknown;
  source: SettingSource;
  /** Where the value was read: a pack file, `config.yaml`, the admin file, a flag name. */
  origin: string;
  /** Present when the value was clamped: what the caller asked for. */
  requested?: unknown;
}

/** A setting the policy clamped (Sandbox `violations`). */
export interface PolicyViolation {
  key: string;
  requested: unknown;
  value: unknown;
  reason: string;
}

export type NetworkMode = 'none' | 'policed' | 'open';

/** What a run is allowed to do, after packs, profile, user flags and the administrator file. */
export interface ResolvedPolicy {
  pack: string;
  /** `shipped`, `config` (openshell.packs) or a file path. */
  pack_source: string;
  /** `sha256:<hex>` of the pack's canonical content. */
  pack_digest: string;
  profile: string;
  network_mode: NetworkMode;
  /** Whether egress the policy does not decide is asked of a human (approvals) or refused. */
  approvals: boolean;
  yolo: boolean;
  admin: { configured: boolean; authority: 'authoritative' | 'advisory'; detail: string };
  settings: PolicySetting[];
  violations: PolicyViolation[];
  /** The options the manager applies: the request's, clamped. */
  effective: Required<Pick<RunOptions, 'copy' | 'safe' | 'yolo' | 'context' | 'unmask' | 'host_ports' | 'no_mcp' | 'learn'>> &
    Pick<RunOptions, 'cpu' | 'memory'>;
}

/**
 * Resolves the policy of a run. Throws a SandboxApiError with code `pack_invalid` (400), `admin_violation`
 * (403, message starting "blocked by your organization's policy") or `policy_violation` (403).
 */
export interface SandboxPolicyPort {
  resolve(options: RunOptions): ResolvedPolicy;
}

/** The undo point of a mounted project (Sandbox `snapshot`). */
export interface SnapshotInfo {
  kind: 'git';
  ref: string;
  created_at: string;
  undone_at?: string;
  accepted_at?: string;
}

export interface FileChange {
  path: string;
  change: 'added' | 'modified' | 'deleted';
  /** Mode bits changed (chmod) without or with a content change. */
  mode_changed?: boolean;
}

export interface ReviewReport {
  report: { added: string[]; modified: string[]; deleted: string[] };
  summary: string;
  /** One line naming the risky kinds touched: hooks, CI files, dependency manifests, executables, secrets-like files. */
  risk_line: string;
  diff?: string;
}

export interface UndoOutcome {
  /** What changed (preview) or was restored. */
  changes: FileChange[];
  preview: boolean;
  summary: string;
}

/** How a project folder can be mounted live. */
export interface ProjectCheck {
  /** Set when the folder cannot be mounted live: why (linked worktree, .git symlink, git dir outside). */
  needs_copy?: string;
  /** Git repositories nested inside the folder (relative paths). */
  nested_repos: string[];
}

/** Snapshots kept in a private git repository under `$WARDEN_HOME/sandboxes/<name>/`, never the project's `.git`. */
export interface WorkspacePort {
  checkProject(project: string): Promise<ProjectCheck>;
  /** Snapshot every file of the folder (minus the documented excludes). */
  take(sandbox: string, project: string): Promise<SnapshotInfo>;
  /** Whether the folder differs from the sandbox's last snapshot. */
  hasChanges(sandbox: string, project: string): Promise<boolean>;
  undo(sandbox: string, project: string, options: { preview: boolean; keepRefs: boolean }): Promise<UndoOutcome>;
  review(sandbox: string, project: string, options: { diff: boolean }): Promise<ReviewReport>;
  /** Forget the sandbox's snapshots (delete without keep_snapshot). */
  remove(sandbox: string): Promise<void>;
}
