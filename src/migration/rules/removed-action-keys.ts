// Rule 4: config.yaml's `skill_actions`, `mcp_actions`, `plugin_actions` and `watch.allow_list_bypass_scan` are
// removed. Version 8 enforced data.json, not these keys, so where the operator customised one away from what
// data.json enforced, the enforced value is kept (rule 2 moved it) and the customisation is recorded as a
// conflict; on a managed host the comparison is with the built-in default, which is what stays in force there.
// data.json's own `config.allow_list_bypass_scan` moves to `admission.defaults.allow_list_bypass_scan` when it
// differs from the built-in policy, under the same conflict rule.
import { SEVERITIES } from '../../config/schema.js';
import { readDataJson, type DataJson } from '../data-json.js';
import { read, remove, write } from '../doc-edit.js';
import type { MigrationRule } from '../types.js';
import { V8_SEVERITIES } from '../v8/schema.js';
import { ADMISSION_TYPES, BUILT_IN_ALLOW_LIST_BYPASS_SCAN, builtInTriple, differs, encodeAction, type Triple } from './built-in-policy.js';

export const removedActionKeys: MigrationRule = (ctx) => {
  const dataJson = ctx.input.scope === 'managed' ? undefined : readDataJson(ctx.input);
  const enforcedBy = dataJson ? 'policies/rego/data.json' : 'the built-in policy';
  for (const type of ADMISSION_TYPES) {
    const key = `${type}_actions`;
    const matrix = read(ctx.doc, [key]) as Record<string, Triple> | undefined;
    if (matrix === undefined) continue;
    V8_SEVERITIES.forEach((v8Severity, i) => {
      const configured = matrix[v8Severity];
      if (!configured) return;
      const severity = SEVERITIES[i]!;
      const enforced = enforcedTriple(dataJson, type, severity);
      if (!differs(configured, enforced)) return;
      ctx.record.conflicts.push({
        to: `admission.${type}.actions.${severity}`,
        kept: encodeAction(enforced),
        lost: encodeAction(configured),
        reason: `${key}.${v8Severity} in config.yaml differed from what ${enforcedBy} enforced; the enforced action is kept`,
      });
    });
    remove(ctx.doc, [key]);
    ctx.record.removed.push(key);
  }

  const enforcedBypass = dataJson?.allowListBypassScan ?? BUILT_IN_ALLOW_LIST_BYPASS_SCAN;
  const watched = read(ctx.doc, ['watch', 'allow_list_bypass_scan']);
  if (watched !== undefined) {
    if (watched !== enforcedBypass) {
      ctx.record.conflicts.push({
        to: 'admission.defaults.allow_list_bypass_scan',
        kept: enforcedBypass,
        lost: watched,
        reason: `watch.allow_list_bypass_scan in config.yaml differed from what ${enforcedBy} enforced; the enforced value is kept`,
      });
    }
    remove(ctx.doc, ['watch', 'allow_list_bypass_scan']);
    ctx.record.removed.push('watch.allow_list_bypass_scan');
  }
  if (dataJson?.allowListBypassScan !== undefined && differs(dataJson.allowListBypassScan, BUILT_IN_ALLOW_LIST_BYPASS_SCAN)) {
    const to = ['admission', 'defaults', 'allow_list_bypass_scan'];
    write(ctx.doc, to, dataJson.allowListBypassScan);
    ctx.record.moved.push({ source: 'data.json', from: 'config.allow_list_bypass_scan', to: to.join('.'), value: dataJson.allowListBypassScan });
  }
};

const enforcedTriple = (dataJson: DataJson | undefined, type: (typeof ADMISSION_TYPES)[number], severity: (typeof SEVERITIES)[number]): Triple =>
  dataJson ? dataJson.actions[type][severity].triple : builtInTriple(type, severity);
