// The sandbox policy keys of the `openshell` section: which pack and profile a run uses when it names none, the
// operator's own packs, the user's standing run options, and the administrator file with its authority. Spread
// into OpenshellSection (src/config/schema.ts) so this part of the section is edited here alone; it imports
// nothing from schema.ts, so neither file can be loaded half-initialised through the other.
import Type from 'typebox';
import { Cpu, Memory, POLICY_NAME_PATTERN } from '../../sandbox/policy/fields.js';

const SHIPPED = ['default', 'strict', 'permissive'];
/** An operator pack's name: a policy name that is not a shipped pack's (a pack named `strict` must be the shipped one). */
const OPERATOR_PACK_NAME = `^(?!(?:${SHIPPED.join('|')})$)${POLICY_NAME_PATTERN.slice(1)}`;

const optionalName = (description: string) =>
  Type.String({ default: '', pattern: `^$|${POLICY_NAME_PATTERN}`, description });

export const openshellPolicyKeys = {
  pack: optionalName(
    'Sandbox pack a run uses when it names none: `default`, `strict`, `permissive` (policies/sandbox/) or a key of ' +
      '`packs`. Empty: `default`. See [sandbox.md](sandbox.md#packs-profiles-and-the-administrator-file).',
  ),
  profile: optionalName('Profile of the pack a run uses when it names none. Empty: `default` (the pack itself).'),
  packs: Type.Record(
    Type.String({ pattern: OPERATOR_PACK_NAME }),
    Type.Union([Type.String({ minLength: 1 }), Type.Object({}, { additionalProperties: true })]),
    {
      // A name outside the pattern is refused; `Never` rather than `false`, which Value.Default cannot walk.
      additionalProperties: Type.Never(),
      default: {},
      description: 'Operator sandbox packs by name (not a shipped name): a path to a pack file (`~` is the home ' +
        'folder, a relative path is under `$WARDEN_HOME`) or the pack written inline, in the format of ' +
        '`docs/schemas/sandbox-pack.schema.json`. A pack that fails to load refuses the runs that use it ' +
        '(400 `pack_invalid`, naming the file and key); the other packs keep working.',
    },
  ),
  defaults: Type.Object(
    {
      copy: Type.Optional(Type.Boolean({ description: 'Work on an uploaded copy of the project instead of mounting it.' })),
      safe: Type.Optional(Type.Boolean({ description: 'Safe mode of the harness.' })),
      yolo: Type.Optional(Type.Boolean({ description: 'Run the harness without its tool-call prompts.' })),
      no_mcp: Type.Optional(Type.Boolean({ description: 'Do not start the project\'s MCP servers.' })),
      learn: Type.Optional(Type.Boolean({ description: 'Learning mode for egress.' })),
      context: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { description: 'Extra host folders made visible read-only.' })),
      unmask: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { description: 'Masked host paths made visible.' })),
      host_ports: Type.Optional(Type.Array(Type.Integer({ minimum: 1, maximum: 65535 }), { description: 'Host ports the sandbox may reach.' })),
      cpu: Type.Optional(Cpu('CPU limit in cores.')),
      memory: Type.Optional(Memory('Memory limit, `<n>m` or `<n>g`.')),
    },
    {
      additionalProperties: false,
      default: {},
      description: 'Your standing run options, above the pack and below what a run asks for. A value the pack in ' +
        'force does not allow is left out (reported as a violation and a warning), not refused.',
    },
  ),
  admin: Type.String({
    default: '',
    description: 'Path of the administrator file that clamps every sandbox run (format: ' +
      '`docs/schemas/sandbox-admin.schema.json`; `~` is the home folder, a relative path is under `$WARDEN_HOME`). ' +
      'Empty: none.',
  }),
  admin_authority: Type.Union([Type.Literal('advisory'), Type.Literal('authoritative')], {
    default: 'advisory',
    description: '`authoritative` (a managed_enterprise install): the administrator file clamps settings and ' +
      'refuses forbidden options with 403 `admin_violation`; a file that cannot be read refuses every run. ' +
      '`advisory`: what it would clamp or refuse is only reported (violations and warnings).',
  }),
};
