// The version 8 keys no numbered rule names, decided key by key (the table is docs/migration.md's "Keys without
// a rule"): a key version 9 has under the same name and meaning is carried over untouched; `guardrail.hilt` and
// `guardrail.connectors` change shape; everything else has no version 9 home and is removed, listed in
// `removed[]` with a note saying why. Runs last, so it sees only what the rules left.
import { isMap } from 'yaml';
import { read, remove, write } from '../doc-edit.js';
import type { MigrationContext, MigrationRule } from '../types.js';

/** Keys kept as they are, per section (`true`: the whole section is version 9's, written by the rules). */
const KEPT: Record<string, true | readonly string[]> = {
  config_version: true,
  gateway: ['host', 'port', 'token_env', 'api_port', 'api_bind'],
  guardrail: ['enabled', 'host', 'port', 'mode', 'rule_pack', 'block_at', 'alert_at', 'hilt_enabled', 'hilt_min_severity', 'connector', 'connectors', 'hook_fail_mode'],
  openshell: ['mode'],
  asset_policy: true,
  admission: true,
  custom_packs: true,
  rules: true,
  scanners: true,
  update: true,
  ai_discovery: ['signature_packs', 'signature_pack_digests'],
  judge_source: true,
  llm_providers: true,
  policy_dir: true,
};

/** Why a section goes, for the note. */
const WHY: Record<string, string> = {
  llm: 'version 9\'s `llm` is the proxy\'s upstream, not the judge\'s model',
  data_dir: 'version 9 keeps its data in $WARDEN_HOME',
  quarantine_dir: 'version 9 keeps its data in $WARDEN_HOME',
  plugin_dir: 'version 9 keeps its data in $WARDEN_HOME',
  policy_dir: 'it named the version 8 policy folder, whose data.json and modules rules 2 and 10 handle',
  environment: 'version 9 detects it',
  deployment_mode: 'the install scope (per-user, managed) replaces it',
  claw: 'connectors are chosen with guardrail.connector and guardrail.connectors',
  cisco_ai_defense: 'the ai_guard analyzer reads AI_GUARD_API_KEY from the environment',
  openshell: 'the sandbox manager has no binary, version or pairing settings',
  watch: 'version 9 has no file watcher settings',
  firewall: 'version 9 has no host firewall integration',
  observability: 'telemetry sinks are not configured in config.yaml in this release',
  gateway: 'the upstream agent gateway client has no such settings in version 9',
  guardrail: 'the guardrail has no such settings in version 9',
  ai_discovery: 'only signature pack pins have a version 9 home',
  privacy: 'it was an empty reserved object',
};

export const v8Keys: MigrationRule = (ctx) => {
  hilt(ctx);
  connectors(ctx);
  policyDir(ctx);
  openshellMode(ctx);
  const top = ctx.doc.contents;
  if (!isMap(top)) return;
  for (const key of top.items.map((pair) => String((pair.key as { value?: unknown }).value ?? pair.key))) {
    const kept = KEPT[key];
    if (kept === true) continue;
    if (kept === undefined) {
      remove(ctx.doc, [key]);
      ctx.record.removed.push(key);
      ctx.record.notes.push(`${key}: no version 9 home (${WHY[key] ?? 'version 9 has no such setting'}); removed`);
      continue;
    }
    const section = ctx.doc.get(key, true);
    if (!isMap(section)) continue;
    const gone = section.items.map((pair) => String((pair.key as { value?: unknown }).value ?? pair.key)).filter((k) => !kept.includes(k));
    for (const sub of gone) {
      remove(ctx.doc, [key, sub]);
      ctx.record.removed.push(`${key}.${sub}`);
    }
    if (gone.length > 0) ctx.record.notes.push(`${key}: ${gone.join(', ')} removed (${WHY[key] ?? 'no version 9 home'})`);
  }
};

