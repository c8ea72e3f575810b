// Reading the version 8 policies/rego/data.json, the file rules 2, 3 and 4 take the enforced admission actions,
// first-party list, allow-list switch and guardrail thresholds from. Its vocabulary differs from config.yaml's:
// `runtime: block|allow` here is `disable|enable` there. `scanner_overrides.<type>.<SEVERITY>` may name only
// some fields of a triple; the rest come from `actions.<SEVERITY>`.
import type { Severity } from '../config/schema.js';
import { SEVERITIES } from '../config/schema.js';
import { MigrationError } from './errors.js';
import { builtInTriple, type AdmissionType, type Triple } from './rules/built-in-policy.js';
import type { MigrationInput } from './types.js';
import { isObject } from '../util/json.js';

export const DATA_JSON_PATH = 'policies/rego/data.json';

/** data.json's guardrail severity_rank: NONE 0 … CRITICAL 4 (its thresholds are ranks). */
const RANKED: readonly (Severity | 'NONE')[] = ['NONE', 'LOW', 'MEDIUM', 'HIGH', 'CRITICAL'];

export interface DataJson {
  raw: Record<string, unknown>;
  /** The triple enforced per type and severity, in config.yaml's vocabulary, and where it came from. */
  actions: Record<AdmissionType, Record<Severity, { triple: Triple; from: string }>>;
  firstParty?: unknown[];
  allowListBypassScan?: boolean;
  blockThreshold?: Severity;
  alertThreshold?: Severity;
}


/** The parsed data.json, or undefined when the home has none. */
export function readDataJson(input: MigrationInput): DataJson | undefined {
  const file = input.files.get(DATA_JSON_PATH);
  if (!file) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(file.bytes.toString('utf8'));
  } catch (err) {
    throw invalid(`is not valid JSON: ${(err as Error).message}`);
  }
  if (!isObject(raw)) throw invalid('is not a JSON object');
  const base = isObject(raw.actions) ? raw.actions : {};
  const overrides = isObject(raw.scanner_overrides) ? raw.scanner_overrides : {};
  const actions = {} as DataJson['actions'];
  for (const type of ['skill', 'mcp', 'plugin'] as const) {
    actions[type] = {} as DataJson['actions'][AdmissionType];
    const own = isObject(overrides[type]) ? overrides[type] : {};
    for (const severity of SEVERITIES) {
      let triple = builtInTriple(type, severity);
      let from = '';
      if (base[severity] !== undefined) {
        triple = merge(triple, base[severity], `actions.${severity}`);
        from = `actions.${severity}`;
      }
      if (own[severity] !== undefined) {
        triple = merge(triple, own[severity], `scanner_overrides.${type}.${severity}`);
        from = `scanner_overrides.${type}.${severity}`;
      }
      actions[type][severity] = { triple, from };
    }
  }
  const config = isObject(raw.config) ? raw.config : {};
  const guardrail = isObject(raw.guardrail) ? raw.guardrail : {};
  const bypass = config.allow_list_bypass_scan;
  if (bypass !== undefined && typeof bypass !== 'boolean') throw invalid('config.allow_list_bypass_scan must be true or false');
  if (raw.first_party_allow_list !== undefined && !Array.isArray(raw.first_party_allow_list)) throw invalid('first_party_allow_list must be a list');
  return {
    raw,
    actions,
    ...(Array.isArray(raw.first_party_allow_list) ? { firstParty: raw.first_party_allow_list } : {}),
    ...(bypass !== undefined ? { allowListBypassScan: bypass } : {}),
    ...rankOf(guardrail.block_threshold, 'guardrail.block_threshold', 'blockThreshold'),
    ...rankOf(guardrail.alert_threshold, 'guardrail.alert_threshold', 'alertThreshold'),
  };
}

function rankOf(value: unknown, key: string, field: 'blockThreshold' | 'alertThreshold'): Partial<DataJson> {
  if (value === undefined) return {};
  const severity = typeof value === 'number' ? RANKED[value] : undefined;
  if (severity === undefined || severity === 'NONE') throw invalid(`${key} must be a rank from 1 (LOW) to 4 (CRITICAL)`);
  return { [field]: severity };
}

const RUNTIME: Record<string, Triple['runtime']> = { block: 'disable', allow: 'enable' };
const FILE = new Set(['quarantine', 'none']);
const INSTALL = new Set(['block', 'none', 'allow']);

function merge(triple: Triple, value: unknown, where: string): Triple {
  if (!isObject(value)) throw invalid(`${where} must be an object`);
  const next = { ...triple };
  if (value.runtime !== undefined) {
    const runtime = RUNTIME[String(value.runtime)];
    if (!runtime) throw invalid(`${where}.runtime must be block or allow`);
    next.runtime = runtime;
  }
  if (value.file !== undefined) {
    if (!FILE.has(String(value.file))) throw invalid(`${where}.file must be quarantine or none`);
    next.file = value.file as Triple['file'];
  }
  if (value.install !== undefined) {
    if (!INSTALL.has(String(value.install))) throw invalid(`${where}.install must be block or none`);
    next.install = value.install as Triple['install'];
  }
  return next;
}

const invalid = (message: string) => new MigrationError('WARDEN_ERR_MIGRATION_FILE_INVALID', `${DATA_JSON_PATH} ${message}`);
