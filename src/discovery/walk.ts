// The bounded walk of the discovery roots for project files: no symbolic link is followed (a link is never a way
// out of a root), folders that hold dependencies or build output rather than projects are not entered, and a
// mount point of a special or network file system (read from /proc/self/mountinfo) is skipped, as are /proc,
// /sys and /dev wherever they are. The walk stops at the entry budget or the deadline and says which.
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { specialFileSystem } from '../scanners/special-files.js';
import { DISCOVERY_LIMITS } from './limits.js';

/** File system types a scan never enters: kernel pseudo file systems and network or remote mounts. */
const SKIPPED_FS_TYPES = new Set([
  'proc', 'sysfs', 'devtmpfs', 'devpts', 'cgroup', 'cgroup2', 'debugfs', 'tracefs', 'securityfs', 'bpf', 'pstore',
  'configfs', 'efivarfs', 'mqueue', 'binfmt_misc', 'fusectl', 'autofs', 'hugetlbfs', 'nsfs',
  'nfs', 'nfs4', 'cifs', 'smb3', 'smbfs', 'ncpfs', 'afs', 'ceph', 'glusterfs', 'lustre', '9p', 'davfs', 'fuse.sshfs',
  'fuse.rclone', 'fuse.s3fs', 'fuse.gcsfuse', 'fuse.davfs2',
]);

/** Folders that hold installed dependencies, caches or build output: their manifests are not the user's projects. */
const NOT_PROJECTS = new Set(['node_modules', '.git', '.hg', '.svn', '.venv', 'venv', '__pycache__', '.cache', '.npm', '.cargo', '.rustup', 'target', '.tox', '.mypy_cache', 'site-packages', '.gradle', '.m2', '.local', '.vscode-server', 'snap', 'Library', '.Trash']);

/** The Go module cache (`$GOPATH/pkg/mod`) holds every downloaded module's go.mod. */
const isGoModuleCache = (path: string) => path.endsWith(`${sep}pkg${sep}mod`);

/** File names the walk collects. */
export const PROJECT_FILES = ['package.json', 'pyproject.toml', 'go.mod', 'Cargo.toml', '.mcp.json'] as const;
const isProjectFile = (name: string) => (PROJECT_FILES as readonly string[]).includes(name) || /^requirements[\w.-]*\.txt$/.test(name);

/** Mount points of the file systems a walk must not enter, from /proc/self/mountinfo (unescaped). */
export function skippedMountPoints(mountinfo = '/proc/self/mountinfo'): Set<string> {
  let text: string;
  try {
    text = readFileSync(mountinfo, 'utf8');
  } catch {
    return new Set();
  }
  const points = new Set<string>();
  for (const line of text.split('\n')) {
    // id parent major:minor root mount-point options [optional fields…] - fstype source super-options
    const fields = line.split(' ');
    const dash = fields.indexOf('-');
    if (dash < 0 || fields.length < dash + 2) continue;
    const type = fields[dash + 1]!;
    if (SKIPPED_FS_TYPES.has(type) || type.startsWith('fuse.sshfs')) points.add(fields[4]!.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8))));
  }
  return points;
}

export interface WalkResult {
  files: string[];
  entries: number;
  truncated: { files: boolean; time: boolean };
  warnings: string[];
}

/** Project files under `roots` (absolute paths), within `maxEntries` entries and before `deadline` (epoch ms). */
export function walkRoots(roots: readonly string[], maxEntries: number, deadline: number, skipped = skippedMountPoints()): WalkResult {
  const result: WalkResult = { files: [], entries: 0, truncated: { files: false, time: false }, warnings: [] };
  const visited = new Set<string>();
  for (const root of roots) {
    let real: string;
    try {
      real = realpathSync(root);
      if (!statSync(real).isDirectory()) continue;
    } catch {
      continue; // a root that does not exist (yet) has nothing to find
    }
    const special = specialFileSystem(real);
    if (special || skipped.has(real)) {
      result.warnings.push(`root ${root} is on a skipped file system (${special ?? 'special or network mount'})`);
      continue;
    }
    // Depth-first with an explicit stack: deep trees cannot overflow the call stack.
    const stack: { dir: string; depth: number }[] = [{ dir: real, depth: 0 }];
    while (stack.length > 0) {
      const { dir, depth } = stack.pop()!;
      if (visited.has(dir)) continue;
      visited.add(dir);
      if (Date.now() > deadline) {
        result.truncated.time = true;
        return result;
      }
      let entries;
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        continue; // unreadable: nothing to report from it
      }
      for (const entry of entries) {
        if (++result.entries > maxEntries) {
          result.truncated.files = true;
          return result;
        }
        const path = join(dir, entry.name);
        // Dirent types come from lstat: a symbolic link is neither a file nor a folder here, so it is never followed.
        if (entry.isFile() && isProjectFile(entry.name)) result.files.push(path);
        else if (entry.isDirectory() && depth < DISCOVERY_LIMITS.maxDepth && !NOT_PROJECTS.has(entry.name) && !isGoModuleCache(path) && !skipped.has(path) && !specialFileSystem(path)) {
          stack.push({ dir: path, depth: depth + 1 });
        }
      }
    }
  }
  return result;
}
