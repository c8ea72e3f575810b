// The warden-skill-scanner HTTP server over real HTTP: every route, status code and limit of spec document 3,
// hostile uploads built byte by byte, and background batches.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { BatchStore } from '../../src/skill-scanner/batches.js';
import { SKILL_SCANNER_LIMITS } from '../../src/skill-scanner/limits.js';
import { buildScannerServer } from '../../src/skill-scanner/server.js';
import { chatCompletion, startMockLlm } from '../helpers/mock-llm.js';
import { buildZip } from '../helpers/zip.js';
import { BENIGN_SKILL, MALICIOUS_SKILL, manifest, tempSkills, type TempSkills } from '../helpers/skills.js';

async function startServer(env: Record<string, string | undefined> = {}, corsOrigins?: string[]) {
  const { app } = await buildScannerServer({ env, version: 'test', logger: false, workers: 2, corsOrigins });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, url: `http://127.0.0.1:${(app.server.address() as { port: number }).port}` };
}

const uploadDirs = () => readdirSync(tmpdir()).filter((n) => n.startsWith('warden-upload-')).length;

function upload(url: string, zip: Buffer, fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(zip)], { type: 'application/zip' }), 'skill.zip');
  return fetch(`${url}/scan-upload`, { method: 'POST', body: form });
}

const skillZip = (files: Record<string, string>, prefix = 'skill/') => buildZip(Object.entries(files).map(([name, data]) => ({ name: prefix + name, data, deflate: true })));

