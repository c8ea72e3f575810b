// The two file formats of sandbox policy (docs/sandbox.md "Packs, profiles and the administrator file"): a pack
// (policies/sandbox/<name>.yaml, or an operator's pack in `openshell.packs`) fixes the network mode, approvals and
// which run options a run may use within which bounds, with named profiles varying it; the administrator file
// (`openshell.admin`) clamps whatever pack is in force. Both are strict: an unknown key is an error, and a pack
// states every option (a forgotten one must not silently mean "allowed").
import Type, { type Static } from 'typebox';
import { oneOf } from '../../config/schema.js';
import { Cpu, Memory, POLICY_NAME_PATTERN } from './fields.js';
import { SANDBOX_POLICY_LIMITS } from './limits.js';

export const NETWORK_MODES = ['none', 'policed', 'open'] as const;
export const NetworkModeSchema = oneOf(NETWORK_MODES, {
  description: '`none`: loopback only; `policed`: egress through the egress proxy under policy; `open`: unrestricted egress.',
});

export const BOOLEAN_OPTIONS = ['copy', 'safe', 'yolo', 'no_mcp', 'learn'] as const;
export const LIST_OPTIONS = ['context', 'unmask', 'host_ports'] as const;
export type BooleanOption = (typeof BOOLEAN_OPTIONS)[number];
export type ListOption = (typeof LIST_OPTIONS)[number];

const allowed = Type.Boolean({ description: 'Whether a run may ask for another value than the pack\'s (`false`: the flag is refused with 403 `policy_violation`).' });

const booleanOption = (what: string) =>
  Type.Object(
    { default: Type.Boolean({ description: `The value a run gets when it does not ask: ${what}.` }), allowed },
    { additionalProperties: false, description: `${what[0]!.toUpperCase()}${what.slice(1)}.` },
  );

const maxItems = Type.Integer({
  minimum: 0,
  maximum: SANDBOX_POLICY_LIMITS.maxListItems,
  description: 'Most entries a run may ask for; more is refused with 403 `policy_violation`.',
});

const listOption = (what: string) =>
  Type.Object(
    { allowed: Type.Boolean({ description: `Whether a run may ask for ${what} at all.` }), max_items: maxItems },
    { additionalProperties: false, description: `${what[0]!.toUpperCase()}${what.slice(1)} (none unless a run asks).` },
  );

const Port = (description: string) => Type.Integer({ minimum: 1, maximum: 65535, description });

export const PackOptionsSchema = Type.Object(
  {
    copy: booleanOption('work on an uploaded copy of the project instead of mounting it live'),
    safe: booleanOption('safe mode: the harness runs with its most cautious settings'),
    yolo: booleanOption('the harness runs without asking before tool calls'),
    no_mcp: booleanOption('MCP servers of the project are not started'),
    learn: booleanOption('learning mode: egress the policy does not decide is recorded as a proposed rule'),
    context: listOption('extra host folders made visible read-only'),
    unmask: listOption('host paths the sandbox masks made visible'),
    host_ports: Type.Object(
      {
        allowed: Type.Boolean({ description: 'Whether a run may ask for ports on the host machine at all.' }),
        max_items: maxItems,
        min_port: Port('Lowest host port a run may ask for.'),
        max_port: Port('Highest host port a run may ask for.'),
      },
      { additionalProperties: false, description: 'Ports on the host machine the sandbox may reach (each one is an approval of kind host_port).' },
    ),
    cpu: Type.Object(
      {
        allowed: Type.Boolean({ description: 'Whether a run may ask for another CPU limit.' }),
        default: Type.Optional(Cpu('CPU limit in cores when a run does not ask; unset: no limit.')),
        max: Type.Optional(Cpu('Highest CPU limit a run gets; a larger ask is clamped to it (and reported as a violation).')),
      },
      { additionalProperties: false, description: 'CPU limit of the sandbox, in cores (fractions allowed).' },
    ),
    memory: Type.Object(
      {
        allowed: Type.Boolean({ description: 'Whether a run may ask for another memory limit.' }),
        default: Type.Optional(Memory('Memory limit (`<n>m` or `<n>g`) when a run does not ask; unset: no limit.')),
        max: Type.Optional(Memory('Highest memory limit a run gets; a larger ask is clamped to it (and reported as a violation).')),
      },
      { additionalProperties: false, description: 'Memory limit of the sandbox.' },
    ),
  },
  { additionalProperties: false, description: 'Every run option, with its value when a run does not ask, whether a run may ask, and its bounds.' },
);

