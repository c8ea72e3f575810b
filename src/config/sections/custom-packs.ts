// `custom_packs`: operator rule packs outside the shipped presets, each pinned by a digest, so a pack that was
// edited after it was listed is noticed instead of silently loaded. Written by the 8 → 9 migration (rule 5,
// from `guardrail.rule_pack_dir` folders). When `guardrail.rule_pack` names one, the loader checks its digest and
// reads it from its folder (src/guardrail/rules/custom-packs.ts).
import Type from 'typebox';

export const CustomPack = Type.Object(
  {
    path: Type.String({ minLength: 1, description: 'Folder of the pack\'s rule files; `~` is the home directory, a relative path is under `$WARDEN_HOME`.' }),
    digest: Type.String({
      pattern: '^sha256:[0-9a-f]{64}$',
      description: '`sha256:<hex>` over the pack\'s files (docs/migration.md gives the order), checked before the pack is used.',
    }),
  },
  { additionalProperties: false, description: 'One operator rule pack.' },
);

export const CustomPacksSection = Type.Record(Type.String({ pattern: '^[a-z0-9][a-z0-9_.-]*$' }), CustomPack, {
  default: {},
  description: 'Operator rule packs by name, which `guardrail.rule_pack` may name. Written by `warden migrate` from ' +
    'version 8 `rule_pack_dir` folders. The named pack is read from its `path` (a folder named like the pack) after ' +
    'its files are checked against `digest`; an edited pack stops the start until its new digest is pinned.',
});
