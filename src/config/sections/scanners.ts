// `scanners`: the skill and MCP scanners' standing settings, the version 9 home of version 8's
// `scanners.skill_scanner` and `scanners.mcp_scanner` (migration rule 6). Not to be confused with `scanner`
// (singular), the folders the sidecar's scan routes may read. The scans take their options per request today;
// these keys are reserved for the defaults those requests fall back to (a later step) and say so.
import Type from 'typebox';

const PolicyFile = Type.Object(
  {
    path: Type.String({ minLength: 1, description: 'The policy YAML file.' }),
    digest: Type.String({ pattern: '^sha256:[0-9a-f]{64}$', description: '`sha256:<hex>` of the file when it was configured.' }),
  },
  { additionalProperties: false, description: 'The custom scan policy, pinned by its digest.' },
);

const Analyzer = Type.Object(
  { enabled: Type.Boolean({ default: false, description: 'Run this analyzer by default.' }) },
  { additionalProperties: false, description: 'One analyzer\'s default.' },
);

export const SkillScannerSection = Type.Object(
  {
    policy: Type.Union(['balanced', 'low-noise', 'quiet', 'strict', 'permissive', 'custom'].map((p) => Type.Literal(p)), {
      default: 'balanced',
      description: 'Default scan policy: a preset (`balanced`, `low-noise`, `quiet`, `strict`, `permissive`) or ' +
        '`custom` with `policy_file`. Reserved for the scan requests\' default (a later step); requests name their policy today.',
    }),
    policy_file: Type.Optional(PolicyFile),
    lenient: Type.Boolean({ default: false, description: 'Tolerate malformed skills by default (reserved, as `policy`).' }),
    analyzers: Type.Object(
      Object.fromEntries(['behavioral', 'llm', 'reputation', 'ai_guard', 'trigger', 'osv', 'meta'].map((a) => [a, Type.Optional(Analyzer)])),
      {
        additionalProperties: false,
        default: {},
        description: 'Analyzers switched on by default, `analyzers.<name>.enabled` (names as `GET /analyzers` lists ' +
          'them). Reserved for the scan requests\' default (a later step); requests switch analyzers with `use_<name>` today.',
      },
    ),
  },
  { additionalProperties: false, default: {}, description: 'The skill scanner\'s defaults.' },
);

export const McpScannerSection = Type.Object(
  {
    analyzers: Type.Array(Type.String({ minLength: 1 }), {
      default: [],
      description: 'MCP scanner analyzers to run; empty: the scanner\'s own choice. Reserved for `warden mcp scan` (a later step).',
    }),
  },
  { additionalProperties: false, default: {}, description: 'The MCP scanner\'s defaults.' },
);

export const ScannersSection = Type.Object(
  { skill_scanner: SkillScannerSection, mcp_scanner: McpScannerSection },
  { additionalProperties: false, default: {}, description: 'Standing defaults of the skill and MCP scanners (written by `warden migrate` from version 8).' },
);
