// Whether a project folder can be mounted live into a sandbox (spec "Errors", needs_copy): a linked worktree,
// a `.git` symbolic link or a git directory outside the folder would let the sandbox write to, or depend on, a
// repository outside what it mounts. Also lists the git repositories nested inside it (a bounded walk that skips
// the excluded folders), which an undo restores as plain files (their own `.git` folders are not recorded).
import { lstat, readdir, readFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { ProjectCheck } from '../ports.js';
import { EXCLUDED_DIRS, GIT_DIR_NAME } from './excludes.js';
import { SNAPSHOT_LIMITS } from './limits.js';
import { isGone } from './walk.js';

const inside = (root: string, path: string): boolean => {
  const rel = relative(root, path);
  return rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
};

/** Why `root` (a real, absolute folder path) cannot be mounted live, or undefined. */
async function needsCopy(root: string): Promise<string | undefined> {
  const dotGit = join(root, GIT_DIR_NAME);
  let stat;
  try {
    stat = await lstat(dotGit);
  } catch (err) {
    if (isGone(err)) return undefined;
    throw err;
  }
  if (stat.isSymbolicLink()) return '.git is a symbolic link: the repository it points to is outside the folder';
  if (!stat.isFile()) return undefined;
  const text = (await readFile(dotGit, 'utf8')).slice(0, 4096);
  const match = /^gitdir: *(.+?) *$/m.exec(text);
  if (!match) return '.git is a file that names no git directory';
  const gitdir = resolve(root, match[1]!);
  if (basename(dirname(gitdir)) === 'worktrees') return `the folder is a linked worktree: its git directory is ${gitdir}`;
  if (!inside(root, gitdir)) return `the folder's git directory is outside it: ${gitdir}`;
  return undefined;
}

/** Folders under `root` holding a `.git` entry, relative, sorted; the walk stops at the scan limit. */
async function nestedRepos(root: string): Promise<string[]> {
  const found: string[] = [];
  let seen = 0;
  const queue: string[] = [''];
  while (queue.length > 0 && seen < SNAPSHOT_LIMITS.maxNestedScanEntries) {
    const rel = queue.shift()!;
    let entries;
    try {
      entries = await readdir(join(root, rel), { withFileTypes: true });
    } catch (err) {
      if (isGone(err) || (err as NodeJS.ErrnoException).code === 'EACCES') continue;
      throw err;
    }
    for (const entry of entries) {
      if (++seen > SNAPSHOT_LIMITS.maxNestedScanEntries) break;
      if (entry.name === GIT_DIR_NAME) {
        if (rel !== '') found.push(rel);
        continue;
      }
      // Dirent types come from the folder listing: a symbolic link is never a directory here, so never followed.
      if (entry.isDirectory() && !EXCLUDED_DIRS.has(entry.name)) queue.push(rel === '' ? entry.name : `${rel}/${entry.name}`);
    }
  }
  return found.sort();
}

export async function checkProjectFolder(root: string): Promise<ProjectCheck> {
  const reason = await needsCopy(root);
  const check: ProjectCheck = { nested_repos: await nestedRepos(root) };
  if (reason !== undefined) check.needs_copy = reason;
  return check;
}
