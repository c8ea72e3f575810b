// The workspace keeper of the sandbox manager (WorkspacePort): undo points of mounted projects kept in a
// private git repository per sandbox under `$WARDEN_HOME/sandboxes/<name>/`, the review of a session's changes,
// the undo, and the checks that decide whether a folder can be mounted live. Operations on one sandbox run one
// at a time (they share its private indexes); different sandboxes run side by side.
import { open, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileChange, ProjectCheck, ReviewReport, SnapshotInfo, UndoOutcome, WorkspacePort } from '../ports.js';
import { compare, type Comparison } from './compare.js';
import { WorkspaceError } from './errors.js';
import { git, type GitScope } from './git.js';
import { SNAPSHOT_LIMITS } from './limits.js';
import { checkProjectFolder } from './project-check.js';
import { restore } from './restore.js';
import { kindsByPath, riskLine, type RiskKind } from './risk.js';
import { partPrefix, PARTS, SnapshotRepo, type Snapshot } from './store.js';
import { listProject } from './walk.js';

/** Sandbox names as the API allows them (spec "Sandbox resources"): they become a folder name. */
const SANDBOX_NAME = /^[a-z0-9-]{1,19}$/;

export class GitWorkspace implements WorkspacePort {
  private readonly queues = new Map<string, Promise<unknown>>();

  /** @param home the Warden home folder (`$WARDEN_HOME`). */
  constructor(private readonly home: string) {}

  checkProject(project: string): Promise<ProjectCheck> {
    return resolveProject(project).then(checkProjectFolder);
  }

  take(sandbox: string, project: string): Promise<SnapshotInfo> {
    return this.serial(sandbox, async (repo) => {
      const root = await resolveProject(project);
      const listing = await listProject(root);
      await repo.ensure();
      const trees = await repo.writeTrees(root, listing);
      const snapshot = await repo.commit(root, trees, listing);
      return { kind: 'git', ref: snapshot.ref, created_at: snapshot.created_at };
    });
  }

  hasChanges(sandbox: string, project: string): Promise<boolean> {
    return this.serial(sandbox, async (repo) => {
      if (!(await repo.current())) return false;
      const root = await resolveProject(project);
      const snapshot = await this.requireSnapshot(repo, sandbox, root);
      const comparison = await this.compareNow(repo, snapshot, root);
      return comparison.files.length > 0 || comparison.dirs.length > 0;
    });
  }

  undo(sandbox: string, project: string, options: { preview: boolean; keepRefs: boolean }): Promise<UndoOutcome> {
    return this.serial(sandbox, async (repo) => {
      const root = await resolveProject(project);
      const snapshot = await this.requireSnapshot(repo, sandbox, root);
      const comparison = await this.compareNow(repo, snapshot, root);
      const changes: FileChange[] = [...comparison.files.map(plainChange), ...comparison.dirs];
      if (options.preview) return { changes, preview: true, summary: `would restore: ${countLine(changes)}` };
      const notes = await restore(repo.scope(), root, snapshot, comparison);
      if (!options.keepRefs) await repo.dropRef(snapshot.ref);
      const extra = [...(notes.kept.length > 0 ? [`kept ${notes.kept.length} added folder(s) holding excluded content: ${notes.kept.slice(0, 5).join(', ')}`] : []), ...notes.notes];
      return { changes, preview: false, summary: [`restored: ${countLine(changes)}`, ...extra].join('; ') };
    });
  }

  review(sandbox: string, project: string, options: { diff: boolean }): Promise<ReviewReport> {
    return this.serial(sandbox, async (repo) => {
      const root = await resolveProject(project);
      const snapshot = await this.requireSnapshot(repo, sandbox, root);
      const comparison = await this.compareNow(repo, snapshot, root);
      const report = { added: [] as string[], modified: [] as string[], deleted: [] as string[] };
      for (const change of comparison.files) report[change.change].push(change.path);
      const answer: ReviewReport = {
        report,
        summary: countLine(comparison.files),
        risk_line: riskLine(await this.risks(repo.scope(), root, snapshot, comparison)),
      };
      if (options.diff) answer.diff = await this.diff(repo.scope(), snapshot, comparison);
      return answer;
    });
  }

  remove(sandbox: string): Promise<void> {
    return this.serial(sandbox, (repo) => repo.remove());
  }

  /** Runs `fn` after every earlier operation on the same sandbox has settled. */
  private serial<T>(sandbox: string, fn: (repo: SnapshotRepo) => Promise<T>): Promise<T> {
    if (!SANDBOX_NAME.test(sandbox)) {
      return Promise.reject(new WorkspaceError('WARDEN_ERR_SANDBOX_PROJECT_INVALID', 'a sandbox name is 1 to 19 characters of a-z, 0-9 and -'));
    }
    const repo = new SnapshotRepo(join(this.home, 'sandboxes', sandbox));
    const previous = this.queues.get(sandbox) ?? Promise.resolve();
    const next = previous.then(() => fn(repo), () => fn(repo));
    const settled = next.catch(() => {});
    this.queues.set(sandbox, settled);
    void settled.then(() => {
      if (this.queues.get(sandbox) === settled) this.queues.delete(sandbox);
    });
    return next;
  }

