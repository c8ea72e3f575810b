// Small in-test implementations of the two ports the manager takes: a policy that resolves every request to
// fixed values (with hooks to refuse), and a workspace keeper that snapshots a folder in memory and records
// every call. The runtime (bubblewrap) is always the real one.
import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { SandboxApiError } from '../../src/sandbox/errors.js';
import type {
  FileChange, ProjectCheck, ResolvedPolicy, ReviewReport, RunOptions, SandboxPolicyPort, SnapshotInfo, UndoOutcome, WorkspacePort,
} from '../../src/sandbox/ports.js';

export class FixedPolicy implements SandboxPolicyPort {
  readonly calls: RunOptions[] = [];

  resolve(options: RunOptions): ResolvedPolicy {
    this.calls.push(options);
    if (options.pack === 'broken') throw new SandboxApiError('pack_invalid', 'pack broken failed to load: unknown key x', { detail: 'broken.yaml: x' });
    if (options.yolo) throw new SandboxApiError('admin_violation', "blocked by your organization's policy: yolo is forbidden", { violation: 'yolo' });
    return {
      pack: options.pack ?? 'default', pack_source: 'shipped', pack_digest: `sha256:${'0'.repeat(64)}`, profile: options.profile ?? 'default',
      network_mode: 'none', approvals: false, yolo: false,
      admin: { configured: false, authority: 'advisory', detail: 'no administrator file' },
      settings: [{ key: 'network_mode', value: 'none', source: 'pack', origin: 'default' }],
      violations: [],
      effective: {
        copy: options.copy ?? false, safe: options.safe ?? false, yolo: false, context: options.context ?? [], unmask: options.unmask ?? [],
        host_ports: options.host_ports ?? [], no_mcp: options.no_mcp ?? false, learn: options.learn ?? false,
        ...(options.cpu !== undefined ? { cpu: options.cpu } : {}), ...(options.memory !== undefined ? { memory: options.memory } : {}),
      },
    };
  }
}

type Tree = Map<string, { data: Buffer; mode: number }>;

function readTree(root: string, dir = '', tree: Tree = new Map()): Tree {
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
    if (entry.isDirectory()) readTree(root, path, tree);
    else if (entry.isFile()) tree.set(path, { data: readFileSync(join(root, path)), mode: lstatSync(join(root, path)).mode & 0o7777 });
  }
  return tree;
}

function diffTrees(before: Tree, after: Tree): FileChange[] {
  const changes: FileChange[] = [];
  for (const [path, file] of after) {
    const old = before.get(path);
    if (!old) changes.push({ path, change: 'added' });
    else if (!old.data.equals(file.data) || old.mode !== file.mode) changes.push({ path, change: 'modified', ...(old.mode !== file.mode ? { mode_changed: true } : {}) });
  }
  for (const path of before.keys()) if (!after.has(path)) changes.push({ path, change: 'deleted' });
  return changes.sort((a, b) => a.path.localeCompare(b.path));
}

/** Snapshots in memory; a folder named `linked-worktree` needs a copy; `.nested` folders are nested repos. */
export class MemoryWorkspace implements WorkspacePort {
  readonly calls: string[] = [];
  readonly #snapshots = new Map<string, Tree>();

  async checkProject(project: string): Promise<ProjectCheck> {
    this.calls.push(`check ${basename(project)}`);
    if (basename(project) === 'linked-worktree') return { needs_copy: 'a linked git worktree: its .git is a file pointing elsewhere', nested_repos: [] };
    return { nested_repos: readdirSync(project).filter((name) => name.endsWith('.nested')) };
  }

  async take(sandbox: string, project: string): Promise<SnapshotInfo> {
    this.calls.push(`take ${sandbox}`);
    this.#snapshots.set(sandbox, readTree(project));
    return { kind: 'git', ref: `refs/warden/${sandbox}/${this.calls.length}`, created_at: new Date().toISOString() };
  }

  async hasChanges(sandbox: string, project: string): Promise<boolean> {
    this.calls.push(`changes ${sandbox}`);
    return diffTrees(this.#snapshots.get(sandbox) ?? new Map(), readTree(project)).length > 0;
  }

  async undo(sandbox: string, project: string, options: { preview: boolean; keepRefs: boolean }): Promise<UndoOutcome> {
    this.calls.push(`undo ${sandbox}${options.preview ? ' preview' : ''}`);
    const snapshot = this.#snapshots.get(sandbox) ?? new Map();
    const changes = diffTrees(snapshot, readTree(project));
    if (!options.preview) {
      for (const change of changes) if (change.change === 'added') rmSync(join(project, change.path));
      for (const [path, file] of snapshot) {
        mkdirSync(join(project, path, '..'), { recursive: true });
        writeFileSync(join(project, path), file.data);
        chmodSync(join(project, path), file.mode);
      }
    }
    return { changes, preview: options.preview, summary: `${changes.length} file(s) ${options.preview ? 'would be' : ''} restored` };
  }

  async review(sandbox: string, project: string, options: { diff: boolean }): Promise<ReviewReport> {
    this.calls.push(`review ${sandbox}`);
    const changes = diffTrees(this.#snapshots.get(sandbox) ?? new Map(), readTree(project));
    const of = (kind: FileChange['change']) => changes.filter((c) => c.change === kind).map((c) => c.path);
    return {
      report: { added: of('added'), modified: of('modified'), deleted: of('deleted') },
      summary: `${changes.length} change(s)`, risk_line: changes.some((c) => c.path.endsWith('package.json')) ? 'dependency manifests' : '',
      ...(options.diff ? { diff: changes.map((c) => `${c.change} ${c.path}`).join('\n') } : {}),
    };
  }

  async remove(sandbox: string): Promise<void> {
    this.calls.push(`remove ${sandbox}`);
    this.#snapshots.delete(sandbox);
  }
}
