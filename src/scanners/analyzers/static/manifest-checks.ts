// Checks on SKILL.md's front matter: that it exists and parses, that name and description are present and well
// formed (agents pick skills by them, so a bad one misroutes requests or impersonates), and which keys are unknown.
import { basename } from 'node:path';
import RE2 from 're2';
import { lineAt, snippetAt } from '../../snippet.js';
import type { AnalyzerFinding, SkillFile, SkillPackage } from '../../types.js';

const NAME_FORMAT = new RE2('^[a-z0-9][a-z0-9-]{0,63}$', 'u');
const MIN_DESCRIPTION = 20;
const MAX_DESCRIPTION = 1024;
/** Words agent vendors reserve in skill names; a skill using them claims an origin it likely does not have. */
const RESERVED_NAME_WORDS = ['anthropic', 'claude', 'openai'] as const;

/** Front-matter keys of the Agent Skills format and of the agents that read it. */
const KNOWN_KEYS: ReadonlySet<string> = new Set([
  'name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools', 'allowed_tools', 'version',
  'model', 'disable-model-invocation', 'user-invocable', 'argument-hint', 'when_to_use', 'hooks',
]);

/** SKILL.md as loaded (the loader also accepts other capitalisations). */
export function manifestFileOf(skill: SkillPackage): SkillFile | undefined {
  return skill.files.find((f) => f.path === 'SKILL.md') ?? skill.files.find((f) => f.path.toLowerCase() === 'skill.md');
}

/** Where a top-level front-matter key is written: character index of its line, if found. */
export function frontMatterKeyIndex(text: string, key: string): number | undefined {
  let start = text.startsWith('\uFEFF') ? 1 : 0;
  for (let line = 0; start < text.length && line < 500; line++) {
    const end = text.indexOf('\n', start);
    const content = text.slice(start, end < 0 ? text.length : end);
    if (line > 0 && content.trimEnd() === '---') return undefined;
    if (content.startsWith(`${key}:`)) return start;
    if (end < 0) return undefined;
    start = end + 1;
  }
  return undefined;
}

interface Located {
  file_path: string;
  line_number?: number;
  snippet?: string;
}

function locateKey(manifest: SkillFile | undefined, key: string): Located {
  const text = manifest?.text;
  const path = manifest?.path ?? 'SKILL.md';
  if (text === undefined) return { file_path: path };
  const index = frontMatterKeyIndex(text, key);
  if (index === undefined) return { file_path: path, line_number: 1 };
  return { file_path: path, line_number: lineAt(text, index), snippet: snippetAt(text, index) };
}

