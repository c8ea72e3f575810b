// Policy resolution of one sandbox run (spec document 1, "Explain"): every setting is decided by precedence
// default < pack < profile < user config < flag (the request) < administrator clamp, and remembers where its
// value came from (`source`, `origin`) and, when something lowered it, what was asked (`requested`).
//   - A flag the pack does not allow is refused (403 policy_violation); a user config value the pack does not
//     allow is left out, with a violation and a warning, so a standing preference does not break other packs.
//   - The administrator file clamps what it bounds; a flag asking for what it forbids is refused (403
//     admin_violation) when the file is authoritative. Advisory, it only reports violations and warnings.
//   - The gateway lowers a CPU or memory limit above what the machine has (source `gateway`).
import { availableParallelism, totalmem } from 'node:os';
import type { NetworkMode, PolicySetting, PolicyViolation, ResolvedPolicy, RunOptions, SettingSource } from '../ports.js';
import type { AdminEntry, PolicyCatalog } from './catalog.js';
import { SandboxPolicyError } from './errors.js';
import { BASE_PROFILE, profileSettings, type LoadedPack } from './files.js';
import { MEMORY_PATTERN } from './fields.js';
import { BOOLEAN_OPTIONS, LIST_OPTIONS, type AdminFile, type BooleanOption, type ListOption, type PackSettings } from './schema.js';
import { memoryMiB, moreOpen } from './values.js';

/** What the machine offers, for the gateway's bound on cpu and memory. */
export interface HostCapacity {
  cpus: number;
  memoryMiB: number;
}

export const machineCapacity = (): HostCapacity => ({ cpus: availableParallelism(), memoryMiB: Math.floor(totalmem() / 2 ** 20) });

/** A resolution: the port's ResolvedPolicy plus the warnings it gives (advisory clamps, dropped user values). */
export interface PolicyResolution extends ResolvedPolicy {
  warnings: string[];
}

interface Setting {
  value: unknown;
  source: SettingSource;
  origin: string;
  requested?: unknown;
}

const BUILT_IN = 'built-in';
const USER_ORIGIN = 'config.yaml openshell';
const flagName = (key: string) => `--${key.replace(/_/g, '-')}`;
const show = (value: unknown) => (value === null ? 'no limit' : Array.isArray(value) ? `[${value.join(', ')}]` : String(value));

/** One run's resolution in progress: the settings decided so far, with the violations and warnings met. */
class Resolution {
  readonly settings = new Map<string, Setting>();
  readonly violations: PolicyViolation[] = [];
  readonly warnings: string[] = [];
  private readonly admin: AdminFile | undefined;
  private readonly authoritative: boolean;
  private readonly adminPath: string;

  constructor(adminEntry: AdminEntry) {
    this.admin = adminEntry.configured ? adminEntry.loaded?.admin : undefined;
    this.authoritative = adminEntry.configured && adminEntry.authoritative;
    this.adminPath = adminEntry.configured ? adminEntry.path : '';
    if (adminEntry.configured && adminEntry.problem !== undefined) {
      if (this.authoritative) {
        throw new SandboxPolicyError('admin_violation', `the administrator file cannot be used: ${adminEntry.problem}`, 'admin:file');
      }
      this.warnings.push(`the administrator file cannot be used (advisory, ignored): ${adminEntry.problem}`);
    }
  }

  get adminFile(): AdminFile | undefined {
    return this.admin;
  }

  set(key: string, setting: Setting): Setting {
    this.settings.set(key, setting);
    return setting;
  }

  /** A user config value the pack does not allow: left out, reported. */
  dropUserValue(key: string, requested: unknown, kept: Setting, reason: string): void {
    this.violations.push({ key, requested, value: kept.value, reason });
    this.warnings.push(`config.yaml openshell.defaults.${key} is not used: ${reason}`);
    this.set(key, { ...kept, requested });
  }

  /**
   * The administrator file lowers `key` to `value` (rule `rule`, for the refusal's `violation`). A flag asking
   * for what it refuses is an admin_violation when the file is authoritative; advisory, nothing changes.
   */
  clamp(key: string, value: unknown, reason: string, rule: string, refuseFlag: boolean): void {
    const current = this.settings.get(key)!;
    const requested = current.requested ?? current.value;
    if (!this.authoritative) {
      this.violations.push({ key, requested, value, reason: `advisory, not enforced: ${reason}` });
      this.warnings.push(`your organization's policy would change ${key} (advisory, not enforced): ${reason}`);
      return;
    }
    if (refuseFlag && current.source === 'flag') throw new SandboxPolicyError('admin_violation', reason, `admin:${rule}`);
    this.violations.push({ key, requested, value, reason });
    this.set(key, { value, source: 'admin', origin: this.adminPath, requested });
  }
}