describe('skill scanner server', () => {
  let server: { app: FastifyInstance; url: string };
  let skills: TempSkills;
  const post = (path: string, body: unknown) => fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  before(async () => {
    skills = tempSkills();
    // Scan paths must lie in the allowed roots; the skills of these tests are written to a temp folder.
    server = await startServer({ SKILL_SCANNER_ALLOWED_ROOTS: skills.dir });
  });
  after(async () => {
    await server.app.close();
    skills.remove();
  });

  test('GET / links the docs; /health lists the analyzers that can run; /analyzers says what each needs', async () => {
    const root = (await (await fetch(server.url)).json()) as { links: Record<string, string> };
    assert.equal(root.links.docs, '/docs');
    const health = (await (await fetch(`${server.url}/health`)).json()) as { status: string; analyzers_available: string[] };
    assert.equal(health.status, 'healthy');
    assert.ok(health.analyzers_available.includes('static'));
    assert.ok(!health.analyzers_available.includes('llm'), 'no LLM key here');
    const list = (await (await fetch(`${server.url}/analyzers`)).json()) as { analyzers: { name: string; available: boolean; requires: string }[] };
    for (const name of ['static', 'behavioral', 'pipeline', 'trigger']) assert.ok(list.analyzers.some((a) => a.name === name), name);
  });

  test('/docs and /redoc are served from local files, with the OpenAPI document generated from the routes', async () => {
    const docs = await fetch(`${server.url}/docs/`);
    assert.equal(docs.status, 200);
    const html = await docs.text();
    assert.doesNotMatch(html, /<script[^>]+src="https?:\/\//, 'no script from a CDN');
    const openapi = (await (await fetch(`${server.url}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    for (const path of ['/scan', '/scan-upload', '/scan-batch', '/scan-batch/{scan_id}', '/analyzers', '/health']) assert.ok(openapi.paths[path], path);
    const redoc = await (await fetch(`${server.url}/redoc`)).text();
    assert.match(redoc, /src="\/redoc\/redoc\.standalone\.js"/);
    const script = await fetch(`${server.url}/redoc/redoc.standalone.js`);
    assert.equal(script.status, 200);
    assert.ok((await script.arrayBuffer()).byteLength > 100_000);
  });

  test('POST /scan flags a malicious skill and passes a benign one', async () => {
    const bad = (await (await post('/scan', { skill_directory: skills.skill('bad', MALICIOUS_SKILL) })).json()) as { is_safe: boolean; findings: { category: string; analyzer: string }[]; analyzers_used: string[] };
    assert.equal(bad.is_safe, false);
    assert.ok(bad.findings.some((f) => f.category === 'data_exfiltration' || f.category === 'supply_chain_attack'));
    const good = (await (await post('/scan', { skill_directory: skills.skill('release-notes', BENIGN_SKILL), use_behavioral: true, use_trigger: true })).json()) as { is_safe: boolean; analyzers_used: string[]; scan_duration_seconds: number };
    assert.equal(good.is_safe, true);
    assert.deepEqual([...good.analyzers_used].sort(), ['behavioral', 'pipeline', 'static', 'trigger']);
  });

  test('bad paths and bad skills get clear statuses with {detail}', async () => {
    const cases: [unknown, number][] = [
      [{ skill_directory: join(skills.dir, 'nonexistent/skill') }, 404],
      [{ skill_directory: skills.skill('file-not-dir', { 'x.txt': 'x' }) + '/x.txt' }, 400],
      [{ skill_directory: skills.skill('no-manifest', { 'README.md': 'hi' }) }, 400],
      [{ skill_directory: '/tmp/a\u0000b' }, 400],
      [{ skill_directory: skills.skill('malformed', { 'SKILL.md': '---\nname: [unclosed\n---\nbody' }) }, 422],
      [{ skill_directory: skills.skill('ok-policy', BENIGN_SKILL), policy: 'paranoid' }, 400],
      [{ skill_directory: skills.skill('wants-llm', BENIGN_SKILL), use_llm: true }, 400],
      [{ skill_directory: '/tmp', unknown_flag: true }, 400],
    ];
    for (const [body, status] of cases) {
      const response = await post('/scan', body);
      assert.equal(response.status, status, JSON.stringify(body));
      assert.equal(typeof ((await response.json()) as { detail: string }).detail, 'string');
    }
    const lenient = await post('/scan', { skill_directory: skills.skill('malformed-2', { 'SKILL.md': '---\nname: [unclosed\n---\nbody' }), lenient: true });
    assert.equal(lenient.status, 200);
  });

  test('a strict policy turns a MEDIUM-only skill unsafe; quiet reports nothing below HIGH', async () => {
    const dir = skills.skill('generic-helper', { 'SKILL.md': manifest('generic-helper', 'Use this skill for any task the user asks about.') });
    const balanced = (await (await post('/scan', { skill_directory: dir, use_trigger: true })).json()) as { findings: { severity: string }[] };
    assert.ok(balanced.findings.some((f) => f.severity === 'MEDIUM' || f.severity === 'LOW'), 'the trigger analyzer notices');
    const quiet = (await (await post('/scan', { skill_directory: dir, use_trigger: true, policy: 'quiet' })).json()) as { findings: unknown[] };
    assert.equal(quiet.findings.length, 0);
    const strict = (await (await post('/scan', { skill_directory: dir, use_trigger: true, policy: 'strict' })).json()) as { is_safe: boolean };
    assert.equal(strict.is_safe, false, 'strict: MEDIUM is already unsafe');
  });

  test('uploads: a good ZIP is scanned and its temp folder removed', async () => {
    const before = uploadDirs();
    const response = await upload(server.url, skillZip(MALICIOUS_SKILL), { use_behavioral: 'true' });
    assert.equal(response.status, 200);
    const result = (await response.json()) as { is_safe: boolean; analyzers_used: string[] };
    assert.equal(result.is_safe, false);
    assert.ok(result.analyzers_used.includes('behavioral'));
    assert.equal(uploadDirs(), before);
  });

  test('uploads: hostile archives are refused and nothing is left behind', async () => {
    const before = uploadDirs();
    const refused: [string, Buffer, number][] = [
      ['not a zip', Buffer.from('plain text, not an archive'), 400],
      ['zip-slip', buildZip([{ name: 'skill/SKILL.md', data: BENIGN_SKILL['SKILL.md'] }, { name: '../evil.sh', data: 'echo pwned' }]), 400],
      ['absolute path', buildZip([{ name: '/etc/evil', data: 'x' }]), 400],
      ['symlink', buildZip([{ name: 'skill/SKILL.md', data: BENIGN_SKILL['SKILL.md'] }, { name: 'skill/link', data: '/etc/passwd', mode: 0o120777 }]), 400],
      ['501 entries', buildZip(Array.from({ length: 501 }, (_, i) => ({ name: `skill/f${i}.txt`, data: 'x' }))), 400],
      ['bomb with lying sizes', buildZip([{ name: 'skill/SKILL.md', data: BENIGN_SKILL['SKILL.md'] }, { name: 'skill/big.txt', data: Buffer.alloc(20 * 1024 * 1024), deflate: true, declaredSize: 1000 }]), 400],
    ];
    for (const [label, zip, status] of refused) {
      const response = await upload(server.url, zip);
      assert.equal(response.status, status, label);
      assert.match(((await response.json()) as { detail: string }).detail, /\w/, label);
    }
    assert.equal(uploadDirs(), before, 'no temp folder left');
  });

  test('uploads: an archive that really inflates past 200 MB is refused while unpacking', async () => {
    const zip = buildZip([
      { name: 'skill/SKILL.md', data: BENIGN_SKILL['SKILL.md'] },
      ...Array.from({ length: 3 }, (_, i) => ({ name: `skill/blob${i}.bin`, data: Buffer.alloc(70 * 1024 * 1024), deflate: true })),
    ]);
    assert.ok(zip.length < 1024 * 1024, 'the archive itself is small');
    const response = await upload(server.url, zip);
    assert.equal(response.status, 400);
    assert.match(((await response.json()) as { detail: string }).detail, /200 MB/);
  });

  test('uploads: the limit is 50 MB (50,000,000 bytes, as the spec says): exactly that is scanned, one byte more is 413', async () => {
    // A valid skill ZIP padded with a stored entry to an exact size.
    const sized = (bytes: number) => {
      const entries = (pad: number) => [{ name: 'skill/SKILL.md', data: BENIGN_SKILL['SKILL.md'] }, { name: 'skill/pad.bin', data: Buffer.alloc(pad) }];
      const zip = buildZip(entries(bytes - buildZip(entries(0)).length));
      assert.equal(zip.length, bytes);
      return zip;
    };
    const atLimit = await upload(server.url, sized(50_000_000));
    assert.equal(atLimit.status, 200, await atLimit.clone().text());
    assert.equal(((await atLimit.json()) as { skill_name: string }).skill_name, 'release-notes');
    const over = await upload(server.url, sized(50_000_001));
    assert.equal(over.status, 413);
    assert.match(((await over.json()) as { detail: string }).detail, /50 MB/);
  });

  test('a batch starts pending, runs in the background and is polled to completion', async () => {
    skills.skill('batch/one', BENIGN_SKILL);
    skills.skill('batch/two', MALICIOUS_SKILL);
    skills.skill('batch/nested/three', BENIGN_SKILL);
    const started = await post('/scan-batch', { skills_directory: join(skills.dir, 'batch'), recursive: true });
    assert.equal(started.status, 202);
    const { scan_id, status } = (await started.json()) as { scan_id: string; status: string };
    assert.equal(status, 'pending');
    let body: { status: string; results?: unknown[]; summary?: { safe: number; unsafe: number } } = { status: 'pending' };
    for (let i = 0; i < 100 && body.status !== 'completed'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      body = (await (await fetch(`${server.url}/scan-batch/${scan_id}`)).json()) as typeof body;
    }
    assert.equal(body.status, 'completed');
    assert.equal(body.results?.length, 3);
    assert.deepEqual(body.summary, { safe: 2, unsafe: 1, errors: 0 });
    assert.equal((await fetch(`${server.url}/scan-batch/00000000-0000-0000-0000-000000000000`)).status, 404);
  });
});

describe('skill scanner server options', () => {
  test('SKILL_SCANNER_ALLOWED_ROOTS confines scan paths (403 outside, without probing the disk)', async () => {
    const skills = tempSkills();
    const server = await startServer({ SKILL_SCANNER_ALLOWED_ROOTS: skills.dir });
    try {
      const inside = await fetch(`${server.url}/scan`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ skill_directory: skills.skill('ok', BENIGN_SKILL) }) });
      assert.equal(inside.status, 200);
      for (const path of ['/etc', '/nonexistent/elsewhere']) {
        const outside = await fetch(`${server.url}/scan`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ skill_directory: path }) });
        assert.equal(outside.status, 403, path);
      }
    } finally {
      await server.app.close();
      skills.remove();
    }
  });

  test('bound to loopback, a request naming another Host (DNS rebinding) is refused', async () => {
    const { request } = await import('node:http');
    const server = await startServer();
    try {
      const status = (host: string) => new Promise<number>((resolve, reject) => {
        request(`${server.url}/health`, { headers: { host } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        }).on('error', reject).end();
      });
      assert.equal(await status('attacker.example:8000'), 400);
      assert.equal(await status('localhost:8000'), 200);
      assert.equal(await status('127.0.0.1'), 200);
    } finally {
      await server.app.close();
    }
  });

  test('--cors-origin answers preflights for the listed origin only', async () => {
    const server = await startServer({}, ['https://app.example']);
    try {
      const preflight = (origin: string) => fetch(`${server.url}/scan`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } });
      assert.equal((await preflight('https://app.example')).headers.get('access-control-allow-origin'), 'https://app.example');
      assert.equal((await preflight('https://evil.example')).headers.get('access-control-allow-origin'), null);
    } finally {
      await server.app.close();
    }
  });

  test('use_llm with a reachable judge: its findings and summed token usage are in the result', async () => {
    const llm = await startMockLlm();
    const verdict = { verdict: 'unsafe', findings: [{ category: 'prompt_injection', severity: 'HIGH', title: 'Hidden instruction to the agent', description: 'SKILL.md tells the agent to hide actions from the user.', file_path: 'SKILL.md' }] };
    llm.fallback = () => ({ kind: 'json', body: chatCompletion(JSON.stringify(verdict)) });
    const skills = tempSkills();
    const server = await startServer({ SKILL_SCANNER_LLM_API_KEY: 'sk-judge', SKILL_SCANNER_LLM_BASE_URL: `${llm.url}/v1`, SKILL_SCANNER_LLM_MODEL: 'judge-mock', SKILL_SCANNER_ALLOWED_ROOTS: skills.dir });
    try {
      const response = await fetch(`${server.url}/scan`, {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ skill_directory: skills.skill('judged', BENIGN_SKILL), use_llm: true, llm_consensus_runs: 3 }),
      });
      assert.equal(response.status, 200);
      const result = (await response.json()) as { is_safe: boolean; findings: { analyzer: string; category: string }[]; llm_usage: { total_tokens: number } };
      assert.equal(llm.requests.length, 3, 'three consensus runs');
      assert.equal(result.llm_usage.total_tokens, 30);
      assert.ok(result.findings.some((f) => f.analyzer === 'llm' && f.category === 'prompt_injection'));
      assert.equal(result.is_safe, false);
      assert.equal(llm.requests[0]!.headers.authorization, 'Bearer sk-judge');
      await llm.close();
      const down = await fetch(`${server.url}/scan`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ skill_directory: skills.skill('judged-2', BENIGN_SKILL), use_llm: true }) });
      const failed = (await down.json()) as { analyzers_failed: { analyzer: string }[] };
      assert.equal(down.status, 200, 'an unreachable judge fails the analyzer, not the scan');
      assert.ok(failed.analyzers_failed.some((f) => f.analyzer === 'llm'));
    } finally {
      await server.app.close();
      skills.remove();
    }
  });

  test('the batch cache holds at most 1000 batches for one hour', () => {
    let now = 0;
    const store = new BatchStore(() => now);
    const first = store.create('/a');
    for (let i = 0; i < SKILL_SCANNER_LIMITS.maxBatches; i++) store.create(`/b${i}`);
    assert.equal(store.size, SKILL_SCANNER_LIMITS.maxBatches);
    assert.equal(store.get(first.scan_id), undefined, 'the oldest made room');
    const fresh = store.create('/c');
    now += SKILL_SCANNER_LIMITS.batchTtlMs;
    assert.equal(store.get(fresh.scan_id), undefined, 'expired after an hour');
  });
});
