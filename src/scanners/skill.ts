// Reading a skill folder from disk: SKILL.md's front matter and body, and every file beneath it (bounded).
// Symlinks are never followed, so a scan cannot be walked outside the folder it was given. Anything that is
// not a regular file or a folder (FIFO, socket, device), a folder holding a kernel pseudo file system and
// anything unreadable is never opened: it is listed in `skipped`, which the static analyzer reports as a
// finding, so what was not read is visible rather than silently missing.
import { createHash } from 'node:crypto';
import { readdirSync, realpathSync, statSync, type Dirent } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { parse } from 'yaml';
import { describeKind, pseudoFileSystem, readRegularFile, specialFileSystem } from './special-files.js';
import type { SkillFile, SkillManifest, SkillPackage } from './types.js';
import { SCANNER_LIMITS } from './limits.js';
import { WardenError } from '../errors.js';


/**
 * The skill cannot be scanned: the folder is missing, not a folder, on a special file system or unreadable, or
 * SKILL.md is missing or malformed (not lenient).
 */
export class SkillLoadError extends WardenError {
  constructor(message: string, readonly kind: 'not_found' | 'not_a_directory' | 'not_ordinary' | 'unreadable' | 'no_manifest' | 'malformed_manifest') {
    super('WARDEN_ERR_SCAN_SKILL_UNREADABLE', message);
  }
}

const FRONT_MATTER = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/**
 * `allowed-tools` as a list: YAML list items as they are; a string split on commas, or on spaces when it has
 * none, but never inside parentheses (`Bash(git status:*)` is one entry).
 */
function splitList(value: unknown): string[] | undefined {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string').map((v) => v.trim()).filter(Boolean);
  if (typeof value !== 'string') return undefined;
  const separator = value.includes(',') ? ',' : ' ';
  const items: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of value) {
    if (char === '(') depth++;
    else if (char === ')') depth = Math.max(0, depth - 1);
    if (depth === 0 && (char === separator || (separator === ' ' && /\s/.test(char)))) {
      items.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  items.push(current);
  return items.map((v) => v.trim()).filter(Boolean);
}

/** SKILL.md's front matter and body; throws a message saying what is wrong with the front matter. */
function parseSkillMarkdown(text: string): { manifest: SkillManifest; body: string } {
  const match = FRONT_MATTER.exec(text);
  if (!match) throw new Error('SKILL.md has no YAML front matter (a block between --- lines at the top)');
  let raw: unknown;
  try {
    raw = parse(match[1]!);
  } catch (err) {
    throw new Error(`SKILL.md front matter is not valid YAML: ${(err as Error).message.split('\n')[0]}`);
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new Error('SKILL.md front matter must be a YAML mapping');
  const fields = raw as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const manifest: SkillManifest = {
    name: str(fields.name),
    description: str(fields.description),
    license: str(fields.license),
    allowedTools: splitList(fields['allowed-tools'] ?? fields.allowed_tools),
    metadata: fields.metadata && typeof fields.metadata === 'object' ? (fields.metadata as Record<string, unknown>) : undefined,
    raw: fields,
  };
  return { manifest, body: text.slice(match[0].length) };
}

function isText(bytes: Buffer): boolean {
  const probe = bytes.subarray(0, 8192);
  if (probe.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** `source`: read a source tree, not a skill (no SKILL.md is looked for; see SkillPackage.source). */
export function loadSkill(directory: string, options: { lenient?: boolean; source?: boolean } = {}): SkillPackage {
  let root: string;
  try {
    root = realpathSync(directory);
  } catch {
    throw new SkillLoadError(`skill directory not found: ${directory}`, 'not_found');
  }
  const special = specialFileSystem(root);
  if (special) throw new SkillLoadError(`${directory} is on a special file system (${special}): only ordinary files and folders can be scanned`, 'not_ordinary');
  const stats = statSync(root);
  if (!stats.isDirectory()) throw new SkillLoadError(`not a directory: ${directory} is ${describeKind(stats)}`, 'not_a_directory');

  const files: SkillFile[] = [];
  const skipped: SkillPackage['skipped'] = [];
  const list = (dir: string): Dirent[] | undefined => {
    try {
      return readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
    } catch (err) {
      if (dir === root) throw new SkillLoadError(`cannot read ${directory} (${(err as NodeJS.ErrnoException).code ?? 'error'})`, 'unreadable');
      skipped.push({ path: relative(root, dir).split(sep).join('/'), reason: 'folder cannot be read' });
      return undefined;
    }
  };
  const walk = (dir: string, depth: number): void => {
    for (const entry of list(dir) ?? []) {
      const full = join(dir, entry.name);
      const path = relative(root, full).split(sep).join('/');
      if (entry.isSymbolicLink()) skipped.push({ path, reason: 'symlink (not followed)' });
      else if (entry.isDirectory()) {
        // A pseudo file system mounted inside the folder (a bind mount of /proc, say) is not walked into.
        const mounted = pseudoFileSystem(full);
        if (mounted) skipped.push({ path, reason: `special file system (${mounted})` });
        else if (depth >= SCANNER_LIMITS.maxDepth) skipped.push({ path, reason: 'nested too deep' });
        else walk(full, depth + 1);
      } else if (!entry.isFile()) skipped.push({ path, reason: 'not a regular file' });
      else if (files.length >= SCANNER_LIMITS.maxFiles) skipped.push({ path, reason: 'file limit reached' });
      else {
        const file = readSkillFile(full, path);
        if (typeof file === 'string') skipped.push({ path, reason: file });
        else files.push(file);
      }
    }
  };
  walk(root, 0);
  if (options.source) return { root, manifest: undefined, instructions: '', files, skipped, source: true };

  const manifestFile = files.find((f) => f.path === 'SKILL.md') ?? files.find((f) => f.path.toLowerCase() === 'skill.md');
  if (!manifestFile) {
    if (!options.lenient) throw new SkillLoadError(`no SKILL.md in ${directory}`, 'no_manifest');
    return { root, manifest: undefined, manifestError: 'SKILL.md is missing', instructions: '', files, skipped };
  }
  try {
    const { manifest, body } = parseSkillMarkdown(manifestFile.text ?? '');
    return { root, manifest, instructions: body, files, skipped };
  } catch (err) {
    const message = (err as Error).message;
    if (!options.lenient) throw new SkillLoadError(message, 'malformed_manifest');
    return { root, manifest: undefined, manifestError: message, instructions: manifestFile.text ?? '', files, skipped };
  }
}

/** The file, or why it was not read. */
function readSkillFile(full: string, path: string): SkillFile | string {
  // Skills are small and uploads are size-capped, so a file is read whole: its hash covers every byte.
  let bytes: Buffer | undefined;
  try {
    // Listed as a regular file, but it may have been swapped for a FIFO or a link since: checked again on open.
    bytes = readRegularFile(full);
  } catch (err) {
    return `cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`;
  }
  if (!bytes) return 'not a regular file';
  const file: SkillFile = {
    path, size: bytes.length, head: new Uint8Array(bytes.subarray(0, 64)), sha256: createHash('sha256').update(bytes).digest('hex'),
  };
  if (bytes.length <= SCANNER_LIMITS.maxTextBytes && isText(bytes)) file.text = bytes.toString('utf8');
  return file;
}
