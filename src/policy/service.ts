// The policy service: the shipped Rego modules plus the operator's `policy_dir`, compiled once, with the
// operator's config.yaml settings (admission actions, first-party lists, allow_list_bypass_scan) injected as
// data.warden.config, answering the four decision domains. Knows nothing of HTTP: the /policy routes, the CLI
// and the bench call it. Decisions are cached per input until a reload or a change of the enforcement lists;
// reload() compiles the new policy completely before swapping it in, so a bad module leaves the running one.
import type { AssetEntry, AssetType, Config } from '../config/schema.js';
import { WardenError } from '../errors.js';
import { isObject } from '../util/json.js';
import { canonicalHost } from './address.js';
import { loadPolicySources } from './files.js';
import { POLICY_LIMITS } from './limits.js';
import { fromJSON, RegoError, RegoPolicy, toJSON, type Limits } from './rego/index.js';

export const POLICY_DOMAINS = ['admission', 'firewall', 'audit', 'skill_actions'] as const;
export type PolicyDomain = (typeof POLICY_DOMAINS)[number];

export const ADMISSION_TYPES = ['skill', 'mcp', 'plugin'] as const;

/** One enforcement list entry (config.yaml `asset_policy.<type>.denied|allowed`, read by lists.ts, whose
 *  entries fit this shape; a test's or policy_dir's entries may pin an allow to several path markers). */
export type ListEntry = Omit<AssetEntry, 'source_path_contains'> & {
  /** An allow entry applies only when the install path contains this (or one of these) markers. */
  source_path_contains?: string | string[];
};
export interface TypeLists { denied: ListEntry[]; allowed: ListEntry[] }
export type EnforcementLists = Partial<Record<AssetType, TypeLists>>;
export const NO_LISTS: EnforcementLists = Object.freeze({});

export interface AdmissionInput {
  target_type: (typeof ADMISSION_TYPES)[number];
  target_name: string;
  path?: string;
  connector?: string;
  scan_result?: { max_severity: string; unscannable?: boolean; reason?: string };
}
export interface ActionTriple { install: 'block' | 'allow' | 'none'; file: 'quarantine' | 'none'; runtime: 'disable' | 'enable' }
export interface AdmissionOutput {
  verdict: 'blocked' | 'allowed' | 'scan' | 'clean' | 'rejected' | 'warning';
  reason: string;
  actions: ActionTriple;
  matched_list: 'denied' | 'allowed' | 'first_party' | null;
  severity: string;
}
export interface FirewallInput {
  host: string; port: number; protocol: string; binary?: string; sandbox?: string;
  /** What a sandbox's egress proxy adds (policies/rego/firewall.rego says how each is used). */
  pack?: string; profile?: string; network_mode?: 'none' | 'policed' | 'open'; approvals?: boolean; host_ports?: number[];
  unblocked?: boolean; blocked?: boolean; resolved?: string[]; gateway_ports?: number[];
}
export interface FirewallOutput {
  allow: boolean; reason: string; matched_rule: string | null;
  /** Hold the connection and ask a human (a sandbox with approvals). */
  ask: boolean;
  /** `metadata`, `denied`, `host_port`, `unknown_host`, `rejected`, `network_none`, `allowed`, `open`, … */
  category: string;
  /** Whether a human may lift this refusal (POST /egress/unblock). */
  unblockable: boolean;
}
export interface AuditInput { event_type: string; severity?: string; fields?: string[] }
export interface AuditOutput { keep: boolean; retention_days: number; redact: string[] }
export interface SkillActionsInput { severity: string }
export interface SkillActionsOutput { severity: string; actions: ActionTriple }

interface DomainTypes {
  admission: [AdmissionInput, AdmissionOutput];
  firewall: [FirewallInput, FirewallOutput];
  audit: [AuditInput, AuditOutput];
  skill_actions: [SkillActionsInput, SkillActionsOutput];
}

const EVAL_LIMITS: Partial<Limits> = {
  maxSteps: POLICY_LIMITS.maxSteps,
  maxDepth: POLICY_LIMITS.maxDepth,
  maxOutput: POLICY_LIMITS.maxOutput,
  maxMillis: POLICY_LIMITS.maxEvalMs,
};

export interface PolicyServiceOptions {
  /** The configured folder, already resolved (see resolvePolicyDir); undefined: shipped modules only. */
  policyDir: string | undefined;
  /** Remember decisions per input (off in the bench, which measures the decision itself). */
  cache?: boolean;
}

interface Loaded {
  /** Compiled modules over the operator's data.json and the config settings, without lists. */
  base: RegoPolicy;
  baseData: Record<string, unknown>;
}

export class PolicyService {
  private loaded: Loaded;
  /** `base` with the lists of `listsKey` injected. */
  private current: RegoPolicy;
  private lastLists: EnforcementLists = NO_LISTS;
  private listsKey = '{}';
  private readonly decisions = new Map<string, unknown>();

