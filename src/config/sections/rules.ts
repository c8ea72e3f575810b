// `rules`: settings of the detection rules that are not a pack choice. Today only `protections`, the composed
// pre-release rule folders a version 8 home used (migration rule 5 writes them); reserved for the rule-pack
// loader (a later step) to compose on top of `guardrail.rule_pack`.
import Type from 'typebox';

export const RulesSection = Type.Object(
  {
    protections: Type.Array(Type.String({ minLength: 1 }), {
      default: [],
      description: 'Composed pre-release protection folders carried over from a version 8 `rule_pack_dir` by ' +
        '`warden migrate`; reserved for the rule-pack loader (a later step), which does not read them yet.',
    }),
  },
  { additionalProperties: false, default: {}, description: 'Detection rules beyond the chosen pack.' },
);
