// What differs between an undo point and the folder as it is now: git compares the content of files and links
// (diff-tree of the stored trees), the modes file the exact mode bits and the folders git does not keep.
import type { FileChange } from '../ports.js';
import { git, type GitScope } from './git.js';
import { partPrefix, PARTS, type Snapshot, type Trees } from './store.js';
import type { Listing } from './walk.js';

/** One file or link that differs, with the git object ids on each side (undefined where absent). */
export interface ContentChange extends FileChange {
  oldBlob?: string;
  newBlob?: string;
}

export interface Comparison {
  /** Files and links, sorted by path. */
  files: ContentChange[];
  /** Folders added, deleted or chmodded (paths end in `/`). */
  dirs: FileChange[];
  /** The current state, for a restore. */
  current: { listing: Listing; trees: Trees };
}

const ZERO = /^0+$/;

/** Parses `git diff-tree -r -z --no-renames` raw output. */
function parseRaw(raw: Buffer, prefix: string): ContentChange[] {
  const fields = raw.toString('utf8').split('\0');
  const changes: ContentChange[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const [oldMode, newMode, oldBlob, newBlob, status] = fields[i]!.slice(1).split(' ');
    const path = prefix + fields[i + 1]!;
    const change: ContentChange = { path, change: status === 'A' ? 'added' : status === 'D' ? 'deleted' : 'modified' };
    if (oldBlob && !ZERO.test(oldBlob)) change.oldBlob = oldBlob;
    if (newBlob && !ZERO.test(newBlob)) change.newBlob = newBlob;
    if (status !== 'A' && status !== 'D' && oldMode !== newMode) change.mode_changed = true;
    changes.push(change);
  }
  return changes;
}

export async function compare(scope: GitScope, snapshot: Snapshot, current: { listing: Listing; trees: Trees }): Promise<Comparison> {
  const byPath = new Map<string, ContentChange>();
  for (const part of PARTS) {
    if (snapshot.trees[part] === current.trees[part]) continue;
    const raw = await git(scope, ['diff-tree', '-r', '-z', '--no-renames', snapshot.trees[part], current.trees[part]]);
    for (const change of parseRaw(raw.stdout, partPrefix(part))) byPath.set(change.path, change);
  }
  // Mode bits git does not keep (600, 700, set-id, …) on files whose content and git mode are the same.
  const dirs: FileChange[] = [];
  for (const [path, before] of snapshot.listing) {
    const now = current.listing.get(path);
    if (before.kind === 'dir') {
      if (now?.kind !== 'dir') dirs.push({ path: `${path}/`, change: 'deleted' });
      else if (now.mode !== before.mode) dirs.push({ path: `${path}/`, change: 'modified', mode_changed: true });
      continue;
    }
    if (before.kind !== 'file' || now?.kind !== 'file' || now.mode === before.mode) continue;
    const known = byPath.get(path);
    if (known) known.mode_changed = true;
    else byPath.set(path, { path, change: 'modified', mode_changed: true });
  }
  for (const [path, now] of current.listing) {
    if (now.kind === 'dir' && snapshot.listing.get(path)?.kind !== 'dir') dirs.push({ path: `${path}/`, change: 'added' });
  }
  const files = [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  dirs.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, dirs, current };
}
