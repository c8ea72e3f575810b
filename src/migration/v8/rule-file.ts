// The version 8 rule-file format, as the 8 → 9 migration reads it (docs/migration.md "Version 8 rule packs").
// A version 8 pack was a folder of YAML files (`<data_dir>/policies/guardrail/<pack>/*.yaml`) holding
// pattern-only rules: no expressions, no manifest, either `patterns` (a list) or `pattern` (one). Only what
// rule 5 needs to carry a rule over is typed strictly; an unknown key is an error, as in version 8.
import Type, { type Static } from 'typebox';

const V8Severity = Type.Union(['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'].map((s) => Type.Literal(s)));

export const V8RuleSchema = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 96 }),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    description: Type.Optional(Type.String()),
    category: Type.String({ pattern: '^[a-z][a-z0-9-]*$' }),
    severity: V8Severity,
    confidence: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    pattern: Type.Optional(Type.String({ minLength: 1 })),
    patterns: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1 })),
    tags: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
    enabled: Type.Optional(Type.Boolean()),
    tool_call_only: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type V8Rule = Static<typeof V8RuleSchema>;

export const V8RuleFileSchema = Type.Object(
  {
    version: Type.Optional(Type.Literal(1)),
    rules: Type.Array(V8RuleSchema),
  },
  { additionalProperties: false },
);
export type V8RuleFile = Static<typeof V8RuleFileSchema>;

/** A pre-release 9 composed folder: a preset plus protections, instead of rule files (docs/migration.md). */
export const ComposedPackSchema = Type.Object(
  {
    base: Type.Union(['default', 'strict', 'permissive'].map((s) => Type.Literal(s))),
    protections: Type.Array(Type.String({ pattern: '^[a-z0-9][a-z0-9_.-]*$' }), { minItems: 1 }),
  },
  { additionalProperties: false },
);
export type ComposedPack = Static<typeof ComposedPackSchema>;

/** A v8 rule's patterns, whichever of `pattern` / `patterns` it used. */
export function v8Patterns(rule: V8Rule): string[] {
  return [...(rule.patterns ?? []), ...(rule.pattern === undefined ? [] : [rule.pattern])];
}
