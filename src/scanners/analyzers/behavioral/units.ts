// Which parts of a skill are code, and in which language: scripts by extension or shebang, and fenced code
// blocks of Markdown files. A Markdown file yields one source per language in which everything outside that
// language's blocks is blanked to spaces (newlines kept), so offsets in the parse are offsets in the
// Markdown file and findings get the Markdown line numbers directly; the blocks of one language also share
// variables, as they do when an agent runs them one after another.
import type { SkillFile, SkillPackage } from '../../types.js';
import type { Lang } from './syntax.js';

export const UNIT_LIMITS = {
  /** Larger files are not parsed (minified bundles, data dumps). */
  maxFileBytes: 512 * 1024,
  /** Per skill: code parsed in all, and code units; the rest (in path order) is not analysed. */
  maxTotalChars: 4 * 1024 * 1024,
  maxUnits: 400,
} as const;

export interface CodeUnit {
  file: string;
  lang: Lang;
  /** What is parsed; for Markdown, the file's text with everything but one language's blocks blanked. */
  source: string;
  /** A real module file that others can import (not a Markdown block set). */
  importable: boolean;
}

const EXTENSIONS: Record<string, Lang> = {
  py: 'python', pyw: 'python', js: 'javascript', mjs: 'javascript', cjs: 'javascript', jsx: 'javascript',
  ts: 'typescript', mts: 'typescript', cts: 'typescript', tsx: 'tsx', sh: 'bash', bash: 'bash', zsh: 'bash',
};

const FENCE_LANGS: Record<string, Lang> = {
  python: 'python', py: 'python', python3: 'python', js: 'javascript', javascript: 'javascript', node: 'javascript', mjs: 'javascript',
  cjs: 'javascript', jsx: 'javascript', ts: 'typescript', typescript: 'typescript', tsx: 'tsx', bash: 'bash', sh: 'bash',
  shell: 'bash', zsh: 'bash', console: 'bash', 'shell-session': 'bash', shellsession: 'bash', terminal: 'bash',
};

function shebangLang(text: string): Lang | undefined {
  if (!text.startsWith('#!')) return undefined;
  const line = text.slice(0, text.indexOf('\n') >>> 0);
  if (/\b(?:ba|z|da|k|a)?sh\b/.test(line)) return 'bash';
  if (/\bpython[0-9.]*\b/.test(line)) return 'python';
  if (/\b(?:node|deno|bun)\b/.test(line)) return 'javascript';
  return undefined;
}

export function codeUnits(skill: SkillPackage): CodeUnit[] {
  const units: CodeUnit[] = [];
  let chars = 0;
  for (const file of skill.files) {
    if (file.text === undefined || file.size > UNIT_LIMITS.maxFileBytes) continue;
    if (units.length >= UNIT_LIMITS.maxUnits || chars + file.text.length > UNIT_LIMITS.maxTotalChars) break;
    chars += file.text.length;
    const ext = /\.([A-Za-z0-9]+)$/.exec(file.path)?.[1]?.toLowerCase();
    if (ext === 'md' || ext === 'markdown' || ext === 'mdx') {
      units.push(...markdownUnits(file));
      continue;
    }
    const lang = (ext ? EXTENSIONS[ext] : undefined) ?? shebangLang(file.text);
    if (lang) units.push({ file: file.path, lang, source: file.text, importable: true });
  }
  return units;
}

interface Block {
  lang: Lang;
  /** Line indexes (0-based) of the block's content. */
  first: number;
  last: number;
  /** console / shell-session: only `$ ` prompt lines are commands. */
  prompts: boolean;
}

function markdownUnits(file: SkillFile): CodeUnit[] {
  const text = file.text!;
  if (!text.includes('```') && !text.includes('~~~')) return [];
  const lines = text.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^ {0,3}(`{3,}|~{3,})\s*([\w+#.-]*)/.exec(lines[i]!);
    if (!open) continue;
    const fence = open[1]!;
    const info = open[2]!.toLowerCase();
    let end = i + 1;
    while (end < lines.length && !new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`).test(lines[end]!)) end++;
    const lang = FENCE_LANGS[info];
    if (lang && end > i + 1) {
      const content = lines.slice(i + 1, end);
      const prompts = lang === 'bash' && (/^(?:console|shell-session|shellsession|terminal)$/.test(info) || content.some((l) => /^\s*\$ /.test(l)));
      blocks.push({ lang, first: i + 1, last: end - 1, prompts });
    }
    i = end;
  }
  const langs = [...new Set(blocks.map((b) => b.lang))];
  return langs.map((lang) => ({ file: file.path, lang, source: blank(lines, blocks.filter((b) => b.lang === lang)), importable: false }));
}

/** The Markdown text with every line outside `blocks` turned into spaces (same length, same line breaks). */
function blank(lines: readonly string[], blocks: readonly Block[]): string {
  const keep = new Map<number, boolean>();
  for (const b of blocks) for (let l = b.first; l <= b.last; l++) keep.set(l, b.prompts);
  return lines.map((line, i) => {
    const prompts = keep.get(i);
    if (prompts === undefined) return ' '.repeat(line.length);
    if (!prompts) return line;
    // A console transcript: keep `$ command` lines (prompt blanked), drop the output lines.
    const prompt = /^(\s*\$ )/.exec(line);
    return prompt ? ' '.repeat(prompt[1]!.length) + line.slice(prompt[1]!.length) : ' '.repeat(line.length);
  }).join('\n');
}
