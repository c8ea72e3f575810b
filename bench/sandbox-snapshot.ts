// Sandbox undo points: snapshot and undo of a 10,000-file project (plus a 2,000-file node_modules the snapshot
// excludes), median of 3 runs each. Baselines from the same run on the same tree: `cp -a` of the project (what
// copying the folder aside would cost) and `git add -A` into a fresh repository (the hashing and object writes
// a snapshot cannot avoid). Undo is measured after a typical session (100 files edited, 100 added, 100
// deleted, 50 chmodded) and after the worst case, every file deleted, against `cp -a` of the tree back.
// Target (issue "Step 10"): snapshot <= 2 s and undo <= 2 s for 10,000 files.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GitWorkspace } from '../src/sandbox/snapshot/index.js';
import { median, round, writeResult } from './lib/report.js';

const DIRS = 100;
const PER_DIR = 100;
const FILES = DIRS * PER_DIR;
const RUNS = 3;

function makeProject(root: string): void {
  for (let d = 0; d < DIRS; d++) {
    mkdirSync(join(root, 'src', `mod${d}`), { recursive: true });
    for (let f = 0; f < PER_DIR; f++) {
      const body = `// module ${d} file ${f}\n${`export const value${f} = ${d * PER_DIR + f};\n`.repeat(10 + ((d * 7 + f * 13) % 90))}`;
      writeFileSync(join(root, 'src', `mod${d}`, `f${f}.ts`), body, { mode: f % 50 === 0 ? 0o755 : 0o644 });
    }
  }
  for (let i = 0; i < 2000; i++) {
    const dir = join(root, 'node_modules', `pkg${i % 100}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `i${i}.js`), `module.exports = ${i};\n`);
  }
}

function typicalSession(root: string): void {
  for (let i = 0; i < 100; i++) writeFileSync(join(root, 'src', `mod${i}`, 'f1.ts'), `// edited ${i}\n`);
  for (let i = 0; i < 100; i++) writeFileSync(join(root, 'src', `mod${i}`, `added${i}.ts`), `// added ${i}\n`);
  for (let i = 0; i < 100; i++) unlinkSync(join(root, 'src', `mod${i}`, 'f2.ts'));
  for (let i = 0; i < 50; i++) chmodSync(join(root, 'src', `mod${i}`, 'f3.ts'), 0o600);
}

const time = async (fn: () => unknown): Promise<number> => {
  const start = performance.now();
  await fn();
  return performance.now() - start;
};

export async function run(): Promise<void> {
  const base = mkdtempSync(join(tmpdir(), 'warden-bench-snap-'));
  try {
    const project = join(base, 'project');
    mkdirSync(project);
    makeProject(project);
    const ws = new GitWorkspace(join(base, 'home'));
    const git = (gitDir: string, ...args: string[]) =>
      execFileSync('git', args, { env: { PATH: process.env.PATH!, GIT_DIR: gitDir, GIT_WORK_TREE: project, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' }, stdio: 'ignore' });

    const cp: number[] = [];
    const gitAdd: number[] = [];
    const snapCold: number[] = [];
    const snapWarm: number[] = [];
    const review: number[] = [];
    const undoTypical: number[] = [];
    const undoAll: number[] = [];
    const cpBack: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      cp.push(await time(() => execFileSync('cp', ['-a', join(project, 'src'), join(base, `copy${run}`)])));
      const gitDir = join(base, `plain${run}.git`);
      execFileSync('git', ['init', '-q', '--bare', gitDir]);
      // git add with the same exclusion, so both hash the same 10,000 files.
      gitAdd.push(await time(() => git(gitDir, 'add', '-A', '--force', '--', '.', ':(exclude)node_modules')));

      const name = `bench-${run}`;
      snapCold.push(await time(() => ws.take(name, project)));
      snapWarm.push(await time(() => ws.take(name, project)));
      typicalSession(project);
      review.push(await time(() => ws.review(name, project, { diff: false })));
      undoTypical.push(await time(() => ws.undo(name, project, { preview: false, keepRefs: true })));
      if ((await ws.hasChanges(name, project)) !== false) throw new Error('undo left changes behind');
      rmSync(join(project, 'src'), { recursive: true });
      undoAll.push(await time(() => ws.undo(name, project, { preview: false, keepRefs: true })));
      if ((await ws.hasChanges(name, project)) !== false) throw new Error('undo of a deleted tree left changes behind');
      rmSync(join(project, 'src'), { recursive: true });
      cpBack.push(await time(() => execFileSync('cp', ['-a', join(base, `copy${run}`), join(project, 'src')])));
      await ws.remove(name);
    }

    const m = (values: number[]) => round(median(values), 1);
    const metrics = {
      files: FILES,
      snapshot_cold_ms: m(snapCold),
      snapshot_warm_ms: m(snapWarm),
      review_ms: m(review),
      undo_typical_ms: m(undoTypical),
      undo_all_deleted_ms: m(undoAll),
    };
    const baseline = { cp_a_ms: m(cp), git_add_fresh_repo_ms: m(gitAdd), cp_a_back_ms: m(cpBack) };
    writeResult({
      name: 'sandbox-snapshot',
      metrics,
      baseline,
      ratio: {
        snapshot_cold_vs_cp_a: round(metrics.snapshot_cold_ms / baseline.cp_a_ms, 2),
        snapshot_cold_vs_git_add: round(metrics.snapshot_cold_ms / baseline.git_add_fresh_repo_ms, 2),
        undo_all_deleted_vs_cp_a_back: round(metrics.undo_all_deleted_ms / baseline.cp_a_back_ms, 2),
        undo_typical_vs_cp_a_back: round(metrics.undo_typical_ms / baseline.cp_a_back_ms, 2),
      },
      notes: [
        `${FILES} files in 100 folders (about 0.5-4 KB each, 2% executable) plus 2,000 files in node_modules (excluded); median of ${RUNS} runs`,
        'typical session: 100 edited, 100 added, 100 deleted, 50 chmodded; targets: snapshot <= 2000 ms, undo <= 2000 ms',
      ],
    });
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
