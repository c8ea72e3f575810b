// Scan presets: which findings a scan reports and when a skill counts as unsafe. A scan's `policy` option names
// a shipped preset (policies/scanner/presets/<name>.yaml) or an operator's YAML file of the same shape,
// optionally `extends`-ing a preset. One TypeBox schema validates both. (Not the device policy of
// src/fleet/device-policy/ nor the Rego policies of src/policy/.)
import { fileURLToPath } from 'node:url';
import Type, { type Static } from 'typebox';
import Value from 'typebox/value';
import { parse } from 'yaml';
import { oneOf } from '../config/schema.js';
import { readRegularFile } from './special-files.js';
import { SCAN_PRESETS, SCAN_SEVERITIES, type AnalyzerFinding, type ScanSeverity } from './types.js';
import { WardenError } from '../errors.js';

const PRESETS_DIR = fileURLToPath(new URL('../../policies/scanner/presets/', import.meta.url));

const Severity = oneOf(SCAN_SEVERITIES);
export const PresetFile = Type.Object(
  {
    extends: Type.Optional(oneOf(SCAN_PRESETS)),
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
type PresetFile = Static<typeof PresetFile>;

export interface ScanPreset {
  name: string;
  minSeverity: ScanSeverity;
  unsafeAt: ScanSeverity;
  severityOverrides: Map<string, ScanSeverity>;
  disabledRules: Set<string>;
  disabledCategories: Set<string>;
  ignoreInFileTypes: Map<string, Set<string>>;
}

/** The preset or policy file named in a request cannot be used: unknown preset, unreadable or invalid file (HTTP 400). */
export class PresetError extends WardenError {
  constructor(message: string) {
    super('WARDEN_ERR_SCAN_POLICY_INVALID', message, { statusCode: 400 });
  }
}

const RANK: Record<ScanSeverity, number> = { INFO: 0, LOW: 1, MEDIUM: 2, HIGH: 3, CRITICAL: 4 };
export const atLeast = (severity: ScanSeverity, threshold: ScanSeverity) => RANK[severity] >= RANK[threshold];

function readPresetFile(path: string, label: string): PresetFile {
  let data: unknown;
  try {
    // Opened non-blocking and checked on the descriptor: a FIFO named as a policy cannot block the scan.
    const bytes = readRegularFile(path, { followLinks: true });
    if (!bytes) throw new PresetError(`policy ${label} is not a regular file`);
    data = parse(bytes.toString('utf8'));
  } catch (err) {
    if (err instanceof PresetError) throw err;
    // The message names the file, never its content (a path from a request may point anywhere readable).
    const reason = (err as NodeJS.ErrnoException).code ? 'cannot be read' : 'is not valid YAML';
    throw new PresetError(`policy ${label} ${reason}`);
  }
  if (!Value.Check(PresetFile, data ?? {})) {
    const first = Value.Errors(PresetFile, data ?? {})[0];
    throw new PresetError(`policy ${label} is invalid: ${first ? `${first.instancePath || '/'} ${first.message}` : 'bad shape'}`);
  }
  return (data ?? {}) as PresetFile;
}

function compile(name: string, layers: PresetFile[]): ScanPreset {
  const preset: ScanPreset = {
    name, minSeverity: 'LOW', unsafeAt: 'HIGH',
    severityOverrides: new Map(), disabledRules: new Set(), disabledCategories: new Set(), ignoreInFileTypes: new Map(),
  };
  for (const layer of layers) {
    if (layer.min_severity) preset.minSeverity = layer.min_severity;
    if (layer.unsafe_at) preset.unsafeAt = layer.unsafe_at;
    for (const [key, severity] of Object.entries(layer.severity_overrides ?? {})) preset.severityOverrides.set(key, severity);
    for (const rule of layer.disabled_rules ?? []) preset.disabledRules.add(rule);
    for (const category of layer.disabled_categories ?? []) preset.disabledCategories.add(category);
    for (const [rule, types] of Object.entries(layer.ignore_in_file_types ?? {})) preset.ignoreInFileTypes.set(rule, new Set(types.map((t) => t.toLowerCase())));
  }
  return preset;
}

const presetCache = new Map<string, ScanPreset>();

/**
 * A preset name, or a path to a YAML file of the same shape (checked by `allowPath`, which throws when the path is outside
 * where the caller may read).
 */
export function resolvePreset(spec: string, allowPath: (path: string) => void = () => {}): ScanPreset {
  if ((SCAN_PRESETS as readonly string[]).includes(spec)) {
    const cached = presetCache.get(spec);
    if (cached) return cached;
    const preset = compile(spec, [readPresetFile(`${PRESETS_DIR}${spec}.yaml`, spec)]);
    presetCache.set(spec, preset);
    return preset;
  }
  if (!/[/\\]/.test(spec) || !/\.ya?ml$/i.test(spec)) {
    throw new PresetError(`unknown policy "${spec}": use one of ${SCAN_PRESETS.join(', ')} or a path to a .yaml file`);
  }
  allowPath(spec);
  const file = readPresetFile(spec, spec);
  const base = file.extends ? [readPresetFile(`${PRESETS_DIR}${file.extends}.yaml`, file.extends)] : [];
  return compile(spec, [...base, file]);
}

function fileType(path: string | undefined): string | undefined {
  if (!path) return undefined;
  const dot = path.lastIndexOf('.');
  const ext = dot < 0 ? '' : path.slice(dot + 1).toLowerCase();
  return ext === 'md' || ext === 'markdown' ? 'markdown' : ext;
}

/** The findings the preset reports, with overridden severities. */
export function applyPreset<T extends AnalyzerFinding>(findings: T[], preset: ScanPreset): T[] {
  const out: T[] = [];
  for (const finding of findings) {
    if (preset.disabledRules.has(finding.rule_id) || preset.disabledCategories.has(finding.category)) continue;
    const type = fileType(finding.file_path);
    if (type !== undefined && preset.ignoreInFileTypes.get(finding.rule_id)?.has(type)) continue;
    const severity = preset.severityOverrides.get(finding.rule_id) ?? preset.severityOverrides.get(finding.category) ?? finding.severity;
    if (!atLeast(severity, preset.minSeverity)) continue;
    out.push(severity === finding.severity ? finding : { ...finding, severity });
  }
  return out;
}
