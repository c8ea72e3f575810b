// Facts from the arguments of non-shell tools (Read, Write, Edit, Glob, WebFetch, MCP tools …) and from
// the non-command arguments of shell tools. Agents name their tools differently, so names are matched
// case-insensitively against the spellings of Claude Code, Codex, Gemini CLI, Cursor, Cline and others;
// MCP tools (`mcp__server__read_file`) are classified by their last segment.
import { patchPaths } from './apply-patch.js';
import type { FactsCollector } from './collector.js';
import { findUrls } from './urls.js';

export type ToolKind = 'shell' | 'read' | 'write' | 'search' | 'glob' | 'web' | 'other';

function kinds(kind: ToolKind, names: string[]): [string, ToolKind][] {
  return names.map((n) => [n, kind]);
}

const TOOL_KINDS = new Map<string, ToolKind>([
  ...kinds('shell', [
    'bash', 'shell', 'run_shell_command', 'terminal', 'exec_command', 'execute_command', 'run_command',
    'local_shell', 'container.exec', 'command', 'run_terminal_cmd', 'execute_bash', 'shell_command', 'run_in_terminal',
  ]),
  ...kinds('read', ['read', 'read_file', 'view', 'cat', 'open_file', 'readfile', 'read_many_files', 'read_text_file', 'read_multiple_files']),
  ...kinds('write', [
    'write', 'write_file', 'create_file', 'edit', 'multiedit', 'str_replace', 'str_replace_editor',
    'str_replace_based_edit_tool', 'apply_patch', 'replace', 'search_replace', 'edit_file', 'notebookedit', 'notebook_edit',
  ]),
  ...kinds('search', ['grep', 'ls', 'list_directory', 'search', 'list_dir', 'file_search', 'search_files']),
  ...kinds('glob', ['glob', 'glob_file_search']),
  ...kinds('web', ['webfetch', 'web_fetch', 'fetch', 'web_search', 'websearch', 'browser', 'curl', 'browser_navigate']),
]);

export function toolKind(tool: string): ToolKind {
  const base = tool.startsWith('mcp__') ? tool.slice(tool.lastIndexOf('__') + 2) : tool;
  return TOOL_KINDS.get(base) ?? 'other';
}

const COMMAND_KEYS = ['command', 'cmd', 'script', 'commandLine', 'CommandLine'];
const PATH_KEYS = ['file_path', 'path', 'filePath', 'target_file', 'absolute_path', 'filename', 'notebook_path'];
const PATH_LIST_KEYS = ['paths', 'file_paths'];
const SEARCH_DIR_KEYS = ['path', 'dir_path', 'directory', 'target_directory'];
const GLOB_KEYS = ['pattern', 'glob_pattern'];
const URL_KEYS = ['url', 'uri', 'href'];
/** What a write tool writes: a URL in file content is not contacted, and content is not parsed at all. */
const CONTENT_KEYS = new Set([
  'content', 'new_string', 'old_string', 'new_str', 'old_str', 'file_text', 'edits', 'new_source', 'patch',
  'input', 'diff', 'insert_text',
]);
const GLOB_CHARACTER = /[*?[{]/;
const MAX_SCAN_DEPTH = 4;
const MAX_SCANNED_STRINGS = 200;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export type ShellCommand = { text: string } | { argv: string[] } | { invalid: true };

/** The command of a shell tool: a string, or an argv array as Codex sends it. */
export function shellCommand(args: unknown): ShellCommand | undefined {
  if (typeof args === 'string') return { text: args };
  if (!isRecord(args)) return undefined;
  const holders = isRecord(args.action) ? [args, args.action] : [args];
  for (const holder of holders) {
    for (const key of COMMAND_KEYS) {
      const value = holder[key];
      if (typeof value === 'string') return { text: value };
      if (Array.isArray(value)) return value.every((v) => typeof v === 'string') ? { argv: value as string[] } : { invalid: true };
    }
  }
  return undefined;
}

function stringsAt(args: Record<string, unknown>, keys: readonly string[]): string[] {
  const found: string[] = [];
  for (const key of keys) {
    const value = args[key];
    if (typeof value === 'string' && value !== '') found.push(value);
  }
  return found;
}

function pathsOf(args: Record<string, unknown>): string[] {
  const paths = stringsAt(args, PATH_KEYS);
  for (const key of PATH_LIST_KEYS) {
    const list = args[key];
    if (Array.isArray(list)) for (const p of list) if (typeof p === 'string' && p !== '') paths.push(p);
  }
  return paths;
}

/** The fixed directory part of a glob: `~/.ssh/*` → `~/.ssh`, `**` → nothing. */
function globDirectory(pattern: string): string {
  const wildcard = pattern.search(GLOB_CHARACTER);
  if (wildcard < 0) return pattern;
  const slash = pattern.lastIndexOf('/', wildcard);
  return slash < 0 ? '' : pattern.slice(0, Math.max(slash, 1));
}

function recordFileTool(kind: ToolKind, args: unknown, facts: FactsCollector): void {
  if (typeof args === 'string') {
    if (kind === 'write') patchPaths(args).forEach((p) => facts.addWrite(p));
    return;
  }
  if (!isRecord(args)) return;
  if (kind === 'search' || kind === 'glob') {
    stringsAt(args, SEARCH_DIR_KEYS).forEach((p) => facts.addRead(p));
    const globs = kind === 'glob' ? stringsAt(args, GLOB_KEYS).map(globDirectory) : [];
    for (const dir of globs) if (dir !== '') facts.addRead(dir);
    return;
  }
  const viewing = kind === 'write' && args.command === 'view';
  for (const p of pathsOf(args)) {
    if (kind === 'read' || viewing) facts.addRead(p);
    else facts.addWrite(p);
  }
  if (kind === 'write') {
    for (const text of stringsAt(args, ['input', 'patch'])) patchPaths(text).forEach((p) => facts.addWrite(p));
  }
}

function scanForUrls(value: unknown, skip: ReadonlySet<string>, facts: FactsCollector): void {
  let budget = MAX_SCANNED_STRINGS;
  const visit = (v: unknown, depth: number): void => {
    if (budget <= 0) return;
    if (typeof v === 'string') {
      budget--;
      if (v.includes('://')) findUrls(v, (url) => facts.addUrl(url));
    } else if (depth < MAX_SCAN_DEPTH && Array.isArray(v)) {
      for (const item of v) visit(item, depth + 1);
    } else if (depth < MAX_SCAN_DEPTH && isRecord(v)) {
      for (const [key, item] of Object.entries(v)) if (!skip.has(key)) visit(item, depth + 1);
    }
  };
  visit(value, 0);
}

const SHELL_SKIP = new Set(COMMAND_KEYS);
const NOTHING = new Set<string>();

/** Records the facts of a tool call's arguments other than a shell command. */
export function recordToolArgs(kind: ToolKind, args: unknown, facts: FactsCollector): void {
  if (kind === 'read' || kind === 'write' || kind === 'search' || kind === 'glob') recordFileTool(kind, args, facts);
  if (kind === 'web' && isRecord(args)) {
    for (const u of stringsAt(args, URL_KEYS)) {
      if (u.includes('://')) findUrls(u, (url) => facts.addUrl(url));
      else facts.addHost(u);
    }
  }
  if (kind === 'shell' && typeof args === 'string') return;
  if (kind === 'write' && typeof args === 'string') return;
  scanForUrls(args, kind === 'shell' ? SHELL_SKIP : kind === 'write' ? CONTENT_KEYS : NOTHING, facts);
}