  /** Compiles the policy; a problem (module, data.json, folder) throws a WardenError and nothing is built. */
  constructor(
    private readonly config: Pick<Config, 'admission'>,
    private readonly options: PolicyServiceOptions,
  ) {
    this.loaded = this.load();
    this.current = this.withLists(this.loaded, NO_LISTS);
  }

  get policyDir(): string | undefined {
    return this.options.policyDir;
  }

  /** Re-reads the modules and data.json; on any problem throws and the running policy stays. */
  reload(): { policy_dir: string | null } {
    const next = this.load();
    this.loaded = next;
    this.current = this.withLists(next, this.lastLists);
    this.decisions.clear();
    return { policy_dir: this.options.policyDir ?? null };
  }

  /** The decision of one domain for one input, with the enforcement lists in force now. */
  evaluate<D extends PolicyDomain>(domain: D, input: DomainTypes[D][0], lists: EnforcementLists = NO_LISTS): DomainTypes[D][1] {
    this.useLists(lists);
    const document = domain === 'firewall' ? { ...input, address: canonicalHost((input as FirewallInput).host) } : input;
    const key = `${domain}\0${JSON.stringify(document)}`;
    const cached = this.decisions.get(key);
    if (cached !== undefined) return cached as DomainTypes[D][1];
    const decision = this.query(`data.warden.${domain}.decision`, document);
    if (decision === undefined) {
      throw new WardenError('WARDEN_ERR_POLICY_UNDEFINED', `the ${domain} policy gave no decision for this input`, { statusCode: 500 });
    }
    if (this.options.cache !== false) {
      if (this.decisions.size >= POLICY_LIMITS.maxCachedDecisions) this.decisions.clear();
      this.decisions.set(key, decision);
    }
    return decision as DomainTypes[D][1];
  }

  /** The value of a Rego expression (a rule path such as `data.warden.admission.decision`) against the loaded policy. */
  query(path: string, input?: unknown): unknown {
    try {
      const value = this.current.evaluate(path, { ...(input === undefined ? {} : { input: fromJSON(input) }), limits: EVAL_LIMITS });
      return value === undefined ? undefined : toJSON(value);
    } catch (err) {
      if (err instanceof RegoError) throw new WardenError('WARDEN_ERR_POLICY_EVAL', err.message, { statusCode: 500, cause: err });
      throw err;
    }
  }

  private load(): Loaded {
    const sources = loadPolicySources(this.options.policyDir);
    const baseData = mergeData(sources.data, { warden: { config: { admission: admissionData(this.config) } } });
    try {
      return { base: RegoPolicy.compile(sources.modules, baseData), baseData };
    } catch (err) {
      if (err instanceof RegoError) throw new WardenError('WARDEN_ERR_POLICY_COMPILE', err.message, { statusCode: 400, cause: err });
      throw err;
    }
  }

  private useLists(lists: EnforcementLists): void {
    if (lists === this.lastLists) return;
    this.lastLists = lists;
    const key = JSON.stringify(lists);
    if (key === this.listsKey) return;
    this.listsKey = key;
    this.current = this.withLists(this.loaded, lists);
    this.decisions.clear();
  }

  /** The lists as admission.rego reads them: per type and list, the entries grouped by name (an O(1) lookup). */
  private withLists({ base, baseData }: Loaded, lists: EnforcementLists): RegoPolicy {
    const byType = Object.fromEntries(ADMISSION_TYPES.map((t) => [t, { denied: byName(lists[t]?.denied), allowed: byName(lists[t]?.allowed) }]));
    return base.withData(mergeData(baseData, { warden: { config: { admission: { lists: byType } } } }));
  }
}

/** The admission part of config.yaml as the module reads it: only what the operator set (rule 1). */
function admissionData(config: Pick<Config, 'admission'>): Record<string, unknown> {
  const { defaults, ...types } = config.admission;
  const firstParty = Object.fromEntries(
    Object.entries(types).flatMap(([type, t]) => (t.first_party_allow_list ? [[type, t.first_party_allow_list]] : [])),
  );
  return {
    allow_list_bypass_scan: defaults.allow_list_bypass_scan,
    actions: Object.fromEntries(Object.entries(types).map(([type, t]) => [type, t.actions])),
    first_party_allow_list: firstParty,
  };
}

function byName(entries: readonly ListEntry[] = []): Record<string, ListEntry[]> {
  const out: Record<string, ListEntry[]> = {};
  for (const entry of entries) (out[entry.name] ??= []).push(entry);
  return out;
}

/** `over` laid on `under`: objects merge key by key, anything else in `over` replaces. */
function mergeData(under: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...under };
  for (const [key, value] of Object.entries(over)) {
    const below = out[key];
    out[key] = isObject(value) && isObject(below) ? mergeData(below, value) : value;
  }
  return out;
}
