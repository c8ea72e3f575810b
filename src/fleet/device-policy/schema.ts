// The device policy YAML (ours; documented in docs/fleet-wire.md): a default action, per-tool rules with
// argument patterns, SHA-256 allow/deny lists, per-tool rate limits and what lockdown does. TypeBox gives the
// type and the validation; the compiler turns a valid policy into the binary blob devices apply.
import Type, { type Static } from 'typebox';
import { oneOf } from '../../config/schema.js';

export const ACTIONS = ['allow', 'block', 'warn'] as const;
const Action = oneOf(ACTIONS);
const ToolName = Type.String({ minLength: 1, maxLength: 32, pattern: '^[A-Za-z0-9_.:*-]+$' });
/** A glob over the call's argument text: `*` any run, `?` one character. */
const ArgPattern = Type.Object({ pattern: Type.String({ minLength: 1, maxLength: 96 }), action: Action }, { additionalProperties: false });
const Sha256 = Type.String({ pattern: '^[0-9a-fA-F]{64}$' });

export const PolicySchema = Type.Object(
  {
    default_action: Action,
    rules: Type.Optional(Type.Array(
      Type.Object({ tool: ToolName, action: Action, args: Type.Optional(Type.Array(ArgPattern, { maxItems: 32 })) }, { additionalProperties: false }),
      { maxItems: 255 },
    )),
    hashes: Type.Optional(Type.Object(
      { allow: Type.Optional(Type.Array(Sha256, { maxItems: 1024 })), deny: Type.Optional(Type.Array(Sha256, { maxItems: 1024 })) },
      { additionalProperties: false },
    )),
    rate_limits: Type.Optional(Type.Array(
      Type.Object({ tool: ToolName, per_minute: Type.Integer({ minimum: 1, maximum: 65535 }) }, { additionalProperties: false }),
      { maxItems: 64 },
    )),
    lockdown: Type.Optional(Type.Object(
      {
        /** `block_all`: every tool call is blocked; `allow_listed`: only tools with an explicit allow rule run. */
        mode: oneOf(['block_all', 'allow_listed'] as const),
      },
      { additionalProperties: false },
    )),
  },
  { additionalProperties: false },
);

export type DevicePolicy = Static<typeof PolicySchema>;

/** Size limits of the compiled blob per device profile (bytes, signature excluded). */
export const PROFILE_LIMITS = { minimal: 2048, standard: 4096, extended: 8192 } as const;
export type PolicyProfile = keyof typeof PROFILE_LIMITS;
export const isProfile = (value: string): value is PolicyProfile => Object.hasOwn(PROFILE_LIMITS, value);
