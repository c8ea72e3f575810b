// The sandbox manager as `warden start` runs it: a real gateway whose manager uses the real policy resolver
// (shipped packs) and the real workspace keeper (undo points in a private git repository), with real bubblewrap
// sandboxes of the `shell` harness. A session inside the sandbox creates, edits, deletes and chmods files; undo
// must give the folder back byte for byte, mode bits included.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startInProcess, type InProcessGateway } from '../helpers/gateway.js';
import { client, ENABLED, TOKEN } from './http.js';

/** Every entry under `dir` (relative path, type, mode bits, content hash), sorted: the folder as a user sees it. */
function listing(dir: string): string[] {
  const out: string[] = [];
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      const stats = lstatSync(path);
      const mode = (stats.mode & 0o7777).toString(8);
      if (stats.isDirectory()) {
        out.push(`${relative(dir, path)}/ ${mode}`);
        walk(path);
      } else {
        out.push(`${relative(dir, path)} ${mode} ${createHash('sha256').update(readFileSync(path)).digest('hex')}`);
      }
    }
  };
  walk(dir);
  return out.sort();
}

describe('sandboxes with the real policy resolver and workspace keeper', () => {
  let gw: InProcessGateway;
  let api: ReturnType<typeof client>;
  let work: string;

  before(async () => {
    gw = await startInProcess(ENABLED, { WARDEN_GATEWAY_TOKEN: TOKEN });
    api = client(gw.url);
    work = mkdtempSync(join(tmpdir(), 'warden-sbreal-'));
  });
  after(async () => {
    await gw.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('undo after a session that creates, edits, deletes and chmods files restores the folder byte for byte', async () => {
    const dir = join(work, 'proj');
    mkdirSync(join(dir, 'src'), { recursive: true });
    writeFileSync(join(dir, 'README.md'), 'hello\n');
    writeFileSync(join(dir, 'src', 'main.sh'), '#!/bin/sh\necho main\n');
    chmodSync(join(dir, 'src', 'main.sh'), 0o755);
    writeFileSync(join(dir, 'secret.txt'), 'private\n');
    chmodSync(join(dir, 'secret.txt'), 0o600);
    writeFileSync(join(dir, 'package.json'), '{"name":"proj"}\n');
    const before = listing(dir);

    const created = await api.post('/sandboxes', { harness: 'shell', project: dir, name: 'real-undo' });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.policy.pack, 'default', 'the shipped default pack resolves');
    assert.match(created.body.policy.pack_digest, /^sha256:[0-9a-f]{64}$/);
    assert.equal(created.body.snapshot.kind, 'git');

    const session = [
      'echo edited >> README.md', 'rm package.json', 'echo new > added.txt', 'mkdir -p .github/workflows',
      'echo "on: push" > .github/workflows/ci.yml', 'chmod 644 src/main.sh', 'chmod 640 secret.txt',
    ].join(' && ');
    const ran = await gw.gateway.sandbox!.manager!.exec('real-undo', ['/bin/sh', '-c', session]);
    assert.equal(ran.code, 0, ran.stderr.toString());
    assert.notDeepEqual(listing(dir), before, 'the session changed the folder on the host');

    assert.equal((await api.post('/sandboxes/real-undo/stop', {})).status, 200);
    const review = await api.post('/sandboxes/real-undo/review', { diff: true });
    assert.equal(review.status, 200, review.text);
    assert.deepEqual(review.body.report.added.sort(), ['.github/workflows/ci.yml', 'added.txt']);
    assert.deepEqual(review.body.report.deleted, ['package.json']);
    assert.match(review.body.risk_line, /CI/i);
    assert.match(review.body.risk_line, /manifest/i);
    assert.match(review.body.diff, /\+edited/);

    const undone = await api.post('/sandboxes/real-undo/undo', {});
    assert.equal(undone.status, 200, undone.text);
    assert.deepEqual(listing(dir), before, 'content and modes are back');
    assert.equal((await api.post('/sandboxes/real-undo/accept', {})).body.code, 'conflict', 'an undone point cannot be accepted');
    assert.equal((await api.del('/sandboxes/real-undo')).status, 200);
  });

  it('explain resolves the shipped packs, and a pack refusal is a 403 policy_violation', async () => {
    const dir = join(work, 'explain');
    mkdirSync(dir);
    const explained = await api.get(`/policy/explain?harness=shell&project=${encodeURIComponent(dir)}&pack=strict`);
    assert.equal(explained.status, 200, explained.text);
    assert.equal(explained.body.pack, 'strict');
    assert.ok(explained.body.settings.some((s: { key: string; source: string }) => s.key === 'yolo' && s.source === 'pack'));
    const refused = await api.post('/sandboxes', { harness: 'shell', project: dir, pack: 'strict', yolo: true });
    assert.equal(refused.status, 403, refused.text);
    assert.equal(refused.body.code, 'policy_violation');
    const unknown = await api.post('/sandboxes', { harness: 'shell', project: dir, pack: 'no-such-pack' });
    assert.equal(unknown.body.code, 'pack_invalid');
  });

  it('a project whose .git is a symlink needs a copy', async () => {
    const dir = join(work, 'linked');
    mkdirSync(join(work, 'elsewhere.git'), { recursive: true });
    mkdirSync(dir);
    symlinkSync(join(work, 'elsewhere.git'), join(dir, '.git'));
    const refused = await api.post('/sandboxes', { harness: 'shell', project: dir });
    assert.equal(refused.status, 409, refused.text);
    assert.equal(refused.body.code, 'needs_copy');
    assert.match(refused.body.detail ?? refused.body.error, /symlink|symbolic/i);
  });
});
