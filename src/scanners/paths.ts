// Where a scan may read. A path a request names must be absolute and lie within a list of roots; it is
// resolved (symlinks included) before the check, so a link cannot lead outside, and refused when it is on a
// kernel pseudo file system or is not the kind of entry asked for (special-files.ts says why). Each server
// decides its roots: SKILL_SCANNER_ALLOWED_ROOTS when set, else a default (docs/skill-scanner.md).
import { realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { envVar, type EnvSource } from '../config/env.js';
import { describeKind, specialFileSystem, specialPlace } from './special-files.js';
import { WardenError } from '../errors.js';

/** A path a scan request names is not allowed (403), missing (404) or malformed (400). */
export class PathRejected extends WardenError {
  declare readonly statusCode: 400 | 403 | 404;
  constructor(message: string, statusCode: 400 | 403 | 404) {
    super('WARDEN_ERR_SCAN_PATH_REJECTED', message, { statusCode });
  }
}

/**
 * Where agents keep the user's own skills, as their documentation gives it (`~`: the home folder). Scanning
 * them is what a skill scanner is for, so both servers allow them by default.
 */
export const AGENT_SKILL_FOLDERS = [
  '~/.claude/skills', // Claude Code
  '~/.codex/skills', // Codex (its first location)
  '~/.agents/skills', // the shared location: Codex, Gemini CLI, GitHub Copilot, Cursor, OpenCode
  '~/.cursor/skills', // Cursor
  '~/.gemini/skills', // Gemini CLI
  '~/.copilot/skills', // GitHub Copilot
  '~/.config/opencode/skills', // OpenCode
  '~/.config/opencode/skill', // OpenCode's earlier, singular name
] as const;

export const expandHome = (path: string, home: string) => (path === '~' || path.startsWith('~/') ? join(home, path.slice(1)) : path);

/** The home folder of the environment a server was given (tests give their own). */
export const homeOf = (env: EnvSource) => envVar(env, 'HOME') ?? homedir();

/** The folders of SKILL_SCANNER_ALLOWED_ROOTS (`:`-separated), or undefined when it is unset or blank. */
export function envRoots(env: EnvSource): string[] | undefined {
  const raw = envVar(env, 'SKILL_SCANNER_ALLOWED_ROOTS');
  return raw ? raw.split(':').filter(Boolean) : undefined;
}

/** Roots for confinePath: `~` expanded, each folder as written and as its real path, without repeats. */
export function rootsOf(folders: readonly string[], home: string): string[] {
  return [...new Set(folders.flatMap((folder) => rootForms(expandHome(folder, home))))];
}

/** SKILL_SCANNER_ALLOWED_ROOTS as roots, or undefined when it is unset. */
export function allowedRoots(env: Record<string, string | undefined>): string[] | undefined {
  const folders = envRoots(env);
  return folders && rootsOf(folders, homeOf(env));
}

/**
 * A root as written and as its real path, so a path can be checked before and after resolving links. A root
 * that does not exist yet (an agent not installed) gets the real path of its nearest existing parent, so it
 * still matches once created, even under a linked home folder.
 */
export function rootForms(root: string): string[] {
  const written = resolve(root);
  let existing = written;
  let rest = '';
  for (;;) {
    try {
      return [written, join(realpathSync(existing), rest)];
    } catch {
      if (dirname(existing) === existing) return [written];
      rest = join(basename(existing), rest);
      existing = dirname(existing);
    }
  }
}

const isWithin = (path: string, root: string) => {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
};

const notOrdinary = (path: string, fileSystem: string) =>
  new PathRejected(`${path} is on a special file system (${fileSystem}): only ordinary files and folders can be scanned`, 400);

/**
 * The real path of `path`, when it exists, lies within the roots (unless `roots` is undefined: the operator's
 * own command line), is on an ordinary file system and, with `expect`, is a folder or a regular file.
 */
export function confinePath(path: string, roots: string[] | undefined, expect?: 'directory' | 'file'): string {
  if (path.includes('\0')) throw new PathRejected('path contains a NUL byte', 400);
  if (path.trim() === '') throw new PathRejected('path is empty', 400);
  // Resolving a request's relative path against the server's working directory would read a folder the
  // caller neither sees nor chose.
  if (roots !== undefined && !isAbsolute(path)) throw new PathRejected(`path must be absolute: ${path}`, 400);
  const outside = (candidate: string) => roots !== undefined && !roots.some((root) => isWithin(candidate, root));
  // Refuse before touching the disk, so a caller cannot probe what exists outside the roots.
  const written = resolve(path);
  if (outside(written)) throw new PathRejected(`path is outside the allowed roots: ${path}`, 403);
  const place = specialPlace(written);
  if (place) throw notOrdinary(path, place);
  let real: string;
  try {
    real = realpathSync(written);
  } catch {
    throw new PathRejected(`path not found: ${path}`, 404);
  }
  if (outside(real)) throw new PathRejected(`path is outside the allowed roots: ${path}`, 403);
  const fileSystem = specialFileSystem(real);
  if (fileSystem) throw notOrdinary(path, fileSystem);
  if (expect) {
    // stat, never open: opening a FIFO would block until a writer comes.
    const stats = statSync(real, { throwIfNoEntry: false });
    if (!stats) throw new PathRejected(`path not found: ${path}`, 404);
    if (expect === 'directory' ? !stats.isDirectory() : !stats.isFile()) {
      throw new PathRejected(`${path} is ${describeKind(stats)}, not ${expect === 'directory' ? 'a folder' : 'a regular file'}: only ordinary files and folders can be scanned`, 400);
    }
  }
  return real;
}