const refusal = (message: string, violation: string) => new SandboxPolicyError('policy_violation', message, violation);

export function resolvePolicy(catalog: PolicyCatalog, options: RunOptions, host: HostCapacity): PolicyResolution {
  const run = new Resolution(catalog.admin);
  const admin = run.adminFile;

  // Pack and profile.
  const pack = choosePack(catalog, options, run);
  const settings = chooseProfile(pack, catalog, options, run);
  const profile = run.settings.get('profile')!.value as string;
  const at = (field: string) => {
    const path = field.split('.');
    const variant = profile === BASE_PROFILE ? undefined : pack.pack.profiles[profile];
    let node: unknown = variant;
    for (const part of path) node = (node as Record<string, unknown> | undefined)?.[part];
    return node === undefined ? `${pack.origin} ${field}` : `${pack.origin} profiles.${profile}.${field}`;
  };

  // Network mode and approvals: the pack's, under the administrator's ceiling.
  run.set('network_mode', { value: settings.network_mode, source: 'pack', origin: at('network_mode') });
  if (admin?.network_mode !== undefined && moreOpen(settings.network_mode, admin.network_mode)) {
    run.clamp('network_mode', admin.network_mode, `network mode ${settings.network_mode} is more open than ${admin.network_mode}`, 'network_mode', false);
  }
  run.set('approvals', { value: settings.approvals, source: 'pack', origin: at('approvals') });

  for (const key of BOOLEAN_OPTIONS) resolveBoolean(key, settings, pack, options, catalog, run, at);
  for (const key of LIST_OPTIONS) resolveList(key, settings, pack, options, catalog, run);
  resolveLimit('cpu', settings, pack, options, catalog, run, at, host);
  resolveLimit('memory', settings, pack, options, catalog, run, at, host);
  safeExcludesYolo(run);

  const value = <T>(key: string) => run.settings.get(key)!.value as T;
  const cpu = value<number | null>('cpu');
  const memory = value<string | null>('memory');
  const adminEntry = catalog.admin;
  return {
    pack: pack.name,
    pack_source: pack.source,
    pack_digest: pack.digest,
    profile,
    network_mode: value<NetworkMode>('network_mode'),
    approvals: value<boolean>('approvals'),
    yolo: value<boolean>('yolo'),
    admin: adminStatus(adminEntry),
    settings: [...run.settings].map(([key, s]) => ({ key, ...s }) satisfies PolicySetting),
    violations: run.violations,
    warnings: run.warnings,
    effective: {
      copy: value('copy'),
      safe: value('safe'),
      yolo: value('yolo'),
      no_mcp: value('no_mcp'),
      learn: value('learn'),
      context: value('context'),
      unmask: value('unmask'),
      host_ports: value('host_ports'),
      ...(cpu === null ? {} : { cpu }),
      ...(memory === null ? {} : { memory }),
    },
  };
}

export function adminStatus(entry: AdminEntry): ResolvedPolicy['admin'] {
  if (!entry.configured) return { configured: false, authority: 'advisory', detail: 'no administrator file (openshell.admin)' };
  const authority = entry.authoritative ? 'authoritative' : 'advisory';
  if (entry.problem !== undefined) return { configured: true, authority, detail: `cannot be used: ${entry.problem}` };
  const description = entry.loaded!.admin.description;
  return { configured: true, authority, detail: `${entry.path} (${entry.loaded!.digest})${description ? `: ${description}` : ''}` };
}

function choosePack(catalog: PolicyCatalog, options: RunOptions, run: Resolution): LoadedPack {
  let chosen = run.set('pack', { value: 'default', source: 'default', origin: BUILT_IN });
  if (catalog.user.pack !== '') chosen = run.set('pack', { value: catalog.user.pack, source: 'user', origin: `${USER_ORIGIN}.pack` });
  // An empty name (a query's `pack=`) is no ask, like an empty config key.
  if (options.pack) chosen = run.set('pack', { value: options.pack, source: 'flag', origin: '--pack' });
  const allowedPacks = run.adminFile?.packs;
  if (allowedPacks && !allowedPacks.includes(chosen.value as string)) {
    run.clamp('pack', allowedPacks[0], `pack ${String(chosen.value)} is not one of the allowed packs (${allowedPacks.join(', ')})`, 'packs', true);
  }
  const name = run.settings.get('pack')!.value as string;
  const entry = catalog.packs.get(name);
  if (!entry) throw new SandboxPolicyError('pack_invalid', `no sandbox pack named "${name}" (packs: ${[...catalog.packs.keys()].join(', ')})`, `pack:${name}`);
  if (!entry.ok) throw new SandboxPolicyError('pack_invalid', `sandbox pack "${name}" cannot be loaded: ${entry.problem}`, `pack:${name}`);
  return entry.loaded;
}