const settingFields = {
  network_mode: NetworkModeSchema,
  approvals: Type.Boolean({
    description: 'Egress the policy does not decide is asked of a human (`true`) or refused (`false`).',
  }),
};

/** A profile: a named variant of its pack, stating only what differs (each option field by field). */
export const ProfileSchema = Type.Object(
  {
    description: Type.String({ minLength: 1, maxLength: 500, description: 'What the profile is for, one line.' }),
    network_mode: Type.Optional(settingFields.network_mode),
    approvals: Type.Optional(settingFields.approvals),
    options: Type.Optional(Type.Partial(Type.Object(
      Object.fromEntries(Object.entries(PackOptionsSchema.properties).map(([key, option]) => [key, Type.Partial(option)])),
      { additionalProperties: false },
    ), { additionalProperties: false, description: 'Option fields that differ from the pack.' })),
  },
  { additionalProperties: false, description: 'A named variant of the pack.' },
);

export const PackSchema = Type.Object(
  {
    description: Type.String({ minLength: 1, maxLength: 500, description: 'What the pack is for, one line.' }),
    ...settingFields,
    options: PackOptionsSchema,
    profiles: Type.Record(Type.String({ pattern: POLICY_NAME_PATTERN }), ProfileSchema, {
      // A name outside the pattern is refused; `Never` rather than `false`, which Value.Default cannot walk.
      additionalProperties: Type.Never(),
      default: {},
      description: 'Named variants of the pack; `default` is the pack itself and cannot be redefined.',
    }),
  },
  { additionalProperties: false, title: 'Warden sandbox pack', description: 'A sandbox policy pack (docs/sandbox.md).' },
);

export type PackFile = Static<typeof PackSchema>;
/** The settings a pack or one of its profiles gives: the pack's fields with its profile applied. */
export type PackSettings = Pick<PackFile, 'network_mode' | 'approvals' | 'options'>;

export const ADMIN_FORBIDDABLE = ['yolo', 'learn', 'context', 'unmask', 'host_ports'] as const;
export const ADMIN_REQUIRABLE = ['copy', 'safe', 'no_mcp'] as const;

export const AdminSchema = Type.Object(
  {
    description: Type.Optional(Type.String({
      maxLength: 500,
      description: 'Who set this policy and where to ask about it; shown in `admin.detail` of Explain.',
    })),
    network_mode: Type.Optional(oneOf(NETWORK_MODES, {
      description: 'The loosest network mode any run gets (`none` < `policed` < `open`): a looser pack or profile is brought down to it.',
    })),
    packs: Type.Optional(Type.Array(Type.String({ pattern: POLICY_NAME_PATTERN }), {
      minItems: 1,
      uniqueItems: true,
      description: 'The only packs a run may use; a pack in force that is not listed is replaced by the first one.',
    })),
    forbid: Type.Array(oneOf(ADMIN_FORBIDDABLE), {
      default: [],
      uniqueItems: true,
      description: 'Run options no run may turn on (`yolo`, `learn`) or fill (`context`, `unmask`, `host_ports`).',
    }),
    require: Type.Array(oneOf(ADMIN_REQUIRABLE), {
      default: [],
      uniqueItems: true,
      description: 'Run options every run has on (`copy`, `safe`, `no_mcp`).',
    }),
    max: Type.Object(
      {
        cpu: Type.Optional(Cpu('Highest CPU limit, in cores; higher or unlimited is clamped to it.')),
        memory: Type.Optional(Memory('Highest memory limit; higher or unlimited is clamped to it.')),
        context: Type.Optional(Type.Integer({ minimum: 0, maximum: SANDBOX_POLICY_LIMITS.maxListItems, description: 'Most `context` folders.' })),
        unmask: Type.Optional(Type.Integer({ minimum: 0, maximum: SANDBOX_POLICY_LIMITS.maxListItems, description: 'Most `unmask` paths.' })),
        host_ports: Type.Optional(Type.Integer({ minimum: 0, maximum: SANDBOX_POLICY_LIMITS.maxListItems, description: 'Most `host_ports`.' })),
      },
      { additionalProperties: false, default: {}, description: 'Upper bounds on every run.' },
    ),
  },
  {
    additionalProperties: false,
    title: 'Warden sandbox administrator file',
    description: 'Settings an administrator clamps on every sandbox run (`openshell.admin`, docs/sandbox.md).',
  },
);

export type AdminFile = Static<typeof AdminSchema>;