  private async requireSnapshot(repo: SnapshotRepo, sandbox: string, root: string): Promise<Snapshot> {
    const snapshot = await repo.current();
    if (!snapshot) throw new WorkspaceError('WARDEN_ERR_SANDBOX_NO_SNAPSHOT', `sandbox ${sandbox} has no undo point`);
    if (snapshot.project !== root) {
      throw new WorkspaceError('WARDEN_ERR_SANDBOX_PROJECT_INVALID', `the undo point of sandbox ${sandbox} is of another folder (${snapshot.project})`);
    }
    return snapshot;
  }

  private async compareNow(repo: SnapshotRepo, snapshot: Snapshot, root: string): Promise<Comparison> {
    const listing = await listProject(root);
    const trees = await repo.writeTrees(root, listing);
    return compare(repo.scope(), snapshot, { listing, trees });
  }

  private async risks(scope: GitScope, root: string, snapshot: Snapshot, comparison: Comparison): Promise<Map<RiskKind, string[]>> {
    const touched = new Map<RiskKind, string[]>();
    const mark = (kind: RiskKind, path: string) => touched.set(kind, [...(touched.get(kind) ?? []), path]);
    for (const change of comparison.files) {
      for (const kind of kindsByPath(change.path)) mark(kind, change.path);
      if (change.change !== 'deleted' && (await becameExecutable(scope, root, snapshot, comparison, change))) mark('executables', change.path);
    }
    return touched;
  }

  private async diff(scope: GitScope, snapshot: Snapshot, comparison: Comparison): Promise<string> {
    const limit = SNAPSHOT_LIMITS.maxDiffBytes;
    const chunks: string[] = [];
    let size = 0;
    let truncated = false;
    for (const part of PARTS) {
      const [from, to] = [snapshot.trees[part], comparison.current.trees[part]];
      if (from === to || truncated) continue;
      const prefix = partPrefix(part);
      const out = await git(scope, ['diff-tree', '-r', '-p', '--no-renames', '--no-color', `--src-prefix=a/${prefix}`, `--dst-prefix=b/${prefix}`, from, to], {
        maxOutputBytes: limit - size,
      });
      chunks.push(out.stdout.toString('utf8'));
      size += out.stdout.length;
      truncated = out.truncated;
    }
    const modeOnly = comparison.files.filter((c) => c.change === 'modified' && !c.oldBlob).map((c) => c.path);
    if (modeOnly.length > 0) chunks.push(`# mode bits changed (content unchanged): ${modeOnly.join(', ')}\n`);
    if (truncated) chunks.push(`\n# diff truncated at ${limit} bytes; the report lists every changed file\n`);
    return chunks.join('');
  }
}

/** Whether a file gained an executable bit or a `#!` first line in the session. */
async function becameExecutable(scope: GitScope, root: string, snapshot: Snapshot, comparison: Comparison, change: FileChange & { oldBlob?: string }): Promise<boolean> {
  const before = snapshot.listing.get(change.path);
  const now = comparison.current.listing.get(change.path);
  if (now?.kind !== 'file') return false;
  const wasExecutable = before?.kind === 'file' && (before.mode & 0o111) !== 0;
  if ((now.mode & 0o111) !== 0 && !wasExecutable) return true;
  if (!(await startsWithShebang(join(root, change.path)))) return false;
  if (!change.oldBlob || before?.kind !== 'file') return true;
  const old = await git(scope, ['cat-file', 'blob', change.oldBlob], { maxOutputBytes: 2 });
  return old.stdout.subarray(0, 2).toString('latin1') !== '#!';
}

async function startsWithShebang(path: string): Promise<boolean> {
  const handle = await open(path, 'r').catch(() => undefined);
  if (!handle) return false;
  try {
    const head = Buffer.alloc(2);
    const { bytesRead } = await handle.read(head, 0, 2, 0);
    return bytesRead === 2 && head.toString('latin1') === '#!';
  } finally {
    await handle.close();
  }
}

/** The port's FileChange, without the blob ids the comparison carries. */
const plainChange = ({ path, change, mode_changed }: FileChange): FileChange => (mode_changed ? { path, change, mode_changed } : { path, change });

function countLine(changes: readonly FileChange[]): string {
  const count = { added: 0, modified: 0, deleted: 0 };
  let modes = 0;
  for (const change of changes) {
    count[change.change]++;
    if (change.mode_changed) modes++;
  }
  const line = `${count.added} added, ${count.modified} modified, ${count.deleted} deleted`;
  return modes > 0 ? `${line} (${modes} with mode changes)` : line;
}

/** The project folder as a real absolute path; it must exist and be a folder. */
async function resolveProject(project: string): Promise<string> {
  if (!project.startsWith('/')) throw new WorkspaceError('WARDEN_ERR_SANDBOX_PROJECT_INVALID', 'the project must be an absolute path');
  try {
    const root = await realpath(project);
    if (!(await stat(root)).isDirectory()) throw new Error('not a folder');
    return root;
  } catch {
    throw new WorkspaceError('WARDEN_ERR_SANDBOX_PROJECT_INVALID', `the project folder ${project} does not exist or is not a folder`);
  }
}
