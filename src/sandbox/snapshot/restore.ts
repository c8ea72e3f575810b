// Puts a project folder back to an undo point: removes what the session added, recreates folders, lets git's
// checkout-index write the files and links that were deleted or changed (git replaces a link standing where a
// folder or file belongs instead of writing through it), then sets the exact mode bits from the modes file.
// Nothing is followed out of the project: every path is checked component by component with lstat before it
// is touched, and a path whose parent is a symbolic link is refused.
import { chmod, lstat, mkdir, rmdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { WorkspaceError } from './errors.js';
import { GIT_DIR_NAME } from './excludes.js';
import { git, nulList, type GitScope } from './git.js';
import { partOf, partRoot, PARTS, type Part, type Snapshot } from './store.js';
import { isGone, type Listing } from './walk.js';
import type { Comparison } from './compare.js';

export interface RestoreNotes {
  /** Added folders left in place because they hold excluded content (such as node_modules). */
  kept: string[];
  /** Why part of the undo point could not be restored. */
  notes: string[];
}

const STAT_BATCH = 256;

const depth = (path: string): number => path.split('/').length;
const deepestFirst = (a: string, b: string): number => depth(b) - depth(a);

/** Refuses `rel` when one of its existing parents under `root` is not a real folder. */
async function assertSafeParents(root: string, rel: string): Promise<void> {
  const parts = rel.split('/');
  let path = root;
  for (const part of parts.slice(0, -1)) {
    path = join(path, part);
    let stat;
    try {
      stat = await lstat(path);
    } catch (err) {
      if (isGone(err)) return;
      throw err;
    }
    if (!stat.isDirectory()) {
      throw new WorkspaceError('WARDEN_ERR_SANDBOX_UNSAFE_PATH', `refusing to restore ${rel}: ${path.slice(root.length + 1)} is not a folder (a symbolic link or a file)`);
    }
  }
}

export async function restore(scope: GitScope, root: string, snapshot: Snapshot, comparison: Comparison): Promise<RestoreNotes> {
  const result: RestoreNotes = { kept: [], notes: [] };
  const before = snapshot.listing;
  const now = comparison.current.listing;
  const gitGone = before.get(GIT_DIR_NAME)?.kind === 'dir' && now.get(GIT_DIR_NAME)?.kind !== 'dir';
  if (gitGone) result.notes.push("the project's .git folder is gone: its hooks, config and info are not restored (a repository's history is not part of an undo point)");
  const restorable = (path: string): boolean => !(gitGone && (path === GIT_DIR_NAME || path.startsWith(`${GIT_DIR_NAME}/`)));

  // Folders the session locked (no owner rwx) are opened up first; their recorded modes are set at the end.
  for (const [path, entry] of now) {
    if (entry.kind === 'dir' && (entry.mode & 0o700) !== 0o700) {
      await assertSafeParents(root, path);
      await chmod(join(root, path), entry.mode | 0o700);
    }
  }

  // 1. What the session added, or put where something of another kind was.
  const addedDirs: string[] = [];
  for (const [path, entry] of now) {
    if (before.get(path)?.kind === entry.kind) continue;
    if (entry.kind === 'dir') {
      addedDirs.push(path);
      continue;
    }
    await assertSafeParents(root, path);
    await unlink(join(root, path)).catch((err: unknown) => {
      if (!isGone(err)) throw err;
    });
  }
  for (const path of addedDirs.sort(deepestFirst)) {
    await assertSafeParents(root, path);
    try {
      await rmdir(join(root, path));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOTEMPTY' || code === 'EEXIST') result.kept.push(`${path}/`);
      else if (!isGone(err)) throw err;
    }
  }

  // 2. Folders of the undo point that are missing (empty ones included: git does not keep them).
  const dirs = [...before].filter(([path, e]) => e.kind === 'dir' && restorable(path)).map(([path]) => path);
  for (const path of dirs.sort((a, b) => depth(a) - depth(b))) {
    if (now.get(path)?.kind === 'dir') continue;
    await assertSafeParents(root, path);
    await mkdir(join(root, path), { mode: 0o700 }).catch((err: unknown) => {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    });
  }

  // 3. Files and links deleted or changed, written by git from the stored trees.
  const toWrite: Record<Part, string[]> = { files: [], git: [] };
  for (const change of comparison.files) {
    const recorded = before.get(change.path);
    if (!recorded || recorded.kind === 'dir' || !restorable(change.path)) continue;
    if (change.change === 'modified' && !change.oldBlob) continue; // exact mode bits only: step 4
    const where = partOf(change.path);
    if (!where) continue;
    await assertSafeParents(root, change.path);
    toWrite[where.part].push(where.inner);
  }
  for (const part of PARTS) {
    if (toWrite[part].length === 0) continue;
    const index = join(scope.gitDir, `warden-restore-${part}.index`);
    const partScope = { ...scope, workTree: partRoot(root, part), indexFile: index };
    try {
      await git(partScope, ['read-tree', snapshot.trees[part]]);
      await git(partScope, ['checkout-index', '--force', '-z', '--stdin'], { input: nulList(toWrite[part]) });
    } finally {
      await unlink(index).catch(() => {});
    }
  }

  // 4. Exact mode bits: files first, then folders from the deepest up (a read-only folder is set last).
  await setModes(root, before, restorable);
  return result;
}

async function setModes(root: string, listing: Listing, restorable: (path: string) => boolean): Promise<void> {
  const files: string[] = [];
  const dirs: string[] = [];
  for (const [path, entry] of listing) {
    if (!restorable(path)) continue;
    if (entry.kind === 'file') files.push(path);
    else if (entry.kind === 'dir') dirs.push(path);
  }
  const ordered = [...files, ...dirs.sort(deepestFirst)];
  // The lstat calls run a batch at a time (one at a time, 10,000 of them cost a second under load); the
  // chmods, few, run in order.
  const differs: boolean[] = [];
  for (let i = 0; i < ordered.length; i += STAT_BATCH) {
    const batch = ordered.slice(i, i + STAT_BATCH);
    const stats = await Promise.all(
      batch.map((path) =>
        lstat(join(root, path)).catch((err: unknown) => {
          if (isGone(err)) return undefined;
          throw err;
        }),
      ),
    );
    // A link now standing at the path is not chmodded through (chmod follows links).
    stats.forEach((stat, j) => differs.push(stat !== undefined && !stat.isSymbolicLink() && (stat.mode & 0o7777) !== listing.get(batch[j]!)!.mode));
  }
  for (const [i, path] of ordered.entries()) {
    if (!differs[i]) continue;
    await assertSafeParents(root, path);
    await chmod(join(root, path), listing.get(path)!.mode);
  }
}
