// The rule-pack file formats (documented for operators in policies/rules.md): rule files holding a `rules`
// list, and one pack.yaml manifest per pack folder.
import Type, { type Static } from 'typebox';
import { oneOf, Severity } from '../../config/schema.js';

export const RULE_CATEGORIES = [
  'secret', 'command', 'sensitive-path', 'c2', 'cognitive-file', 'trust-exploit', 'enterprise-data',
] as const;

export const CAPABILITY_CLASSES = ['shell_exec', 'file_read', 'file_write', 'network', 'credential_access', 'agent_config'] as const;


export const RuleSchema = Type.Object(
  {
    id: Type.String({ pattern: '^[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+$', maxLength: 96 }),
    title: Type.String({ minLength: 1, maxLength: 200 }),
    category: oneOf(RULE_CATEGORIES),
    severity: Severity,
    confidence: Type.Number({ minimum: 0, maximum: 1 }),
    patterns: Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }),
    expression: Type.Optional(Type.String({ minLength: 1 })),
    tags: Type.Array(Type.String({ minLength: 1 }), { default: [] }),
    tool_call_only: Type.Boolean({ default: false }),
    enabled: Type.Boolean({ default: true }),
    tool_capability_class: Type.Optional(oneOf(CAPABILITY_CLASSES)),
    // Secret rules (policies/rules.md "Checking the value"): which capture group holds the secret, how random
    // it must be (bits per character, one number or one per value shape) and whether placeholders are refused.
    value_group: Type.Optional(Type.Integer({ minimum: 1, maximum: 9 })),
    min_entropy: Type.Optional(Type.Union([
      Type.Number({ minimum: 0, maximum: 8 }),
      Type.Object(
        {
          hex: Type.Optional(Type.Number({ minimum: 0, maximum: 8 })),
          alnum: Type.Optional(Type.Number({ minimum: 0, maximum: 8 })),
          base64: Type.Optional(Type.Number({ minimum: 0, maximum: 8 })),
          other: Type.Optional(Type.Number({ minimum: 0, maximum: 8 })),
        },
        { additionalProperties: false, minProperties: 1 },
      ),
    ])),
    placeholder_check: Type.Optional(Type.Union([Type.Boolean(), Type.Literal('strict')])),
    // Generic keyword rules: the capture group holding the variable's name, checked against names that hold
    // ids, counts, URLs or pagination cursors rather than secrets (next_page_token, token_count, secret_name).
    name_group: Type.Optional(Type.Integer({ minimum: 1, maximum: 9 })),
  },
  { additionalProperties: false },
);
export type Rule = Static<typeof RuleSchema>;

export const RuleFileSchema = Type.Object({ rules: Type.Array(RuleSchema) }, { additionalProperties: false });

const PackName = Type.String({ pattern: '^[a-z0-9][a-z0-9_.-]*$' });

export const PackManifestSchema = Type.Object(
  {
    name: PackName,
    description: Type.String({ default: '' }),
    extends: Type.Optional(PackName),
    disable: Type.Array(Type.String(), { default: [] }),
    severity_overrides: Type.Record(Type.String(), Severity, { default: {} }),
  },
  { additionalProperties: false },
);
export type PackManifest = Static<typeof PackManifestSchema>;