export function manifestFindings(skill: SkillPackage): AnalyzerFinding[] {
  const file = manifestFileOf(skill);
  const manifest = skill.manifest;
  if (manifest === undefined) {
    const missing = file === undefined;
    return [{
      rule_id: 'SS-MANIFEST-MISSING',
      category: 'policy_violation',
      severity: 'MEDIUM',
      title: missing ? 'SKILL.md is missing' : 'SKILL.md front matter is missing or invalid',
      description: `${skill.manifestError ?? 'The manifest could not be read'}. Without a name and description the skill's purpose cannot be checked against what it does.`,
      file_path: file?.path ?? 'SKILL.md',
      line_number: missing ? undefined : 1,
      remediation: 'Start SKILL.md with a YAML front matter block (between --- lines) giving at least name and description.',
    }];
  }
  const findings: AnalyzerFinding[] = [];
  const name = manifest.name?.trim() ?? '';
  const description = manifest.description?.trim() ?? '';

  if (name === '') {
    findings.push({
      rule_id: 'SS-MANIFEST-NAME-MISSING', category: 'policy_violation', severity: 'MEDIUM', title: 'Skill name is missing',
      description: 'The front matter has no `name` (or it is empty), so the skill cannot be identified or matched to its folder.',
      ...locateKey(file, 'name'), remediation: 'Add a `name`: lower-case letters, digits and hyphens, matching the folder name.',
    });
  } else {
    if (!NAME_FORMAT.test(name)) {
      findings.push({
        rule_id: 'SS-MANIFEST-NAME-FORMAT', category: 'policy_violation', severity: 'LOW', title: 'Skill name is not well formed',
        description: `The name "${name.slice(0, 80)}" does not match ^[a-z0-9][a-z0-9-]{0,63}$ (lower-case letters, digits and hyphens, at most 64 characters).`,
        ...locateKey(file, 'name'), remediation: 'Rename the skill using only lower-case letters, digits and hyphens.',
      });
    }
    const reserved = RESERVED_NAME_WORDS.find((word) => name.toLowerCase().includes(word));
    if (reserved) {
      findings.push({
        rule_id: 'SS-MANIFEST-RESERVED-NAME', category: 'social_engineering', severity: 'MEDIUM', title: 'Skill name uses a vendor\'s reserved word',
        description: `The name "${name.slice(0, 80)}" contains "${reserved}", which suggests the skill is published by that vendor.`,
        ...locateKey(file, 'name'), remediation: 'Choose a name that does not borrow a vendor\'s name.', metadata: { reserved_word: reserved },
      });
    }
    const folder = basename(skill.root);
    if (name !== folder) {
      findings.push({
        rule_id: 'SS-MANIFEST-NAME-MISMATCH', category: 'policy_violation', severity: 'LOW', title: 'Skill name differs from its folder name',
        description: `The skill is named "${name.slice(0, 80)}" but lives in folder "${folder}"; agents may list it under either name.`,
        ...locateKey(file, 'name'), remediation: 'Make the folder name and the `name` field identical.', metadata: { folder },
      });
    }
  }

  if (description === '') {
    findings.push({
      rule_id: 'SS-MANIFEST-DESCRIPTION-MISSING', category: 'policy_violation', severity: 'MEDIUM', title: 'Skill description is missing',
      description: 'The front matter has no `description` (or it is empty); agents choose skills by their description.',
      ...locateKey(file, 'description'), remediation: 'Add a description of what the skill does and when to use it.',
    });
  } else if (description.length < MIN_DESCRIPTION) {
    findings.push({
      rule_id: 'SS-MANIFEST-DESCRIPTION-SHORT', category: 'policy_violation', severity: 'LOW', title: 'Skill description is too short',
      description: `The description has ${description.length} characters (minimum ${MIN_DESCRIPTION}): too little to tell when the skill applies.`,
      ...locateKey(file, 'description'), remediation: 'Describe what the skill does and when it should be used.', metadata: { length: description.length },
    });
  } else if (description.length > MAX_DESCRIPTION) {
    findings.push({
      rule_id: 'SS-MANIFEST-DESCRIPTION-LONG', category: 'policy_violation', severity: 'LOW', title: 'Skill description is too long',
      description: `The description has ${description.length} characters (maximum ${MAX_DESCRIPTION}). Descriptions are always in the agent's context; long ones crowd it and can carry instructions.`,
      ...locateKey(file, 'description'), remediation: 'Shorten the description; move details into the SKILL.md body.', metadata: { length: description.length },
    });
  }

  const hooks = manifest.raw.hooks;
  if (hooks !== undefined && hooks !== null) {
    findings.push({
      rule_id: 'SS-MANIFEST-HOOKS', category: 'autonomy_abuse', severity: 'MEDIUM', title: 'Skill registers hooks',
      description: 'The front matter declares `hooks`: commands the agent runs on its own when events fire, without a request from the user.',
      ...locateKey(file, 'hooks'), remediation: 'Remove the hooks, or document exactly what they run and why the skill needs them.',
    });
  }

  const unknown = Object.keys(manifest.raw).filter((key) => !KNOWN_KEYS.has(key));
  if (unknown.length > 0) {
    findings.push({
      rule_id: 'SS-MANIFEST-UNKNOWN-KEY', category: 'policy_violation', severity: 'INFO', title: 'Unknown front-matter keys',
      description: `The front matter has keys that the skill format does not define: ${unknown.slice(0, 20).join(', ')}.`,
      ...locateKey(file, unknown[0]!), remediation: 'Move custom fields under `metadata`.', metadata: { keys: unknown.slice(0, 50) },
    });
  }
  return findings;
}