function chooseProfile(pack: LoadedPack, catalog: PolicyCatalog, options: RunOptions, run: Resolution): PackSettings {
  const known = () => [BASE_PROFILE, ...Object.keys(pack.pack.profiles)].join(', ');
  run.set('profile', { value: BASE_PROFILE, source: 'default', origin: BUILT_IN });
  if (catalog.user.profile !== '') {
    if (profileSettings(pack.pack, catalog.user.profile)) {
      run.set('profile', { value: catalog.user.profile, source: 'user', origin: `${USER_ORIGIN}.profile` });
    } else {
      run.warnings.push(`config.yaml openshell.profile "${catalog.user.profile}" is not a profile of pack ${pack.name} (${known()}); using ${BASE_PROFILE}`);
      run.set('profile', { value: BASE_PROFILE, source: 'default', origin: BUILT_IN, requested: catalog.user.profile });
    }
  }
  if (options.profile) {
    if (!profileSettings(pack.pack, options.profile)) {
      throw new SandboxPolicyError('pack_invalid', `sandbox pack "${pack.name}" has no profile "${options.profile}" (profiles: ${known()})`, `pack:${pack.name}/profiles`);
    }
    run.set('profile', { value: options.profile, source: 'flag', origin: '--profile' });
  }
  return profileSettings(pack.pack, run.settings.get('profile')!.value as string)!;
}

type At = (field: string) => string;

function resolveBoolean(key: BooleanOption, settings: PackSettings, pack: LoadedPack, options: RunOptions, catalog: PolicyCatalog, run: Resolution, at: At): void {
  const rule = settings.options[key];
  const packSetting = run.set(key, { value: rule.default, source: 'pack', origin: at(`options.${key}.default`) });
  const notAllowed = `pack ${pack.name} does not allow ${key} other than ${String(rule.default)}`;
  const user = catalog.user.defaults[key];
  if (user !== undefined) {
    if (!rule.allowed && user !== rule.default) run.dropUserValue(key, user, packSetting, notAllowed);
    else run.set(key, { value: user, source: 'user', origin: `${USER_ORIGIN}.defaults.${key}` });
  }
  const flag = options[key];
  if (flag !== undefined) {
    if (!rule.allowed && flag !== rule.default) throw refusal(`${flagName(key)}: ${notAllowed}`, `pack:${pack.name}/options.${key}`);
    run.set(key, { value: flag, source: 'flag', origin: flagName(key) });
  }
  const admin = run.adminFile;
  const value = run.settings.get(key)!.value;
  if (value === true && (admin?.forbid as readonly string[] | undefined)?.includes(key)) {
    run.clamp(key, false, `${key} is forbidden`, `forbid.${key}`, true);
  }
  if (value === false && (admin?.require as readonly string[] | undefined)?.includes(key)) {
    run.clamp(key, true, `${key} is required`, `require.${key}`, true);
  }
}

/** Why `list` cannot be used under `pack`'s rule for `key`, or undefined when it can. */
function listProblem(key: ListOption, list: readonly (string | number)[], settings: PackSettings, pack: string): string | undefined {
  const rule = settings.options[key];
  if (list.length === 0) return undefined;
  if (!rule.allowed) return `pack ${pack} does not allow ${key}`;
  if (list.length > rule.max_items) return `pack ${pack} allows at most ${rule.max_items} ${key}, not ${list.length}`;
  if (key === 'host_ports') {
    const { min_port: min, max_port: max } = settings.options.host_ports;
    const outside = (list as number[]).find((port) => !Number.isInteger(port) || port < min || port > max);
    if (outside !== undefined) return `pack ${pack} allows host ports ${min}-${max} only, not ${outside}`;
  }
  return undefined;
}

