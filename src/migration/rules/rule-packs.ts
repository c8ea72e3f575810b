// Rule 5 of the 8 → 9 migration: `rule_pack_dir` is removed at every scope (`guardrail` and each
// `guardrail.connectors.<name>`). What the folder was decides its version 9 home (docs/migration.md
// "Version 8 rule packs"): a shipped preset's folder → `guardrail.rule_pack: <preset>`; a pre-release composed
// folder → its preset plus `rules.protections`; a folder already in Warden's pack format →
// `custom_packs.<name> {path, digest}`; a version 8 pack → its `<folder>-1.0` copy (written by the apply step)
// pinned the same way. Version 9 has one rule pack for every connector: a connector that chose another pack
// than the global one is recorded as a conflict, its pack still listed under `custom_packs`.
import { isMap, isScalar, parse } from 'yaml';
import { RulePackUnloadableError } from '../file-errors.js';
import { asRecord, homeRelative, rulePackDirs } from '../home-paths.js';
import { packDigest } from '../../guardrail/rules/pack-digest.js';
import type { MigrationContext, MigrationRule } from '../types.js';
import { rebasePack } from './rule-pack-rebase.js';
import { baseName, folderFiles, readPackFolder } from './rule-pack-folder.js';

interface Selection {
  rulePack: string;
  customPack?: { name: string; path: string; digest: string };
  protections?: string[];
}

const BUILT_IN_PACK = 'default';

export const rulePacksRule: MigrationRule = (ctx) => {
  if (ctx.input.scope === 'client-managed') return;
  // The source file, not the document: earlier rules may already have reshaped `guardrail.connectors`.
  const source = asRecord(parse(ctx.input.configText));
  const dirs = rulePackDirs(source);
  if (dirs.length === 0) return;
  const dataDir = typeof source?.data_dir === 'string' ? source.data_dir : undefined;
  const byFolder = new Map<string, Selection>();
  const select = (rel: string) => {
    let selection = byFolder.get(rel);
    if (!selection) {
      selection = selectionFor(ctx, rel);
      byFolder.set(rel, selection);
    }
    return selection;
  };

  const global = dirs.find((d) => d.scope.length === 1);
  let globalPack = BUILT_IN_PACK;
  const protections = new Set<string>();
  const connectorPacks: { scope: string[]; pack: string }[] = [];
  for (const { scope, dir } of dirs) {
    const key = [...scope, 'rule_pack_dir'];
    const rel = homeRelative(dir, ctx.input.home, dataDir);
    if (rel === undefined || rel === '') throw new RulePackUnloadableError(`${key.join('.')}: ${dir} is not a folder inside the data home`);
    const selection = select(rel);
    const isGlobal = scope === global?.scope;
    if (isGlobal) globalPack = selection.rulePack;
    // The global key becomes `rule_pack` where it stood (its comments kept); the rest are removed.
    if (!(isGlobal && globalPack !== BUILT_IN_PACK && renameInPlace(ctx, key, globalPack)) && ctx.doc.hasIn(key)) ctx.doc.deleteIn(key);
    ctx.record.removed.push(key.join('.'));
    if (selection.customPack) {
      const { name, path, digest } = selection.customPack;
      ctx.doc.setIn(['custom_packs', name], ctx.doc.createNode({ path, digest }));
      ctx.record.moved.push({ source: 'config', from: key.join('.'), to: `custom_packs.${name}`, value: { path, digest } });
    }
    if (selection.protections) {
      for (const p of selection.protections) protections.add(p);
      ctx.record.moved.push({ source: 'config', from: key.join('.'), to: 'rules.protections', value: selection.protections });
    }
    if (isGlobal && globalPack === BUILT_IN_PACK) {
      ctx.record.notes.push(`${key.join('.')} named the shipped ${BUILT_IN_PACK} pack, the built-in value: guardrail.rule_pack is not written`);
    } else if (isGlobal) {
      if (!ctx.doc.hasIn(['guardrail', 'rule_pack'])) ctx.doc.setIn(['guardrail', 'rule_pack'], globalPack);
      ctx.record.moved.push({ source: 'config', from: key.join('.'), to: 'guardrail.rule_pack', value: globalPack });
    } else {
      connectorPacks.push({ scope, pack: selection.rulePack });
    }
  }
  for (const { scope, pack } of connectorPacks) {
    if (pack === globalPack) continue;
    ctx.record.conflicts.push({
      to: 'guardrail.rule_pack',
      kept: globalPack,
      lost: pack,
      reason: `${scope.join('.')}.rule_pack_dir chose its own pack; version 9 inspects every connector with guardrail.rule_pack ` +
        `(the connector's pack stays available under custom_packs where it was a custom one)`,
    });
  }
  if (protections.size) ctx.doc.setIn(['rules', 'protections'], ctx.doc.createNode([...protections].sort()));
};

/** Turn the `rule_pack_dir: <dir>` pair into `rule_pack: <pack>` in place; false when the pair is not there. */
function renameInPlace(ctx: MigrationContext, key: string[], pack: string): boolean {
  const parent = ctx.doc.getIn(key.slice(0, -1), true);
  if (!isMap(parent)) return false;
  const pair = parent.items.find((p) => isScalar(p.key) && p.key.value === 'rule_pack_dir');
  if (!pair || !isScalar(pair.key) || !isScalar(pair.value)) return false;
  pair.key.value = 'rule_pack';
  pair.value.value = pack;
  pair.value.type = 'PLAIN';
  return true;
}

function selectionFor(ctx: MigrationContext, rel: string): Selection {
  const folder = readPackFolder(ctx.input.files, rel);
  switch (folder.kind) {
    case 'preset':
      return { rulePack: folder.preset };
    case 'composed':
      ctx.record.notes.push(`rule pack ${rel}: the composed pre-release folder became guardrail.rule_pack ${folder.composed.base} with rules.protections`);
      return { rulePack: folder.composed.base, protections: folder.composed.protections };
    case 'v9': {
      const digest = packDigest(folderFiles(ctx.input.files, rel).map((f) => ({ path: baseName(f.path), bytes: f.bytes })));
      return { rulePack: folder.name, customPack: { name: folder.name, path: rel, digest } };
    }
    case 'v8': {
      const copy = rebasePack(folder, ctx.input.files, ctx.record);
      for (const file of copy.files) ctx.operations.push({ op: 'write', path: file.path, bytes: file.bytes });
      ctx.record.notes.push(`rule pack ${rel}: rebased to ${copy.rel} (extends ${folder.base}); the old folder is no longer read`);
      return { rulePack: copy.name, customPack: { name: copy.name, path: copy.rel, digest: copy.digest } };
    }
  }
}
