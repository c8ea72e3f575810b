// `ai_discovery`: signature packs of the AI usage discovery scanner, each pinned by SHA-256 so a pack swapped
// on disk is refused rather than trusted (migration rule 9 lists version 8's packs here). Reserved for the
// discovery scanner (spec "discovery/", a later step), which does not exist yet.
import Type from 'typebox';

export const AiDiscoverySection = Type.Object(
  {
    signature_packs: Type.Array(Type.String({ minLength: 1 }), {
      default: [],
      description: 'Signature pack files, relative to `$WARDEN_HOME`. Reserved for the AI usage discovery scanner (a later step).',
    }),
    signature_pack_digests: Type.Record(Type.String({ minLength: 1 }), Type.String({ pattern: '^sha256:[0-9a-f]{64}$' }), {
      default: {},
      description: '`sha256:<hex>` pin of each entry of `signature_packs`, keyed by the same path.',
    }),
  },
  { additionalProperties: false, default: {}, description: 'AI usage discovery.' },
);
