// The format of the skill scanner's signature rule files (policies/scanner/rules/*.yaml): a `rules` list, each
// rule a set of RE2 patterns with the category, severity and wording of the finding it produces.
import Type, { type Static } from 'typebox';
import { oneOf } from '../../../config/schema.js';
import { SCAN_CATEGORIES, SCAN_SEVERITIES, type ScanCategory } from '../../types.js';
import { RULE_FILE_TYPES } from './file-types.js';

/** Rule-file ids are `SS-<prefix>-<nnn>` with the category's prefix, so an id alone says what kind of finding it
 *  is. The checks written in code have named ids under other prefixes (SS-MANIFEST-NAME-MISMATCH, SS-FILE-…,
 *  SS-UNICODE-…, SS-TOOLS-…, SS-DECODED-…, SS-FLOW-…, SS-PIPELINE-…, SS-TRIGGER-…), which the id pattern below
 *  cannot produce, so a rule file can never take one of theirs. */
export const CATEGORY_PREFIXES: Readonly<Record<ScanCategory, string>> = {
  prompt_injection: 'PI',
  command_injection: 'CMD',
  data_exfiltration: 'EXF',
  unauthorized_tool_use: 'TOOL',
  obfuscation: 'OBF',
  hardcoded_secrets: 'SEC',
  social_engineering: 'SOC',
  resource_abuse: 'RES',
  policy_violation: 'POL',
  malware: 'MAL',
  harmful_content: 'HARM',
  skill_discovery_abuse: 'DISC',
  transitive_trust_abuse: 'TRUST',
  autonomy_abuse: 'AUTO',
  tool_chaining_abuse: 'CHAIN',
  unicode_steganography: 'UNI',
  supply_chain_attack: 'SUP',
};

const Text = Type.String({ minLength: 1 });

export const SignatureRuleSchema = Type.Object(
  {
    id: Type.String({ pattern: '^SS-[A-Z]+-[0-9]{3}$' }),
    category: oneOf(SCAN_CATEGORIES),
    severity: oneOf(SCAN_SEVERITIES),
    title: Type.String({ minLength: 1, maxLength: 200 }),
    description: Text,
    /** RE2 syntax; any pattern matching fires the rule. `^`/`$` match at line boundaries. */
    patterns: Type.Array(Text, { minItems: 1 }),
    /** A match is dropped when the line it starts on matches one of these. */
    exclude_patterns: Type.Array(Text, { default: [] }),
    file_types: Type.Array(oneOf(RULE_FILE_TYPES), { minItems: 1 }),
    remediation: Text,
  },
  { additionalProperties: false },
);
export type SignatureRuleDefinition = Static<typeof SignatureRuleSchema>;

export const SignatureRuleFileSchema = Type.Object({ rules: Type.Array(SignatureRuleSchema, { minItems: 1 }) }, { additionalProperties: false });
