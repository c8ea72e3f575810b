// Rule 6: scanner keys. Binary keys go; an empty skill scanner policy becomes `quiet`; a policy file path
// becomes `custom` with `policy_file {path, digest}`; `use_<analyzer>` switches move to
// `scanners.skill_scanner.analyzers.<analyzer>.enabled` (written only when true); an inline analyzer key goes
// to .env under the variable its `api_key_env` names (shown as <redacted> in the record); the MCP scanner's
// comma list becomes a YAML list (`auto` alone or empty: the empty default, not written); a non-empty `llm` block
// beside a scanner or the guardrail sets `judge_source: override`. The version 8 analyzer blocks with a key are
// `cisco_ai_defense` (the ai_guard analyzer) and the `llm` blocks; docs/migration.md lists the variable each
// falls back to when it names none.
import { createHash } from 'node:crypto';
import { SCAN_PRESETS } from '../../scanners/types.js';
import { read, remove, write, type Path } from '../doc-edit.js';
import { MigrationError } from '../errors.js';
import { envOperation } from '../env-line.js';
import { envOf, findFile } from '../home-files.js';
import type { MigrationContext, MigrationRule } from '../types.js';
import { SKILL_ANALYZER_SWITCHES } from '../v8/schema.js';

const SKILL = ['scanners', 'skill_scanner'] as const;
const MCP = ['scanners', 'mcp_scanner'] as const;

/** Blocks that may hold an inline key, the variable it goes to when the block names none, and whether the block is a judge override. */
const KEY_BLOCKS: readonly { path: Path; fallbackEnv: string; judgeOverride: boolean }[] = [
  { path: ['cisco_ai_defense'], fallbackEnv: 'AI_GUARD_API_KEY', judgeOverride: false },
  { path: ['llm'], fallbackEnv: 'WARDEN_LLM_API_KEY', judgeOverride: false },
  { path: ['guardrail', 'llm'], fallbackEnv: 'WARDEN_LLM_API_KEY', judgeOverride: true },
  { path: [...SKILL, 'llm'], fallbackEnv: 'SKILL_SCANNER_LLM_API_KEY', judgeOverride: true },
  { path: ['scanners', 'plugin_llm'], fallbackEnv: 'SKILL_SCANNER_LLM_API_KEY', judgeOverride: true },
];

export const scannerKeys: MigrationRule = (ctx) => {
  for (const block of KEY_BLOCKS) inlineKey(ctx, block.path, block.fallbackEnv);
  for (const path of [[...SKILL, 'binary'], [...MCP, 'binary'], ['scanners', 'plugin_scanner'], ['scanners', 'codeguard']]) {
    if (read(ctx.doc, path) === undefined) continue;
    remove(ctx.doc, path);
    ctx.record.removed.push(path.join('.'));
  }
  skillPolicy(ctx);
  for (const [key, analyzer] of Object.entries(SKILL_ANALYZER_SWITCHES)) {
    const value = read(ctx.doc, [...SKILL, key]);
    if (value === undefined) continue;
    remove(ctx.doc, [...SKILL, key]);
    if (value !== true) {
      ctx.record.removed.push([...SKILL, key].join('.'));
      continue;
    }
    const to = [...SKILL, 'analyzers', analyzer, 'enabled'];
    write(ctx.doc, to, true);
    ctx.record.moved.push({ source: 'config', from: [...SKILL, key].join('.'), to: to.join('.'), value: true });
  }
  dropWithNote(ctx, [...SKILL, 'llm_consensus_runs'], 'has no version 9 home; scan requests give llm_consensus_runs');
  mcpAnalyzers(ctx);
  for (const key of ['scan_prompts', 'scan_resources', 'scan_instructions']) {
    dropWithNote(ctx, [...MCP, key], 'has no version 9 home; `warden mcp scan` reads tools, prompts and resources');
  }
  judgeSource(ctx);
};

