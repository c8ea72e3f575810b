// The prompt-injection cue catalogue (policies/injection/cues.yaml): read, checked against its schema, macros
// expanded, and every cue pattern compiled into ONE RE2.Set, so scoring a text is one linear pass however
// many cues there are. Data, not code: operators and reviewers tune weights and phrasings in the YAML.
import { fileURLToPath } from 'node:url';
import RE2 from 're2';
import Type, { type Static } from 'typebox';
import { Compile } from 'typebox/compile';
import { readRuleYaml } from '../../util/rule-file.js';
import { WardenError } from '../../errors.js';

export const SHIPPED_CUES_FILE = fileURLToPath(new URL('../../../policies/injection/cues.yaml', import.meta.url));

/** The injection cue catalogue cannot be loaded. */
export class CueCatalogueError extends WardenError {
  constructor(message: string) {
    super('WARDEN_ERR_GUARDRAIL_CUES_INVALID', message);
  }
}

const Family = Type.String({ pattern: '^[a-z][a-z0-9-]*$' });
const HINTS = ['rot13', 'reverse', 'leet', 'spaced', 'encoded'] as const;
export type Hint = (typeof HINTS)[number];

const CueSchema = Type.Object(
  {
    id: Type.String({ pattern: '^[a-z][a-z0-9-]*\\.[a-z0-9-]+$' }),
    family: Family,
    weight: Type.Number({ minimum: -2, maximum: 2 }),
    patterns: Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }),
    case_sensitive: Type.Boolean({ default: false }),
    hint: Type.Optional(Type.Union(HINTS.map((h) => Type.Literal(h)))),
  },
  { additionalProperties: false },
);

export const CatalogueSchema = Type.Object(
  {
    macros: Type.Record(Type.String({ pattern: '^[a-z_]+$' }), Type.String(), { default: {} }),
    bands: Type.Object(
      {
        medium: Type.Number({ exclusiveMinimum: 0 }),
        high: Type.Number({ exclusiveMinimum: 0 }),
        critical: Type.Number({ exclusiveMinimum: 0 }),
        critical_requires: Type.Array(Family, { default: [] }),
      },
      { additionalProperties: false },
    ),
    families: Type.Record(Family, Type.Object({ cap: Type.Number() }, { additionalProperties: false }), { default: {} }),
    combos: Type.Array(
      Type.Object({ when: Family, with: Type.Array(Family, { minItems: 1 }), add: Type.Number({ minimum: 0, maximum: 2 }) }, { additionalProperties: false }),
      { default: [] },
    ),
    breadth: Type.Object({ min_families: Type.Integer({ minimum: 2 }), add: Type.Number({ minimum: 0, maximum: 2 }) }, { additionalProperties: false }),
    rule_cues: Type.Record(
      Type.String({ pattern: '^[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+$' }),
      Type.Object({ family: Family, weight: Type.Number({ minimum: -2, maximum: 2 }) }, { additionalProperties: false }),
      { default: {} },
    ),
    cues: Type.Array(CueSchema, { minItems: 1 }),
  },
  { additionalProperties: false },
);

export type Cue = Static<typeof CueSchema>;
type CatalogueFile = Static<typeof CatalogueSchema>;

export interface CueCatalogue extends Omit<CatalogueFile, 'cues' | 'macros'> {
  cues: Cue[];
  /** Every pattern of every cue, macros expanded and case flag applied, in one set. */
  set: InstanceType<typeof RE2.Set>;
  /** For each pattern of the set: its cue and its expanded source (for evidence). */
  owners: { cue: Cue; source: string }[];
  /** Family caps, with the default for families the file does not list. */
  cap(family: string): number;
}

const DEFAULT_CAP = 1.3;
const validator = Compile(CatalogueSchema);
const fail = (message: string) => new CueCatalogueError(message);

export function loadCueCatalogue(file = SHIPPED_CUES_FILE): CueCatalogue {
  const raw = readRuleYaml<CatalogueFile>(file, CatalogueSchema, validator, fail);
  const seen = new Set<string>();
  const owners: { cue: Cue; source: string }[] = [];
  for (const cue of raw.cues) {
    if (seen.has(cue.id)) throw fail(`${file}: cue ${cue.id}: duplicate id`);
    seen.add(cue.id);
    for (const pattern of cue.patterns) {
      const expanded = expand(pattern, raw.macros, `${file}: cue ${cue.id}`);
      owners.push({ cue, source: cue.case_sensitive ? expanded : `(?i)${expanded}` });
    }
  }
  let set: InstanceType<typeof RE2.Set>;
  try {
    // Compiling the set proves every pattern; single patterns compile only to name a bad one, or lazily
    // for evidence (compiling each one up front doubled the load time).
    set = new RE2.Set(owners.map((o) => o.source), 'u', { maxMem: 128 * 1024 * 1024 });
  } catch (err) {
    for (const { cue, source } of owners) {
      try {
        new RE2(source, 'u');
      } catch (one) {
        throw fail(`${file}: cue ${cue.id}: not a valid RE2 expression: ${(one as Error).message}`);
      }
    }
    throw fail(`${file}: the cue patterns do not compile together: ${(err as Error).message}`);
  }
  const { bands, families, combos, breadth, rule_cues } = raw;
  return {
    bands, families, combos, breadth, rule_cues, cues: raw.cues, set, owners,
    cap: (family) => families[family]?.cap ?? DEFAULT_CAP,
  };
}

/** `{{name}}` → the macro's text; an unknown macro is an error, not a literal. */
function expand(pattern: string, macros: Record<string, string>, where: string): string {
  return pattern.replace(/\{\{([a-z_]+)\}\}/g, (_, name: string) => {
    const body = macros[name];
    if (body === undefined) throw fail(`${where}: unknown macro {{${name}}}`);
    return body;
  });
}
