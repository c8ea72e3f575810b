// `warden skill scan` and `warden-skill-scanner` as real subprocesses.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runCli } from '../helpers/gateway.js';
import { BENIGN_SKILL, MALICIOUS_SKILL, tempSkills, type TempSkills } from '../helpers/skills.js';

const SCANNER_CLI = fileURLToPath(new URL('../../dist/cli/skill-scanner.js', import.meta.url));

describe('warden skill scan', () => {
  let skills: TempSkills;
  before(() => {
    skills = tempSkills();
    skills.skill('release-notes', BENIGN_SKILL);
    skills.skill('helpful-formatter', MALICIOUS_SKILL);
  });
  after(() => skills.remove());

  test('one safe skill: exit 0 and a table naming it safe', async () => {
    const result = await runCli(['skill', 'scan', join(skills.dir, 'release-notes')], process.env);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^SAFE\s+release-notes/m);
  });

  test('a folder of skills with one unsafe: exit 1, JSON lists both', async () => {
    const result = await runCli(['skill', 'scan', skills.dir, '--format', 'json', '--use-behavioral'], process.env);
    assert.equal(result.code, 1, result.stderr);
    const report = JSON.parse(result.stdout) as { results: { skill_name: string; is_safe: boolean }[] };
    assert.deepEqual(report.results.map((r) => [r.skill_name, r.is_safe]).sort(), [['helpful-formatter', false], ['release-notes', true]]);
  });

  test('SARIF 2.1.0 output for code scanning', async () => {
    const out = join(skills.dir, 'report.sarif');
    const result = await runCli(['skill', 'scan', join(skills.dir, 'helpful-formatter'), '--format', 'sarif', '-o', out], process.env);
    assert.equal(result.code, 1);
    const sarif = JSON.parse(readFileSync(out, 'utf8')) as { version: string; runs: { tool: { driver: { rules: { id: string }[] } }; results: { ruleId: string; level: string; locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[] };
    assert.equal(sarif.version, '2.1.0');
    const run = sarif.runs[0]!;
    assert.ok(run.results.length > 0);
    assert.ok(run.results.every((r) => run.tool.driver.rules.some((rule) => rule.id === r.ruleId)), 'every result names a declared rule');
    assert.ok(run.results.some((r) => r.level === 'error'));
  });

  test('a path that does not exist: exit 2 with a message', async () => {
    const result = await runCli(['skill', 'scan', '/nonexistent/skills'], process.env);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /no such path/);
  });
});

/** Spawns the scanner CLI on a free port (`extraArgs` first) and waits for its `ready <url>` line; kills it when none comes. */
async function startScanner(extraArgs: string[] = [], spawnOptions: { env?: NodeJS.ProcessEnv; cwd?: string } = {}) {
  const proc = spawn(process.execPath, [SCANNER_CLI, ...extraArgs, '--host', '127.0.0.1', '--port', '0', '--workers', '1', '--log-level', 'warn'], { stdio: 'pipe', ...spawnOptions });
  let stdout = '';
  proc.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  try {
    for (let i = 0; i < 200 && !/ready (\S+)/.test(stdout); i++) await new Promise((r) => setTimeout(r, 50));
    const url = /ready (\S+)/.exec(stdout)?.[1];
    assert.ok(url, `no ready line: ${stdout}`);
    return { proc, url };
  } catch (err) {
    proc.kill('SIGKILL');
    throw err;
  }
}

describe('warden-skill-scanner', () => {
  test('starts on --port 0, prints its address, serves /health and stops on SIGTERM', async () => {
    const { proc, url } = await startScanner();
    try {
      assert.equal(((await (await fetch(`${url}/health`)).json()) as { status: string }).status, 'healthy');
      proc.kill('SIGTERM');
      const [code] = await once(proc, 'exit');
      assert.equal(code, 0);
    } finally {
      proc.kill('SIGKILL');
    }
  });

  test('--reload runs the server under a watcher and still stops on SIGTERM', async () => {
    const { proc, url } = await startScanner(['--reload']);
    try {
      assert.equal((await fetch(`${url}/health`)).status, 200);
      proc.kill('SIGTERM');
      await once(proc, 'exit');
      // The watched server went down with it: nothing answers on its port any more.
      let answered = true;
      for (let i = 0; i < 40 && answered; i++) {
        answered = await fetch(`${url}/health`).then(() => true, () => false);
        if (answered) await new Promise((r) => setTimeout(r, 50));
      }
      assert.equal(answered, false);
    } finally {
      proc.kill('SIGKILL');
    }
  });

  test('--help documents the flags and the environment', async () => {
    const proc = spawn(process.execPath, [SCANNER_CLI, '--help'], { stdio: 'pipe' });
    let stdout = '';
    proc.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    await once(proc, 'exit');
    for (const flag of ['--host', '--port', '--reload', '--workers', '--cors-origin', '--allow-root', 'SKILL_SCANNER_LLM_API_KEY', 'SKILL_SCANNER_ALLOWED_ROOTS', '~/.claude/skills']) assert.ok(stdout.includes(flag), flag);
  });

  test('scans are confined to the working directory and agent skill folders; --allow-root adds roots; SKILL_SCANNER_ALLOWED_ROOTS replaces the default', async () => {
    const places = Object.fromEntries(['cwd', 'home', 'extraA', 'extraB', 'env', 'other'].map((name) => [name, tempSkills()])) as Record<string, TempSkills>;
    const skill = (place: string) => places[place]!.skill(place === 'home' ? '.claude/skills/notes' : 'notes', BENIGN_SKILL);
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: places.home!.dir };
    delete env.SKILL_SCANNER_ALLOWED_ROOTS;
    const statuses = async (url: string) => {
      const seen: Record<string, number> = {};
      for (const place of Object.keys(places)) {
        const response = await fetch(`${url}/scan`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ skill_directory: skill(place) }) });
        seen[place] = response.status;
      }
      return seen;
    };
    const allowRoots = ['--allow-root', places.extraA!.dir, '--allow-root', places.extraB!.dir];
    const started: Awaited<ReturnType<typeof startScanner>>[] = [];
    try {
      const byDefault = await startScanner(allowRoots, { env, cwd: places.cwd!.dir });
      started.push(byDefault);
      assert.deepEqual(await statuses(byDefault.url), { cwd: 200, home: 200, extraA: 200, extraB: 200, env: 403, other: 403 });
      const replaced = await startScanner(allowRoots, { env: { ...env, SKILL_SCANNER_ALLOWED_ROOTS: places.env!.dir }, cwd: places.cwd!.dir });
      started.push(replaced);
      assert.deepEqual(await statuses(replaced.url), { cwd: 403, home: 403, extraA: 200, extraB: 200, env: 200, other: 403 });
    } finally {
      for (const { proc } of started) proc.kill('SIGKILL');
      for (const place of Object.values(places)) place.remove();
    }
  });
});