/** `guardrail.hilt {enabled, min_severity}` → `guardrail.hilt_enabled`, `guardrail.hilt_min_severity` (written when not the default). */
function hilt(ctx: MigrationContext): void {
  const value = read(ctx.doc, ['guardrail', 'hilt']) as { enabled?: boolean; min_severity?: string } | undefined;
  if (value === undefined) return;
  remove(ctx.doc, ['guardrail', 'hilt']);
  for (const [from, to, builtIn] of [['enabled', 'hilt_enabled', false], ['min_severity', 'hilt_min_severity', 'HIGH']] as const) {
    const v = value?.[from];
    if (v === undefined || v === builtIn) continue;
    write(ctx.doc, ['guardrail', to], v);
    ctx.record.moved.push({ source: 'config', from: `guardrail.hilt.${from}`, to: `guardrail.${to}`, value: v });
  }
}

/**
 * `guardrail.connectors.<name> {…}` → the list `guardrail.connectors` of enabled connectors besides the primary.
 * Per-connector settings have no version 9 home: one that differed from the guardrail-wide value is a lost
 * decision, recorded as a conflict; the rest are noted.
 */
function connectors(ctx: MigrationContext): void {
  const value = read(ctx.doc, ['guardrail', 'connectors']);
  if (value === undefined || Array.isArray(value)) return;
  const map = (value ?? {}) as Record<string, Record<string, unknown> | null>;
  const primary = read(ctx.doc, ['guardrail', 'connector']);
  const names: string[] = [];
  const wide: Record<string, unknown> = {
    mode: read(ctx.doc, ['guardrail', 'mode']) ?? 'action',
    hook_fail_mode: read(ctx.doc, ['guardrail', 'hook_fail_mode']) ?? 'closed',
  };
  for (const [name, settings] of Object.entries(map)) {
    if (settings?.enabled === false) {
      ctx.record.notes.push(`guardrail.connectors.${name} was disabled; not listed in guardrail.connectors`);
      continue;
    }
    if (name !== primary) names.push(name);
    for (const [key, setting] of Object.entries(settings ?? {})) {
      if (key === 'enabled') continue;
      if (key in wide && setting !== wide[key]) {
        ctx.record.conflicts.push({
          to: `guardrail.${key}`, kept: wide[key], lost: setting,
          reason: `guardrail.connectors.${name}.${key} has no version 9 home; the guardrail-wide value applies to ${name}`,
        });
      } else if (!(key in wide)) {
        ctx.record.notes.push(`guardrail.connectors.${name}.${key} has no version 9 home; removed`);
      }
      ctx.record.removed.push(`guardrail.connectors.${name}.${key}`);
    }
  }
  if (names.length === 0) remove(ctx.doc, ['guardrail', 'connectors']);
  else write(ctx.doc, ['guardrail', 'connectors'], names, true);
}

/** `openshell.mode` is kept where version 9 knows the value (`standalone`, `managed`); another value goes with a note. */
function openshellMode(ctx: MigrationContext): void {
  const mode = read(ctx.doc, ['openshell', 'mode']);
  if (mode === undefined || mode === '' || mode === 'standalone' || mode === 'managed') return;
  remove(ctx.doc, ['openshell', 'mode']);
  ctx.record.removed.push('openshell.mode');
  ctx.record.notes.push(`openshell.mode: ${JSON.stringify(mode)} has no version 9 meaning (standalone or managed); removed`);
}

/** The version 8 default policy folder goes (rules 2 and 10 handle what it held); an operator's own folder stays. */
function policyDir(ctx: MigrationContext): void {
  const value = read(ctx.doc, ['policy_dir']);
  if (typeof value !== 'string') return;
  const dataDir = read(ctx.doc, ['data_dir']);
  const defaults = new Set([`${ctx.input.home}/policies`, '~/.warden/policies', ...(typeof dataDir === 'string' ? [`${dataDir.replace(/\/$/, '')}/policies`] : [])]);
  if (!defaults.has(value.replace(/\/$/, ''))) return;
  remove(ctx.doc, ['policy_dir']);
  ctx.record.removed.push('policy_dir');
  ctx.record.notes.push(`policy_dir: no version 9 home (${WHY.policy_dir}); removed`);
}
