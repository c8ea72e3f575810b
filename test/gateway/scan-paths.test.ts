// Where the sidecar's scan routes may read, over real HTTP: absolute paths only, confined by default to the
// configured skill and plugin roots, scanner.allowed_roots, the user's agent skill folders and
// SKILL_SCANNER_ALLOWED_ROOTS; never a kernel pseudo file system or a special file.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { authHeaders, startInProcess, type InProcessGateway } from '../helpers/gateway.js';
import { BENIGN_SKILL, tempSkills, type TempSkills } from '../helpers/skills.js';

const ROUTES = [['/v1/skill/scan', 'target'], ['/v1/plugin/scan', 'target'], ['/api/v1/scan/code', 'path']] as const;

function poster(gw: InProcessGateway) {
  return async (route: string, field: string, path: string) => {
    const response = await fetch(`${gw.url}${route}`, { method: 'POST', headers: authHeaders(gw.token), body: JSON.stringify({ [field]: path }) });
    return { status: response.status, error: ((await response.json()) as { error?: string }).error ?? '' };
  };
}

describe('sidecar scan routes: confinement', () => {
  let gw: InProcessGateway;
  let home: string;
  let configured: TempSkills;
  let project: TempSkills;
  let elsewhere: TempSkills;
  let post: ReturnType<typeof poster>;

  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'warden-home-'));
    configured = tempSkills();
    project = tempSkills();
    elsewhere = tempSkills();
    gw = await startInProcess(`config_version: 9
gateway:
  api_port: 0
guardrail:
  port: 0
scanner:
  skill_roots: ["${configured.dir}"]
  plugin_roots: []
  allowed_roots: ["${project.dir}"]
`, { HOME: home, SKILL_SCANNER_ALLOWED_ROOTS: '' });
    post = poster(gw);
  });
  after(async () => {
    await gw?.close();
    for (const t of [configured, project, elsewhere]) t.remove();
    rmSync(home, { recursive: true, force: true });
  });

  test('a relative path is refused with 400, never resolved against the gateway working directory', async () => {
    const inCwd = relative(process.cwd(), join(process.cwd(), 'test/corpus/skills/api-smoke-test'));
    for (const [route, field] of ROUTES) {
      const answer = await post(route, field, inCwd);
      assert.equal(answer.status, 400, `${route}: ${answer.error}`);
      assert.match(answer.error, /absolute/, route);
    }
  });

  test('a folder outside every root is refused with 403, before the disk is touched', async () => {
    for (const [route, field] of ROUTES) {
      for (const path of [elsewhere.skill('stray', BENIGN_SKILL), '/etc', '/nonexistent/elsewhere', process.cwd()]) {
        const answer = await post(route, field, path);
        assert.equal(answer.status, 403, `${route} ${path}: ${answer.error}`);
      }
    }
  });

  test('skill_roots, allowed_roots and the agent skill folders under $HOME are scanned', async () => {
    const agentSkill = join(home, '.codex/skills/notes');
    mkdirSync(agentSkill, { recursive: true });
    cpSync(elsewhere.skill('template', BENIGN_SKILL), agentSkill, { recursive: true });
    for (const path of [configured.skill('notes', BENIGN_SKILL), project.skill('app', { 'src/index.js': 'console.log(1)\n' }), agentSkill]) {
      const answer = await post('/api/v1/scan/code', 'path', path);
      assert.equal(answer.status, 200, `${path}: ${answer.error}`);
    }
    assert.equal((await post('/v1/skill/scan', 'target', join(configured.dir, 'missing'))).status, 404, 'missing inside a root');
  });
});

describe('sidecar scan routes: special file systems', () => {
  let gw: InProcessGateway;
  let skills: TempSkills;
  let post: ReturnType<typeof poster>;

  before(async () => {
    skills = tempSkills();
    // The special places are inside the roots here, so what refuses them is not the confinement.
    gw = await startInProcess(undefined, { SKILL_SCANNER_ALLOWED_ROOTS: `/proc:/sys:/dev:${skills.dir}` });
    post = poster(gw);
  });
  after(async () => {
    await gw?.close();
    skills.remove();
  });

  test('/proc, /sys, /dev and a FIFO are refused with 400 and a sentence on every scan route', async () => {
    const fifo = join(skills.dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    for (const [route, field] of ROUTES) {
      for (const [path, says] of [['/proc', /special file system/], ['/proc/self', /special file system/], ['/sys/kernel', /special file system/], ['/dev', /special file system/], [fifo, /FIFO/]] as const) {
        const answer = await post(route, field, path);
        assert.equal(answer.status, 400, `${route} ${path}: ${answer.error}`);
        assert.match(answer.error, says, `${route} ${path}`);
      }
    }
  });
});
