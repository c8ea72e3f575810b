// Rule 3: data.json's guardrail thresholds move to `guardrail.block_at` and `guardrail.alert_at`, which apply
// alike to hook prompts, hook tool calls and the proxy. Against the rule pack's default (the pack rule 5 chose,
// else `default`): stricter is written; equal is not written and a note says so; looser is not written and a
// conflict is recorded. A threshold already in config.yaml wins and stays as written; a conflict is recorded
// when data.json was stricter than it. On a managed host data.json is the lifecycle's: nothing is taken from it.
import { SEVERITY_RANK, packThresholds } from '../../guardrail/thresholds.js';
import type { Severity } from '../../config/schema.js';
import { readDataJson } from '../data-json.js';
import { read, write } from '../doc-edit.js';
import type { MigrationContext, MigrationRule } from '../types.js';

const APPLY_ALIKE_NOTE = 'guardrail thresholds now apply alike to hook prompts, hook tool calls and the proxy';

export const thresholds: MigrationRule = (ctx) => {
  const dataJson = ctx.input.scope === 'managed' ? undefined : readDataJson(ctx.input);
  if (!dataJson) return;
  const pack = String(read(ctx.doc, ['guardrail', 'rule_pack']) ?? 'default');
  const defaults = packThresholds(pack);
  let wrote = false;
  for (const [key, from, enforced] of [
    ['block_at', 'guardrail.block_threshold', dataJson.blockThreshold],
    ['alert_at', 'guardrail.alert_threshold', dataJson.alertThreshold],
  ] as const) {
    if (enforced === undefined) continue;
    wrote = threshold(ctx, key, from, enforced, defaults[key], pack) || wrote;
  }
  if (wrote) ctx.record.notes.push(APPLY_ALIKE_NOTE);
};

/** Lower severity = blocks or alerts on more = stricter. */
const stricter = (a: Severity, b: Severity) => SEVERITY_RANK[a] < SEVERITY_RANK[b];

function threshold(ctx: MigrationContext, key: 'block_at' | 'alert_at', from: string, enforced: Severity, packDefault: Severity, pack: string): boolean {
  const to = `guardrail.${key}`;
  const configured = read(ctx.doc, ['guardrail', key]) as Severity | undefined;
  if (configured !== undefined) {
    if (stricter(enforced, configured)) {
      ctx.record.conflicts.push({
        to, kept: configured, lost: enforced,
        reason: `config.yaml sets ${to}: ${configured}, which wins; data.json's ${from} was stricter (${enforced})`,
      });
    }
    return false;
  }
  if (stricter(enforced, packDefault)) {
    write(ctx.doc, ['guardrail', key], enforced);
    ctx.record.moved.push({ source: 'data.json', from, to, value: enforced });
    return true;
  }
  if (enforced === packDefault) {
    ctx.record.notes.push(`${to}: data.json's ${from} (${enforced}) equals the ${pack} rule pack's default; not written`);
    return false;
  }
  ctx.record.conflicts.push({
    to, kept: packDefault, lost: enforced,
    reason: `data.json's ${from} (${enforced}) is looser than the ${pack} rule pack's default; the pack's default applies`,
  });
  return false;
}
