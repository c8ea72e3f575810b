// The listing of a project folder an undo point records: every regular file, symbolic link and folder with its
// exact mode bits (git itself keeps only 644/755 and links, so the modes live beside the tree in the snapshot),
// minus the excluded folders and any `.git` entry, plus the kept part of the top-level `.git` folder under
// `.git/`. Symbolic links are recorded as links and never followed; sockets, FIFOs and devices are not files a
// session edits and are left out.
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { WorkspaceError } from './errors.js';
import { EXCLUDED_DIRS, GIT_DIR_NAME, GIT_METADATA_ENTRIES } from './excludes.js';
import { SNAPSHOT_LIMITS } from './limits.js';

export type EntryKind = 'file' | 'link' | 'dir';

export interface Entry {
  kind: EntryKind;
  /** Permission bits, set-id and sticky bits (`st_mode & 0o7777`). */
  mode: number;
}

/** Project-relative POSIX path (`.git/hooks/pre-commit` for the kept git metadata) → entry. */
export type Listing = Map<string, Entry>;

/** The prefix of git metadata paths in a listing. */
export const GIT_PREFIX = `${GIT_DIR_NAME}/`;

const kindOf = (mode: number): EntryKind | undefined => {
  const type = mode & 0o170000;
  if (type === 0o100000) return 'file';
  if (type === 0o120000) return 'link';
  if (type === 0o040000) return 'dir';
  return undefined;
};

class Walker {
  readonly listing: Listing = new Map();

  constructor(private readonly root: string) {}

  add(path: string, entry: Entry): void {
    if (this.listing.size >= SNAPSHOT_LIMITS.maxEntries) {
      throw new WorkspaceError(
        'WARDEN_ERR_SANDBOX_SNAPSHOT_TOO_LARGE',
        `the project holds more than ${SNAPSHOT_LIMITS.maxEntries} entries outside the excluded folders: no undo point can be taken (use copy mode or no_snapshot)`,
      );
    }
    this.listing.set(path, entry);
  }

  /** Lists folder `rel` (relative to the root, '' for the root) and everything under it. */
  async dir(rel: string, topLevelGit: boolean): Promise<void> {
    let names: string[];
    try {
      names = await readdir(join(this.root, rel));
    } catch (err) {
      // A folder removed or made unreadable while listing: what is gone is gone.
      if (isGone(err)) return;
      throw err;
    }
    const stats = await Promise.all(names.map((name) => lstatOrUndefined(join(this.root, rel, name))));
    const subdirs: string[] = [];
    for (const [i, name] of names.entries()) {
      const stat = stats[i];
      if (!stat) continue;
      const kind = kindOf(stat.mode);
      if (!kind) continue;
      const path = rel === '' ? name : `${rel}/${name}`;
      if (name === GIT_DIR_NAME) {
        if (topLevelGit && rel === '' && kind === 'dir') await this.gitMetadata(stat.mode & 0o7777);
        continue;
      }
      if (kind === 'dir' && EXCLUDED_DIRS.has(name)) continue;
      this.add(path, { kind, mode: stat.mode & 0o7777 });
      if (kind === 'dir') subdirs.push(path);
    }
    for (const sub of subdirs) await this.dir(sub, false);
  }

  private async gitMetadata(mode: number): Promise<void> {
    this.add(GIT_DIR_NAME, { kind: 'dir', mode });
    for (const name of GIT_METADATA_ENTRIES) {
      const path = `${GIT_PREFIX}${name}`;
      const stat = await lstatOrUndefined(join(this.root, path));
      const kind = stat && kindOf(stat.mode);
      if (!stat || !kind) continue;
      this.add(path, { kind, mode: stat.mode & 0o7777 });
      if (kind === 'dir') await this.dir(path, false);
    }
  }
}

/** Lists `root` (an absolute, real path) as an undo point records it. */
export async function listProject(root: string): Promise<Listing> {
  const walker = new Walker(root);
  await walker.dir('', true);
  return walker.listing;
}

export function isGone(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

async function lstatOrUndefined(path: string) {
  try {
    return await lstat(path);
  } catch (err) {
    if (isGone(err)) return undefined;
    throw err;
  }
}
