// Scan policies: which findings a scan reports and when a skill counts as unsafe. A policy is a preset
// (policies/scanner/presets/<name>.yaml) or an operator's YAML file of the same shape, optionally `extends`-ing
// a preset. One TypeBox schema validates both.
import { fileURLToPath } from 'node:url';
import Type, { type Static } from 'typebox';
import Value from 'typebox/value';
import { parse } from 'yaml';
import { oneOf } from '../config/schema.js';
import { readRegularFile } from './special-files.js';
import { POLICY_PRESETS, SCAN_SEVERITIES, type AnalyzerFinding, type ScanSeverity } from './types.js';
import { WardenError } from '../errors.js';

const PRESETS_DIR = fileURLToPath(new URL('../../policies/scanner/presets/', import.meta.url));

const Severity = oneOf(SCAN_SEVERITIES);
const PolicyFile = Type.Object(
  {
    extends: Type.Optional(oneOf(POLICY_PRESETS)),
    /** Findings below this severity are not reported. */
    min_severity: Type.Optional(Severity),
    /** A reported finding at or above this severity makes the skill unsafe. */
    unsafe_at: Type.Optional(Severity),
    /** Rule ids or categories mapped to the severity they should carry instead. */
    severity_overrides: Type.Optional(Type.Record(Type.String(), Severity)),
    disabled_rules: Type.Optional(Type.Array(Type.String())),
    disabled_categories: Type.Optional(Type.Array(Type.String())),
    /** Rule id → file types (extensions without the dot, or `markdown`) in which the rule is NOT applied. */
    ignore_in_file_types: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String()))),
  },
  { additionalProperties: false },
);
type PolicyFile = Static<typeof PolicyFile>;

export interface ScanPolicy {
  name: string;
  minSeverity: ScanSeverity;
  unsafeAt: ScanSeverity;
  severityOverrides: Map<string, ScanSeverity>;
  disabledRules: Set<string>;
  disabledCategories: Set<string>;
  ignoreInFileTypes: Map<string, Set<string>>;
}

/** The policy named in a request cannot be used: unknown preset, unreadable or invalid file (HTTP 400). */
export class PolicyError extends WardenError {
  constructor(message: string) {
    super('WARDEN_ERR_SCAN_POLICY_INVALID', message, { statusCode: 400 });
  }
}

const RANK: Record<ScanSeverity, number> = { INFO: 0, LOW: 1, MEDIUM: 2, HIGH: 3, CRITICAL: 4 };
export const atLeast = (severity: ScanSeverity, threshold: ScanSeverity) => RANK[severity] >= RANK[threshold];

function readPolicyFile(path: string, label: string): PolicyFile {
  let data: unknown;
  try {
    // Opened non-blocking and checked on the descriptor: a FIFO named as a policy cannot block the scan.
    const bytes = readRegularFile(path, { followLinks: true });
    if (!bytes) throw new PolicyError(`policy ${label} is not a regular file`);
    data = parse(bytes.toString('utf8'));
  } catch (err) {
    if (err instanceof PolicyError) throw err;
    // The message names the file, never its content (a path from a request may point anywhere readable).
    const reason = (err as NodeJS.ErrnoException).code ? 'cannot be read' : 'is not valid YAML';
    throw new PolicyError(`policy ${label} ${reason}`);
  }
  if (!Value.Check(PolicyFile, data ?? {})) {
    const first = Value.Errors(PolicyFile, data ?? {})[0];
    throw new PolicyError(`policy ${label} is invalid: ${first ? `${first.instancePath || '/'} ${first.message}` : 'bad shape'}`);
  }
  return (data ?? {}) as PolicyFile;
}

function compile(name: string, layers: PolicyFile[]): ScanPolicy {
  const policy: ScanPolicy = {
    name, minSeverity: 'LOW', unsafeAt: 'HIGH',
    severityOverrides: new Map(), disabledRules: new Set(), disabledCategories: new Set(), ignoreInFileTypes: new Map(),
  };
  for (const layer of layers) {
    if (layer.min_severity) policy.minSeverity = layer.min_severity;
    if (layer.unsafe_at) policy.unsafeAt = layer.unsafe_at;
    for (const [key, severity] of Object.entries(layer.severity_overrides ?? {})) policy.severityOverrides.set(key, severity);
    for (const rule of layer.disabled_rules ?? []) policy.disabledRules.add(rule);
    for (const category of layer.disabled_categories ?? []) policy.disabledCategories.add(category);
    for (const [rule, types] of Object.entries(layer.ignore_in_file_types ?? {})) policy.ignoreInFileTypes.set(rule, new Set(types.map((t) => t.toLowerCase())));
  }
  return policy;
}

const presetCache = new Map<string, ScanPolicy>();

/**
 * A preset name, or a path to a policy YAML (checked by `allowPath`, which throws when the path is outside
 * where the caller may read).
 */
export function resolvePolicy(spec: string, allowPath: (path: string) => void = () => {}): ScanPolicy {
  if ((POLICY_PRESETS as readonly string[]).includes(spec)) {
    const cached = presetCache.get(spec);
    if (cached) return cached;
    const policy = compile(spec, [readPolicyFile(`${PRESETS_DIR}${spec}.yaml`, spec)]);
    presetCache.set(spec, policy);
    return policy;
  }
  if (!/[/\\]/.test(spec) || !/\.ya?ml$/i.test(spec)) {
    throw new PolicyError(`unknown policy "${spec}": use one of ${POLICY_PRESETS.join(', ')} or a path to a .yaml file`);
  }
  allowPath(spec);
  const file = readPolicyFile(spec, spec);
  const base = file.extends ? [readPolicyFile(`${PRESETS_DIR}${file.extends}.yaml`, file.extends)] : [];
  return compile(spec, [...base, file]);
}

function fileType(path: string | undefined): string | undefined {
  if (!path) return undefined;
  const dot = path.lastIndexOf('.');
  const ext = dot < 0 ? '' : path.slice(dot + 1).toLowerCase();
  return ext === 'md' || ext === 'markdown' ? 'markdown' : ext;
}

/** The findings the policy reports, with overridden severities. */
export function applyPolicy<T extends AnalyzerFinding>(findings: T[], policy: ScanPolicy): T[] {
  const out: T[] = [];
  for (const finding of findings) {
    if (policy.disabledRules.has(finding.rule_id) || policy.disabledCategories.has(finding.category)) continue;
    const type = fileType(finding.file_path);
    if (type !== undefined && policy.ignoreInFileTypes.get(finding.rule_id)?.has(type)) continue;
    const severity = policy.severityOverrides.get(finding.rule_id) ?? policy.severityOverrides.get(finding.category) ?? finding.severity;
    if (!atLeast(severity, policy.minSeverity)) continue;
    out.push(severity === finding.severity ? finding : { ...finding, severity });
  }
  return out;
}