function resolveList(key: ListOption, settings: PackSettings, pack: LoadedPack, options: RunOptions, catalog: PolicyCatalog, run: Resolution): void {
  const none = run.set(key, { value: [], source: 'default', origin: BUILT_IN });
  const user = catalog.user.defaults[key];
  if (user !== undefined) {
    const problem = listProblem(key, user, settings, pack.name);
    if (problem) run.dropUserValue(key, user, none, problem);
    else run.set(key, { value: [...user], source: 'user', origin: `${USER_ORIGIN}.defaults.${key}` });
  }
  const flag = options[key];
  if (flag !== undefined) {
    const problem = listProblem(key, flag, settings, pack.name);
    if (problem) throw refusal(`${flagName(key)}: ${problem}`, `pack:${pack.name}/options.${key}`);
    run.set(key, { value: [...flag], source: 'flag', origin: flagName(key) });
  }
  const admin = run.adminFile;
  const list = run.settings.get(key)!.value as unknown[];
  if (list.length === 0 || !admin) return;
  if ((admin.forbid as readonly string[]).includes(key)) {
    run.clamp(key, [], `${key} is forbidden`, `forbid.${key}`, true);
  } else if (admin.max[key] !== undefined && list.length > admin.max[key]) {
    run.clamp(key, list.slice(0, admin.max[key]), `at most ${admin.max[key]} ${key} are allowed, not ${list.length}`, `max.${key}`, true);
  }
}

function resolveLimit(
  key: 'cpu' | 'memory', settings: PackSettings, pack: LoadedPack, options: RunOptions, catalog: PolicyCatalog, run: Resolution, at: At, host: HostCapacity,
): void {
  const rule = settings.options[key];
  const size = (value: unknown): number => (value === null ? Infinity : key === 'cpu' ? (value as number) : memoryMiB(value as string));
  const packSetting = run.set(key, rule.default === undefined
    ? { value: null, source: 'default', origin: BUILT_IN }
    : { value: rule.default, source: 'pack', origin: at(`options.${key}.default`) });
  const notAllowed = `pack ${pack.name} does not allow another ${key} limit than ${show(packSetting.value)}`;
  const user = catalog.user.defaults[key];
  if (user !== undefined) {
    if (!rule.allowed && user !== packSetting.value) run.dropUserValue(key, user, packSetting, notAllowed);
    else run.set(key, { value: user, source: 'user', origin: `${USER_ORIGIN}.defaults.${key}` });
  }
  const flag = options[key];
  if (flag !== undefined) {
    if (key === 'memory' && !new RegExp(MEMORY_PATTERN).test(flag as string)) {
      throw refusal(`--memory: ${JSON.stringify(flag)} is not <n>m or <n>g`, 'invariant:memory');
    }
    if (key === 'cpu' && !((flag as number) > 0 && Number.isFinite(flag))) throw refusal(`--cpu: must be a positive number of cores`, 'invariant:cpu');
    if (!rule.allowed && flag !== packSetting.value) throw refusal(`${flagName(key)}: ${notAllowed}`, `pack:${pack.name}/options.${key}`);
    run.set(key, { value: flag, source: 'flag', origin: flagName(key) });
  }
  let current = run.settings.get(key)!;
  if (rule.max !== undefined && size(current.value) > size(rule.max)) {
    if (current.value !== null) {
      const reason = `pack ${pack.name} allows at most ${show(rule.max)} ${key}`;
      run.violations.push({ key, requested: current.value, value: rule.max, reason });
    }
    current = run.set(key, { value: rule.max, source: 'pack', origin: at(`options.${key}.max`), ...(current.value === null ? {} : { requested: current.value }) });
  }
  const adminMax = run.adminFile?.max[key];
  if (adminMax !== undefined && size(current.value) > size(adminMax)) {
    run.clamp(key, adminMax, `at most ${show(adminMax)} ${key} is allowed, not ${show(current.value)}`, `max.${key}`, false);
    current = run.settings.get(key)!;
  }
  const hostMax = key === 'cpu' ? host.cpus : host.memoryMiB;
  if (current.value !== null && size(current.value) > hostMax) {
    const value = key === 'cpu' ? host.cpus : `${host.memoryMiB}m`;
    run.warnings.push(`${key} ${show(current.value)} is more than this machine has; the limit is ${value}`);
    run.set(key, { value, source: 'gateway', origin: key === 'cpu' ? 'host CPUs' : 'host memory', requested: current.requested ?? current.value });
  }
}

/** Safe mode and yolo exclude each other: a flag asking for both is refused; otherwise safe wins. */
function safeExcludesYolo(run: Resolution): void {
  const safe = run.settings.get('safe')!;
  const yolo = run.settings.get('yolo')!;
  if (safe.value !== true || yolo.value !== true) return;
  if (safe.source === 'admin') {
    run.clamp('yolo', false, 'safe mode is required, and it excludes yolo', 'require.safe', true);
    return;
  }
  if (safe.source === 'flag' || yolo.source === 'flag') throw refusal('--safe and --yolo exclude each other', 'invariant:safe-yolo');
  const reason = 'safe mode excludes yolo';
  run.violations.push({ key: 'yolo', requested: true, value: false, reason });
  run.warnings.push(`yolo is off: ${reason}`);
  run.set('yolo', { value: false, source: safe.source, origin: safe.origin, requested: true });
}
