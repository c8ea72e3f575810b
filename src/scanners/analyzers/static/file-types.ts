// What kind of file a skill file is, for choosing which signature rules apply to it: by extension, then by
// shebang for extension-less scripts. SKILL.md is markdown like any other `.md`.

export const FILE_TYPES = [
  'markdown', 'python', 'javascript', 'typescript', 'shell', 'powershell', 'yaml', 'json', 'toml', 'text', 'other',
] as const;
export type FileType = (typeof FILE_TYPES)[number];

/** What a rule's `file_types` may name: a file type, `code` (every programming language) or `any`. */
export const RULE_FILE_TYPES = [...FILE_TYPES, 'code', 'any'] as const;
export type RuleFileType = (typeof RULE_FILE_TYPES)[number];

export const CODE_TYPES: ReadonlySet<FileType> = new Set<FileType>(['python', 'javascript', 'typescript', 'shell', 'powershell']);

const BY_EXTENSION: ReadonlyMap<string, FileType> = new Map<string, FileType>([
  ['md', 'markdown'], ['markdown', 'markdown'], ['mdx', 'markdown'],
  ['py', 'python'], ['pyw', 'python'], ['pyi', 'python'],
  ['js', 'javascript'], ['mjs', 'javascript'], ['cjs', 'javascript'], ['jsx', 'javascript'],
  ['ts', 'typescript'], ['mts', 'typescript'], ['cts', 'typescript'], ['tsx', 'typescript'],
  ['sh', 'shell'], ['bash', 'shell'], ['zsh', 'shell'], ['ksh', 'shell'], ['dash', 'shell'], ['command', 'shell'],
  ['ps1', 'powershell'], ['psm1', 'powershell'], ['psd1', 'powershell'],
  ['yaml', 'yaml'], ['yml', 'yaml'],
  ['json', 'json'], ['jsonc', 'json'], ['json5', 'json'],
  ['toml', 'toml'],
  ['txt', 'text'], ['rst', 'text'], ['text', 'text'],
]);

/** Extension-less files whose lines are shell commands. */
const SHELL_FILE_NAMES: ReadonlySet<string> = new Set(['Dockerfile', 'Containerfile', 'Makefile', 'makefile', 'GNUmakefile']);

export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** Lower-case extension without the dot (`tar.gz` → `gz`); empty when there is none or the name is a dotfile. */
export function extensionOf(path: string): string {
  const name = baseName(path);
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}

function typeFromShebang(text: string): FileType | undefined {
  if (!text.startsWith('#!')) return undefined;
  const end = text.indexOf('\n');
  const line = text.slice(2, end < 0 ? Math.min(text.length, 200) : Math.min(end, 200));
  if (line.includes('python')) return 'python';
  if (line.includes('node') || line.includes('deno') || line.includes('bun')) return 'javascript';
  if (line.includes('pwsh') || line.includes('powershell')) return 'powershell';
  if (line.includes('sh')) return 'shell';
  return undefined;
}

export function fileTypeOf(path: string, text: string | undefined): FileType {
  const byExtension = BY_EXTENSION.get(extensionOf(path));
  if (byExtension) return byExtension;
  if (SHELL_FILE_NAMES.has(baseName(path))) return 'shell';
  return (text !== undefined ? typeFromShebang(text) : undefined) ?? 'other';
}

/** The concrete file types a rule's `file_types` list covers. */
export function expandFileTypes(list: readonly RuleFileType[]): Set<FileType> {
  const types = new Set<FileType>();
  for (const entry of list) {
    if (entry === 'any') FILE_TYPES.forEach((t) => types.add(t));
    else if (entry === 'code') CODE_TYPES.forEach((t) => types.add(t));
    else types.add(entry);
  }
  return types;
}
