// Rule 2: the admission actions per severity and the first-party allow list move from policies/rego/data.json
// to `admission.<type>.actions.<SEVERITY>` and `admission.<type>.first_party_allow_list`, then data.json is
// renamed `.migrated-v9`. A type whose five actions all equal the built-in policy writes nothing (rule 1); one
// that differs anywhere writes all five, each as a shorthand when it matches one, else as a triple. The spec
// names skill and mcp; plugin has the same home in version 9 and the same rule, so its decisions are kept too.
// On a managed host data.json is the lifecycle's file, not the operator's: nothing is taken from it.
import { SEVERITIES } from '../../config/schema.js';
import { DATA_JSON_PATH, readDataJson } from '../data-json.js';
import { write } from '../doc-edit.js';
import type { MigrationRule } from '../types.js';
import { ADMISSION_TYPES, BUILT_IN_FIRST_PARTY, builtInTriple, differs, encodeAction, type AdmissionType, type FirstPartyEntry } from './built-in-policy.js';

const MANAGED_DATA_JSON_NOTE =
  `managed host: ${DATA_JSON_PATH} belongs to the lifecycle; no decision (admission actions, first-party list, thresholds, allow-list switch) was taken from it; the built-in policy applies`;

export const admissionActions: MigrationRule = (ctx) => {
  const dataJson = readDataJson(ctx.input);
  if (!dataJson) return;
  if (ctx.input.scope === 'managed') {
    ctx.record.notes.push(MANAGED_DATA_JSON_NOTE);
    return;
  }
  for (const type of ADMISSION_TYPES) {
    const enforced = dataJson.actions[type];
    if (!SEVERITIES.some((s) => differs(enforced[s].triple, builtInTriple(type, s)))) continue;
    for (const severity of SEVERITIES) {
      const value = encodeAction(enforced[severity].triple);
      const to = ['admission', type, 'actions', severity];
      write(ctx.doc, to, value);
      ctx.record.moved.push({ source: 'data.json', from: enforced[severity].from || `actions.${severity}`, to: to.join('.'), value });
    }
  }
  if (dataJson.firstParty) moveFirstParty(ctx, dataJson.firstParty);
  ctx.operations.push({ op: 'rename', from: DATA_JSON_PATH, to: `${DATA_JSON_PATH}.migrated-v9` });
};

function moveFirstParty(ctx: Parameters<MigrationRule>[0], entries: unknown[]): void {
  const byType = new Map<AdmissionType, FirstPartyEntry[]>(ADMISSION_TYPES.map((t) => [t, []]));
  entries.forEach((entry, i) => {
    const e = (entry ?? {}) as Record<string, unknown>;
    const list = byType.get(e.target_type as AdmissionType);
    if (!list || typeof e.target_name !== 'string' || e.target_name === '') {
      ctx.record.notes.push(`${DATA_JSON_PATH}: first_party_allow_list.${i} names no skill, MCP server or plugin; not moved`);
      return;
    }
    const markers = Array.isArray(e.source_path_contains) ? e.source_path_contains.filter((m): m is string => typeof m === 'string' && m !== '')
      : typeof e.source_path_contains === 'string' ? [e.source_path_contains] : [];
    list.push({ name: e.target_name, reason: typeof e.reason === 'string' ? e.reason : '', source_path_contains: markers });
  });
  for (const [type, list] of byType) {
    // The reason is wording; what admits a package is its name and where it sits.
    const key = (l: FirstPartyEntry[]) => l.map((e) => [e.name, e.source_path_contains]);
    if (!differs(key(list), key(BUILT_IN_FIRST_PARTY[type]))) continue;
    const value = list.map((e) => ({ name: e.name, reason: e.reason, ...(e.source_path_contains.length > 0 ? { source_path_contains: e.source_path_contains } : {}) }));
    const to = ['admission', type, 'first_party_allow_list'];
    write(ctx.doc, to, value, false);
    ctx.record.moved.push({ source: 'data.json', from: 'first_party_allow_list', to: to.join('.'), value });
  }
}
