// The sandbox API end to end: a real gateway on an ephemeral port, real bubblewrap sandboxes of the `shell`
// harness, a real sandboxes.db; the policy and workspace ports are small in-test implementations.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startInProcess, type InProcessGateway } from '../helpers/gateway.js';
import { eventually } from '../helpers/eventually.js';
import { client, ENABLED, ports, project, TOKEN, type Json } from './http.js';

describe('sandbox API with real bubblewrap sandboxes', () => {
  let gw: InProcessGateway;
  let api: ReturnType<typeof client>;
  let fakes: ReturnType<typeof ports>;
  let work: string;

  before(async () => {
    fakes = ports();
    gw = await startInProcess(ENABLED, { WARDEN_GATEWAY_TOKEN: TOKEN }, fakes);
    api = client(gw.url);
    work = mkdtempSync(join(tmpdir(), 'warden-sbapi-'));
  });
  after(async () => {
    await gw.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('reports status: enabled, available, bwrap, the limit mechanism, daemon uid and last reconcile', async () => {
    const { status, body } = await api.get('/status');
    assert.equal(status, 200);
    assert.equal(body.enabled, true);
    assert.equal(body.available, true);
    assert.equal(body.gateway.compute_driver, 'bwrap');
    assert.match(body.gateway.limits, /^(cgroup|prlimit)$/);
    assert.equal(body.daemon_uid, process.getuid!());
    assert.ok(Date.parse(body.last_reconcile) > 0);
    assert.match(body.ingress_addr, /warden-ingress-/, 'the folder of the sandboxes\' hook ingress sockets');
    const health = (await (await fetch(`${gw.url}/health`)).json()) as Json;
    assert.equal(health.subsystems.sandbox.state, 'running');
    assert.equal(health.subsystems.sandbox.details.ingress, body.ingress_addr);
  });

  it('creates a shell sandbox (building its image), shows and lists it, and never answers or stores a secret', async () => {
    const dir = project(work, 'alpha');
    const secret = 'sk-test-SECRET-value-never-shown-42';
    const created = await api.post('/sandboxes', {
      harness: 'shell', project: dir, name: 'alpha', env: { GREETING: 'hi' },
      llm: { profile: 'p', credentials: { ANTHROPIC_API_KEY: secret } },
      credentials: [{ name: 'GITHUB_TOKEN', value: `${secret}-gh`, host: 'api.github.com' }],
    });
    assert.equal(created.status, 201, created.text);
    const sandbox = created.body;
    assert.equal(sandbox.name, 'alpha');
    assert.equal(sandbox.phase, 'ready');
    assert.equal(sandbox.session, 1);
    assert.equal(sandbox.workdir_mode, 'mount');
    assert.equal(sandbox.project, dir);
    assert.match(sandbox.image_id, /^sha256:[0-9a-f]{64}$/);
    assert.equal(sandbox.snapshot.kind, 'git');
    assert.deepEqual(sandbox.credentials, [{ name: 'GITHUB_TOKEN', host: 'api.github.com', port: 443 }]);
    assert.ok(!created.text.includes(secret), 'no secret in the answer');
    assert.ok(existsSync(join(gw.home.dir, 'images', 'shell', 'manifest.json')), 'the image was built');

    // The harness process has the LLM secret and the binding credential; a `credentials` binding never enters the
    // sandbox (the egress proxy injects it for its host). The database and the image hold no secret.
    const manager = gw.gateway.sandbox!.manager!;
    const env = (await manager.exec('alpha', ['/bin/sh', '-c', 'echo "$ANTHROPIC_API_KEY|$GITHUB_TOKEN|$GREETING|$WARDEN_SANDBOX_TOKEN"'])).stdout.toString();
    const [llm, gh, greeting, binding] = env.trim().split('|');
    assert.equal(llm, secret);
    assert.equal(gh, '', 'the bound credential is injected by the egress proxy, not put in the environment');
    assert.equal(greeting, 'hi');
    assert.match(binding!, /^wardensb_[0-9a-f]{64}$/);
    for (const file of readdirSync(gw.home.dir)) {
      if (!file.startsWith('sandboxes.db')) continue;
      const bytes = readFileSync(join(gw.home.dir, file));
      assert.ok(!bytes.includes(secret), `${file} holds no secret`);
      assert.ok(!bytes.includes(binding!), `${file} holds no binding credential`);
    }
    // The binding credential is refused on the sidecar API (it belongs to the hook ingress only).
    assert.equal((await client(gw.url, binding).get('/status')).status, 401);

    const shown = await api.get('/sandboxes/alpha');
    assert.equal(shown.status, 200);
    assert.equal(shown.body.id, sandbox.id);
    const listed = await api.get('/sandboxes');
    assert.deepEqual(listed.body.sandboxes.map((s: Json) => s.name), ['alpha']);
    assert.equal((await api.get('/status')).body.running, 1);
  });

  it('refuses a second start (409), a same-name create and an overlapping mount (409 conflict)', async () => {
    assert.equal((await api.post('/sandboxes/alpha/start')).body.code, 'conflict');
    const again = await api.post('/sandboxes', { harness: 'shell', project: join(work, 'alpha'), name: 'alpha' });
    assert.deepEqual([again.status, again.body.code], [409, 'conflict']);
    const inner = project(work, 'alpha/sub');
    const inside = await api.post('/sandboxes', { harness: 'shell', project: inner, name: 'inner' });
    assert.deepEqual([inside.status, inside.body.code], [409, 'conflict']);
    assert.match(inside.body.error, /alpha/);
    const around = await api.post('/sandboxes', { harness: 'shell', project: work, name: 'around' });
    assert.deepEqual([around.status, around.body.code], [409, 'conflict']);
  });

  it('picks <folder>-<random> for an empty name, cut to 19 characters', async () => {
    const dir = project(work, 'A Very Long Project Folder Name');
    const created = await api.post('/sandboxes', { harness: 'shell', project: dir, name: '', no_snapshot: true });
    assert.equal(created.status, 201, created.text);
    assert.match(created.body.name, /^[a-z0-9-]{1,19}$/);
    assert.match(created.body.name, /^a-very-long-[0-9a-f]{6}$/);
    assert.equal(created.body.snapshot, null, 'no_snapshot: no undo point');
    assert.equal((await api.del(`/sandboxes/${created.body.name}`)).status, 200);
  });

  it('answers every refusal with the sandbox error body and code', async () => {
    const dir = project(work, 'refusals');
    const cases: [unknown, number, string, string?][] = [
      [{ harness: 'shell', project: dir, name: 'x', bogus: 1 }, 400, 'invalid_request'],
      [{ harness: 'shell', project: dir, name: 'Bad_Name' }, 400, 'invalid_request'],
      [{ harness: 'shell', project: dir, name: 'a'.repeat(20) }, 400, 'invalid_request'],
      [{ harness: 'shell', project: 'relative/path', name: 'rel' }, 400, 'invalid_request'],
      [{ harness: 'shell', project: join(work, 'nope'), name: 'nope' }, 400, 'invalid_request'],
      [{ harness: 'no-such-agent', project: dir, name: 'agent' }, 400, 'invalid_request'],
      [{ harness: 'shell', project: dir, name: 'pk', pack: 'broken' }, 400, 'pack_invalid'],
      [{ harness: 'shell', project: dir, name: 'adm', yolo: true }, 403, 'admin_violation', 'yolo'],
      [{ harness: 'shell', project: dir, name: 'ld', env: { LD_PRELOAD: '/x.so' } }, 403, 'policy_violation', 'LD_PRELOAD'],
      [{ harness: 'shell', project: dir, name: 'no', env: { NODE_OPTIONS: '--require x' } }, 403, 'policy_violation', 'NODE_OPTIONS'],
      [{ harness: 'shell', project: dir, name: 'px', env: { https_proxy: 'http://x' } }, 403, 'policy_violation', 'https_proxy'],
      [{ harness: 'shell', project: dir, name: 'wd', env: { WARDEN_HOME: '/x' } }, 403, 'policy_violation', 'WARDEN_HOME'],
      [{ harness: 'shell', project: dir, name: 'pin', env: { PATH: '/evil' } }, 403, 'policy_violation', 'PATH'],
      [{ harness: 'shell', project: dir, name: 'cred', llm: { credentials: { LD_AUDIT: 'x' } } }, 403, 'policy_violation', 'LD_AUDIT'],
      [{ harness: 'claudecode', project: dir, name: 'cc', no_build: true }, 409, 'image_unavailable'],
      // Cursor's definition names no CLI package on npm: its image cannot be built.
      [{ harness: 'cursor', project: dir, name: 'cu' }, 409, 'image_unavailable'],
      [{ harness: 'shell', project: project(work, 'linked-worktree'), name: 'lw' }, 409, 'needs_copy'],
    ];
    for (const [body, status, code, violation] of cases) {
      const answer = await api.post('/sandboxes', body);
      assert.deepEqual([answer.status, answer.body.code], [status, code], `${JSON.stringify(body)}: ${answer.text}`);
      assert.equal(typeof answer.body.error, 'string');
      if (violation) assert.equal(answer.body.violation, violation);
    }
    const admin = await api.post('/sandboxes', { harness: 'shell', project: dir, name: 'adm', yolo: true });
    assert.match(admin.body.error, /^blocked by your organization's policy/);
    const needsCopy = await api.post('/sandboxes', { harness: 'shell', project: join(work, 'linked-worktree'), name: 'lw' });
    assert.match(needsCopy.body.detail, /linked git worktree/);
    assert.deepEqual([(await api.post('/sandboxes', '{"harness":"shell"} trailing')).status], [400]);
    assert.equal((await api.post('/sandboxes', '{"harness":')).body.code, 'invalid_request');
    assert.equal((await api.post('/sandboxes/alpha/stop', { extra: true })).body.code, 'invalid_request');
    const big = await api.post('/sandboxes', { harness: 'shell', project: dir, env: { BIG: 'x'.repeat(300 * 1024) } });
    assert.equal(big.status, 413);
    assert.deepEqual([(await api.get('/sandboxes/nobody')).status, (await api.get('/sandboxes/nobody')).body.code], [404, 'not_found']);
    // Step 11's routes exist for their own methods only (GET /egress/unblock, GET /approvals/{id} are not routes).
    for (const path of ['/approvals/some-id', '/egress/unblock', '/activity/more', '/no/such/route']) {
      const answer = await api.get(path);
      assert.deepEqual([answer.status, answer.body.code], [404, 'not_found'], path);
    }
    // Master token and CSRF.
    assert.equal((await client(gw.url, 'wrong-token').get('/sandboxes')).status, 401);
    const noClient = await fetch(`${gw.url}/api/v1/sandbox/sandboxes/alpha/stop`, {
      method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: '{}',
    });
    assert.equal(noClient.status, 403);
    assert.equal(existsSync(join(gw.home.dir, 'images', 'claudecode')), false);
  });

  it('keeps the last 1 MiB of an interrupted run, invalid UTF-8 replaced, and a later stop replaces it', async () => {
    const manager = gw.gateway.sandbox!.manager!;
    assert.equal((await api.get('/sandboxes/alpha/logs')).body.code, 'not_found', 'no log kept while running');
    // 1.5 MiB of numbered lines, an invalid byte, then a marker: only the tail survives.
    manager.execDetached('alpha', ['/bin/sh', '-c', "i=0; while [ $i -lt 30000 ]; do printf '%049d\\n' $i; i=$((i+1)); done; printf 'bad:\\377\\n'; echo END-OF-RUN"]);
    // The run goes on in the background; wait (from the host) until its output is complete, then interrupt it.
    const runLog = join(gw.home.dir, 'sandboxes/alpha/runtime/run.log');
    await eventually(() => readFileSync(runLog).includes('END-OF-RUN'), 'the detached run to finish its output', 15_000);
    const stopped = await api.post('/sandboxes/alpha/stop', {});
    assert.equal(stopped.status, 200, stopped.text);
    assert.equal(stopped.body.phase, 'stopped');
    const logs = await api.get('/sandboxes/alpha/logs');
    assert.equal(logs.status, 200, logs.text);
    assert.equal(logs.body.state, 'interrupted');
    assert.equal(logs.body.name, 'alpha');
    assert.ok(Date.parse(logs.body.kept_at) >= Date.parse(logs.body.started_at));
    assert.ok(Buffer.byteLength(logs.body.log.replace(/\uFFFD/g, '?')) <= 1024 * 1024, 'at most 1 MiB kept');
    assert.ok(Buffer.byteLength(logs.body.log) > 1000 * 1024, 'the tail is kept, not a stub');
    assert.ok(logs.body.log.endsWith('bad:\uFFFD\nEND-OF-RUN\n'), 'invalid UTF-8 replaced, the end kept');
    assert.ok(!logs.body.log.includes(`${'0'.repeat(49)}\n`), 'the head is dropped');
    assert.equal((await api.get('/sandboxes/alpha/logs?lines=1')).body.log, 'END-OF-RUN\n');
    assert.equal((await api.get('/sandboxes/alpha/logs?lines=-1')).status, 400);

    // Stop on a stopped sandbox is fine; a new run's stop replaces the kept log.
    const started = await api.post('/sandboxes/alpha/start', { no_snapshot: true });
    assert.equal(started.body.session, 2);
    manager.execDetached('alpha', ['/bin/sh', '-c', 'echo SECOND-RUN']);
    // Up to 30 s: on a loaded CI machine the detached command can take seconds to start.
    await eventually(() => readFileSync(runLog, 'utf8').includes('SECOND-RUN'), 'the detached command to run before the stop', 30_000);
    await api.post('/sandboxes/alpha/stop');
    const second = await api.get('/sandboxes/alpha/logs');
    assert.ok(second.body.log.includes('SECOND-RUN'));
    assert.ok(!second.body.log.includes('END-OF-RUN'), 'replaced, not appended');
  });

  it('review, accept and undo follow the phase table', async () => {
    const dir = join(work, 'alpha');
    const manager = gw.gateway.sandbox!.manager!;
    const fresh = await api.post('/sandboxes/alpha/start', { new_snapshot: true });
    assert.equal(fresh.status, 200, fresh.text);
    const session = fresh.body.session;
    await manager.exec('alpha', ['/bin/sh', '-c', 'echo changed > README.md; echo new > added.txt']);
    assert.equal((await api.post('/sandboxes/alpha/accept', {})).body.code, 'conflict', 'running');
    const review = await api.post('/sandboxes/alpha/review', { diff: true });
    assert.deepEqual(review.body.report, { added: ['added.txt'], modified: ['README.md'], deleted: [] });
    assert.equal(typeof review.body.diff, 'string');
    assert.equal((await api.post('/sandboxes/alpha/undo', {})).body.code, 'conflict', 'running without stop');
    await api.post('/sandboxes/alpha/stop');
    // Restarting keeps the undo point while the changes are unreviewed.
    const kept = await api.post('/sandboxes/alpha/start');
    assert.equal(kept.body.snapshot.created_at, fresh.body.snapshot.created_at, 'undo point kept');
    await api.post('/sandboxes/alpha/stop');
    assert.equal((await api.post('/sandboxes/alpha/accept', { session })).body.code, 'conflict', 'started again since');
    assert.equal((await api.post('/sandboxes/alpha/accept', { snapshot_created_at: '2000-01-01T00:00:00.000Z' })).body.code, 'conflict');

    const preview = await api.post('/sandboxes/alpha/undo', { preview: true });
    assert.equal(preview.status, 200, preview.text);
    assert.equal(preview.body.workspace.preview, true);
    assert.equal(readFileSync(join(dir, 'README.md'), 'utf8'), 'changed\n', 'preview changes nothing');
    const undone = await api.post('/sandboxes/alpha/undo', { restart: true, stop: true });
    assert.equal(undone.status, 200, undone.text);
    assert.deepEqual(undone.body.review.report.added, ['added.txt']);
    assert.equal(readFileSync(join(dir, 'README.md'), 'utf8'), 'hello\n');
    assert.equal(existsSync(join(dir, 'added.txt')), false);
    assert.equal(undone.body.stopped, false, 'it was not running');
    const afterUndo = await api.post('/sandboxes/alpha/accept', {});
    assert.equal(afterUndo.body.code, 'conflict', 'undone');

    // A new session on a clean folder takes a fresh undo point, which can be accepted after a stop.
    const next = await api.post('/sandboxes/alpha/start');
    assert.notEqual(next.body.snapshot.created_at, fresh.body.snapshot.created_at);
    await api.post('/sandboxes/alpha/stop');
    const accepted = await api.post('/sandboxes/alpha/accept', { session: next.body.session, snapshot_created_at: next.body.snapshot.created_at });
    assert.equal(accepted.status, 200, accepted.text);
    assert.ok(accepted.body.snapshot.accepted_at);
    const restarted = await api.post('/sandboxes/alpha/start', { no_snapshot: true });
    assert.equal(restarted.body.snapshot.accepted_at, undefined, 'acceptance dropped by a new session');
    assert.equal(restarted.body.snapshot.created_at, next.body.snapshot.created_at, 'no_snapshot keeps the old one');
  });

  it('an undo is refused while another running sandbox mounts the folder', async () => {
    const dir = project(work, 'shared');
    assert.equal((await api.post('/sandboxes', { harness: 'shell', project: dir, name: 'one' })).status, 201);
    await api.post('/sandboxes/one/stop');
    // Copy mode does not mount the folder, so it may sit beside; a second mount may not.
    const copy = await api.post('/sandboxes', { harness: 'shell', project: dir, name: 'two', copy: true });
    assert.equal(copy.status, 201, copy.text);
    assert.equal(copy.body.workdir_mode, 'copy');
    assert.equal((await api.post('/sandboxes/two/accept')).body.code, 'invalid_request', 'copy mode has nothing to accept');
    assert.deepEqual((await api.post('/sandboxes/two/workspace', { kind: 'upload', files: 3, bytes: 10 })).body, { status: 'recorded' });
    assert.equal((await api.post('/sandboxes/one/workspace', { kind: 'upload' })).body.code, 'invalid_request');
    const sub = project(work, 'shared/sub');
    // A stopped sandbox does not hold its folder: a second one inside it may be created and run ...
    assert.equal((await api.post('/sandboxes', { harness: 'shell', project: sub, name: 'three' })).status, 201);
    // ... and then the first may not start around it.
    assert.equal((await api.post('/sandboxes/one/start')).body.code, 'conflict');
    await api.post('/sandboxes/three/stop');
    assert.equal((await api.post('/sandboxes/one/start')).status, 200);
    const refused = await api.post('/sandboxes/three/undo', {});
    assert.equal(refused.body.code, 'conflict', 'one mounts the folder around it and runs');
    assert.match(refused.body.error, /one/);
    assert.equal((await api.post('/sandboxes/three/undo', { preview: true })).status, 200, 'a preview changes nothing');
    await api.post('/sandboxes/one/stop');
    assert.equal((await api.post('/sandboxes/three/undo', {})).status, 200);
    for (const name of ['one', 'two', 'three']) assert.equal((await api.del(`/sandboxes/${name}`)).status, 200);
  });

  it('explains the policy of a sandbox and of run options', async () => {
    const explained = await api.get('/policy/explain?sandbox=alpha');
    assert.equal(explained.status, 200, explained.text);
    assert.equal(explained.body.pack, 'default');
    assert.equal(explained.body.vm_first_boot, false);
    assert.ok(Array.isArray(explained.body.settings));
    const run = await api.get(`/policy/explain?harness=shell&project=${encodeURIComponent(work)}&run=true&run_env=A%3D1&run_env_withheld=SECRET_X&run_credential=GH`);
    assert.deepEqual(run.body.run.env, { A: '1' });
    assert.deepEqual(run.body.run.env_withheld, ['SECRET_X']);
    assert.equal(run.body.run.first_boot, true);
    assert.equal((await api.get('/policy/explain?harness=shell&run=true&run_env=LD_PRELOAD%3Dx')).body.code, 'policy_violation');
    assert.equal((await api.get('/policy/explain?bogus=1')).body.code, 'invalid_request');
  });

  it('deletes a sandbox: its run log, state and snapshots go', async () => {
    const deleted = await api.del('/sandboxes/alpha');
    assert.equal(deleted.status, 200, deleted.text);
    assert.deepEqual(deleted.body, { name: 'alpha', deleted: true, removed_providers: ['ANTHROPIC_API_KEY', 'GITHUB_TOKEN'], warnings: [] });
    assert.equal((await api.get('/sandboxes/alpha')).body.code, 'not_found');
    assert.equal((await api.get('/sandboxes/alpha/logs')).body.code, 'not_found');
    assert.equal(existsSync(join(gw.home.dir, 'sandboxes', 'alpha')), false);
    assert.ok(fakes.workspace.calls.includes('remove alpha'));
  });
});