function inlineKey(ctx: MigrationContext, path: Path, fallbackEnv: string): void {
  const value = read(ctx.doc, [...path, 'api_key']);
  if (value === undefined) return;
  const named = read(ctx.doc, [...path, 'api_key_env']);
  const name = typeof named === 'string' && named !== '' ? named : fallbackEnv;
  const from = [...path, 'api_key'].join('.');
  remove(ctx.doc, [...path, 'api_key']);
  if (typeof value !== 'string' || value === '') return;
  const operation = envOperation(name, value, from);
  const existing = envOf(ctx.input)[name];
  if (existing !== undefined && existing !== value) {
    ctx.record.conflicts.push({
      to: `.env:${name}`, kept: '<redacted>', lost: '<redacted>',
      reason: `${from} differs from ${name} already in .env; the .env value is kept`,
    });
    return;
  }
  if (existing === undefined && !ctx.operations.some((op) => op.op === 'env' && op.name === name)) {
    ctx.operations.push(operation);
  }
  ctx.record.moved.push({ source: 'config', from, to: `.env:${name}`, value: '<redacted>' });
}

function skillPolicy(ctx: MigrationContext): void {
  const from = [...SKILL, 'policy'];
  const policy = read(ctx.doc, from);
  if (policy === undefined) return;
  if (policy === '' || policy === null) {
    write(ctx.doc, from, 'quiet');
    ctx.record.moved.push({ source: 'config', from: from.join('.'), to: from.join('.'), value: 'quiet' });
    return;
  }
  if (typeof policy !== 'string') throw invalid(`${from.join('.')} must be a preset name or a file path`);
  if ((SCAN_PRESETS as readonly string[]).includes(policy)) {
    if (policy === 'balanced') remove(ctx.doc, from); // the version 9 default (rule 1)
    return;
  }
  if (!/[/\\]|\.ya?ml$/.test(policy)) throw invalid(`${from.join('.')}: "${policy}" is neither a scan preset (${SCAN_PRESETS.join(', ')}) nor a file path`);
  const file = findFile(ctx.input, policy);
  if (!file) throw new MigrationError('WARDEN_ERR_MIGRATION_FILE_INVALID', `${from.join('.')} names ${policy}, which cannot be read`);
  const value = { path: policy, digest: `sha256:${createHash('sha256').update(file.bytes).digest('hex')}` };
  write(ctx.doc, from, 'custom');
  write(ctx.doc, [...SKILL, 'policy_file'], value);
  ctx.record.moved.push({ source: 'config', from: from.join('.'), to: [...SKILL, 'policy_file'].join('.'), value });
}

function mcpAnalyzers(ctx: MigrationContext): void {
  const path = [...MCP, 'analyzers'];
  const value = read(ctx.doc, path);
  if (value === undefined) return;
  const list = String(value ?? '').split(',').map((a) => a.trim()).filter((a) => a !== '');
  if (list.length === 0 || (list.length === 1 && list[0] === 'auto')) {
    remove(ctx.doc, path);
    return;
  }
  write(ctx.doc, path, list, true);
  ctx.record.moved.push({ source: 'config', from: path.join('.'), to: path.join('.'), value: list });
}

function judgeSource(ctx: MigrationContext): void {
  let override: string | undefined;
  for (const block of KEY_BLOCKS.filter((b) => b.judgeOverride)) {
    const value = read(ctx.doc, block.path);
    if (value === undefined) continue;
    const empty = value === null || (typeof value === 'object' && Object.keys(value).length === 0);
    if (!empty) override ??= block.path.join('.');
    remove(ctx.doc, block.path);
    ctx.record.removed.push(block.path.join('.'));
    if (!empty) {
      ctx.record.notes.push(`${block.path.join('.')}: its model settings have no version 9 home; judge_source is override, so the judge keeps its own model (set it through the judge's environment)`);
    }
  }
  if (override === undefined) return;
  write(ctx.doc, ['judge_source'], 'override');
  ctx.record.moved.push({ source: 'config', from: override, to: 'judge_source', value: 'override' });
}

function dropWithNote(ctx: MigrationContext, path: Path, why: string): void {
  if (read(ctx.doc, path) === undefined) return;
  remove(ctx.doc, path);
  ctx.record.removed.push(path.join('.'));
  ctx.record.notes.push(`${path.join('.')} ${why}`);
}

const invalid = (message: string) => new MigrationError('WARDEN_ERR_MIGRATION_SOURCE_INVALID', message);
