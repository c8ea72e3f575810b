// Rule 1: "only values that differ from the built-in policy are written". The built-in policy is what a
// version 9 install enforces with nothing in config.yaml: the action tables and first-party lists of
// policies/rego/admission.rego (kept in step with it by test/migration/config-rules.test.ts) and the rule packs'
// thresholds (src/guardrail/thresholds.ts). Every rule that writes a value asks `differs()` first, so this is a
// shared table and a comparison, not a pass of its own in RULES.
import { isDeepStrictEqual } from 'node:util';
import type { AdmissionAction, Severity } from '../../config/schema.js';

export type AdmissionType = 'skill' | 'mcp' | 'plugin';
export const ADMISSION_TYPES: readonly AdmissionType[] = ['skill', 'mcp', 'plugin'];

export interface Triple {
  install: 'block' | 'allow' | 'none';
  file: 'quarantine' | 'none';
  runtime: 'disable' | 'enable';
}

/** The shorthands of admission.rego (`shorthands[...]`). */
export const SHORTHANDS: Record<'block' | 'quarantine' | 'warn', Triple> = {
  block: { install: 'block', file: 'quarantine', runtime: 'disable' },
  quarantine: { install: 'none', file: 'quarantine', runtime: 'disable' },
  warn: { install: 'none', file: 'none', runtime: 'enable' },
};

/** admission.rego's `default_actions`. */
export const BUILT_IN_ACTIONS: Record<AdmissionType, Record<Severity, keyof typeof SHORTHANDS>> = {
  skill: { CRITICAL: 'block', HIGH: 'block', MEDIUM: 'warn', LOW: 'warn', INFO: 'warn' },
  mcp: { CRITICAL: 'block', HIGH: 'block', MEDIUM: 'block', LOW: 'warn', INFO: 'warn' },
  plugin: { CRITICAL: 'block', HIGH: 'block', MEDIUM: 'warn', LOW: 'warn', INFO: 'warn' },
};

export interface FirstPartyEntry {
  name: string;
  reason: string;
  source_path_contains: string[];
}

/** admission.rego's `default_first_party`. */
export const BUILT_IN_FIRST_PARTY: Record<AdmissionType, FirstPartyEntry[]> = {
  skill: [{ name: 'codeguard', reason: 'first-party CodeGuard skill', source_path_contains: ['/.warden/'] }],
  mcp: [],
  plugin: [{ name: 'warden', reason: 'first-party Warden plugin', source_path_contains: ['/.warden/'] }],
};

/** `admission.defaults.allow_list_bypass_scan` with nothing configured. */
export const BUILT_IN_ALLOW_LIST_BYPASS_SCAN = true;

export const differs = (value: unknown, builtIn: unknown): boolean => !isDeepStrictEqual(value, builtIn);

/** How a triple is written: the shorthand it matches, else the triple itself (rule 2). */
export function encodeAction(triple: Triple): AdmissionAction {
  for (const [name, shorthand] of Object.entries(SHORTHANDS)) {
    if (!differs(triple, shorthand)) return name as keyof typeof SHORTHANDS;
  }
  return { install: triple.install, file: triple.file, runtime: triple.runtime };
}

export const builtInTriple = (type: AdmissionType, severity: Severity): Triple => SHORTHANDS[BUILT_IN_ACTIONS[type][severity]];
