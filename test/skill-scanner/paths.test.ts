// Where the skill scanner server may read, over real HTTP: confined by default to its working directory and
// the user's agent skill folders (the API has no authentication), absolute paths only, and never a kernel
// pseudo file system or a file that is not a regular file or folder (a FIFO would block the scan forever).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildScannerServer } from '../../src/skill-scanner/server.js';
import { BENIGN_SKILL, tempSkills, type TempSkills } from '../helpers/skills.js';

async function startServer(env: Record<string, string | undefined>) {
  const { app } = await buildScannerServer({ env, version: 'test', logger: false, workers: 1 });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const json = (await response.json()) as { detail?: string; findings?: { metadata?: { skipped?: { path: string; reason: string }[] } }[] };
    return { status: response.status, detail: json.detail ?? '', json };
  };
  return { app, post };
}

describe('skill scanner server: default confinement', () => {
  let home: string;
  let server: Awaited<ReturnType<typeof startServer>>;
  let elsewhere: TempSkills;

  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'warden-home-'));
    elsewhere = tempSkills();
    // No SKILL_SCANNER_ALLOWED_ROOTS: the default roots apply (this process's working directory and $HOME's agent folders).
    server = await startServer({ HOME: home });
  });
  after(async () => {
    await server?.app.close();
    rmSync(home, { recursive: true, force: true });
    elsewhere.remove();
  });

  test('a folder outside the working directory and the agent skill folders is refused with 403', async () => {
    const outside = await server.post('/scan', { skill_directory: elsewhere.skill('stray', BENIGN_SKILL) });
    assert.equal(outside.status, 403);
    assert.match(outside.detail, /outside the allowed roots/);
    assert.equal((await server.post('/scan', { skill_directory: '/etc' })).status, 403);
    assert.equal((await server.post('/scan-batch', { skills_directory: elsewhere.dir })).status, 403);
  });

  test("the agent skill folders under the user's home are allowed", async () => {
    for (const folder of ['.claude/skills', '.codex/skills', '.agents/skills', '.cursor/skills', '.gemini/skills', '.config/opencode/skills']) {
      const dir = join(home, folder, 'notes');
      mkdirSync(dir, { recursive: true });
      cpSync(elsewhere.skill('template', BENIGN_SKILL), dir, { recursive: true });
      const answer = await server.post('/scan', { skill_directory: dir });
      assert.equal(answer.status, 200, `${folder}: ${answer.detail}`);
    }
    assert.equal((await server.post('/scan', { skill_directory: join(home, '.ssh') })).status, 403, 'the rest of the home folder is not');
  });

  test('the working directory is allowed; relative paths are refused with 400, not resolved against it', async () => {
    const corpusSkill = join(process.cwd(), 'test/corpus/skills/api-smoke-test');
    assert.equal((await server.post('/scan', { skill_directory: corpusSkill, lenient: true })).status, 200);
    const relativePath = await server.post('/scan', { skill_directory: relative(process.cwd(), corpusSkill), lenient: true });
    assert.equal(relativePath.status, 400);
    assert.match(relativePath.detail, /absolute/);
  });
});

describe('skill scanner server: special file systems and special files', () => {
  let skills: TempSkills;
  let server: Awaited<ReturnType<typeof startServer>>;

  before(async () => {
    skills = tempSkills();
    // The special places are inside the roots here, so what refuses them is not the confinement.
    server = await startServer({ SKILL_SCANNER_ALLOWED_ROOTS: `/proc:/sys:/dev:${skills.dir}` });
  });
  after(async () => {
    await server?.app.close();
    skills.remove();
  });

  test('/proc, /sys and /dev are refused with 400 and a sentence, never 500 or a scan', async () => {
    for (const path of ['/proc', '/proc/self', '/proc/self/fd', '/sys', '/sys/kernel', '/dev', '/dev/shm']) {
      const answer = await server.post('/scan', { skill_directory: path, lenient: true });
      assert.equal(answer.status, 400, `${path}: ${answer.detail}`);
      assert.match(answer.detail, /special file system/, path);
    }
    for (const path of ['/proc', '/sys', '/dev']) {
      const answer = await server.post('/scan-batch', { skills_directory: path, recursive: true });
      assert.equal(answer.status, 400, `batch ${path}: ${answer.detail}`);
    }
    const policy = await server.post('/scan', { skill_directory: skills.skill('with-policy', BENIGN_SKILL), policy: '/proc/self/environ.yaml' });
    assert.equal(policy.status, 400, 'a policy path on /proc');
  });

  test('a FIFO, a socket or a device as the target is refused at once (a FIFO open would block)', async () => {
    const fifo = join(skills.dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const socketPath = join(skills.dir, 'sock');
    const listener = createServer().listen(socketPath);
    try {
      for (const [path, kind] of [[fifo, /FIFO/], [socketPath, /socket/], ['/dev/null', /special file system/]] as const) {
        const answer = await server.post('/scan', { skill_directory: path });
        assert.equal(answer.status, 400, `${path}: ${answer.detail}`);
        assert.match(answer.detail, kind);
      }
      execFileSync('mkfifo', [`${fifo}.yaml`]);
      const started = Date.now();
      const fifoPolicy = await server.post('/scan', { skill_directory: skills.skill('fifo-policy', BENIGN_SKILL), policy: `${fifo}.yaml` });
      assert.equal(fifoPolicy.status, 400, fifoPolicy.detail);
      assert.match(fifoPolicy.detail, /FIFO/);
      assert.ok(Date.now() - started < 5000, 'answered without waiting for a writer');
    } finally {
      listener.close();
    }
  });

  test('special files inside a scanned folder are never opened, and reported as not read', async () => {
    const dir = skills.skill('with-fifo', BENIGN_SKILL);
    execFileSync('mkfifo', [join(dir, 'scripts', 'pipe')]);
    const answer = await server.post('/scan', { skill_directory: dir });
    assert.equal(answer.status, 200, answer.detail);
    const skipped = (answer.json.findings ?? []).flatMap((f) => f.metadata?.skipped ?? []);
    assert.deepEqual(skipped, [{ path: 'scripts/pipe', reason: 'not a regular file' }]);
  });
});
