// `update`: how Warden looks for a newer release. Version 8's top-level `update_check` lands here (migration
// rule 7); reserved for `warden upgrade`'s release check (a later step), which does not read it yet.
import Type from 'typebox';

export const UpdateSection = Type.Object(
  {
    check: Type.Boolean({
      default: true,
      description: 'Look for a newer release. Reserved for the release check of `warden upgrade` (a later step).',
    }),
  },
  { additionalProperties: false, default: {}, description: 'Release checks.' },
);
