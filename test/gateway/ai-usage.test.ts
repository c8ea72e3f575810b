// The AI usage discovery routes on the real sidecar, over HTTP, with the fixture home folder
// (test/helpers/ai-home.ts) as HOME and the fake Ollama's port in `ai_discovery.probe_ports`: an on-demand scan,
// the snapshot, components with their locations and history (names with `/` and `@`, URL-encoded), the
// scanner's and external reports (validated, confidences recomputed), the confidence policy and its dry run,
// and the error answers.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AuditReader } from '../../src/audit/reader.js';
import { aiHome, SECRET_KEY_VALUE, type AiHome } from '../helpers/ai-home.js';
import { authHeaders, startInProcess, type InProcessGateway } from '../helpers/gateway.js';

describe('AI usage routes', () => {
  let fx: AiHome;
  let gw: InProcessGateway;
  const url = (path: string) => `${gw.url}${path}`;
  const get = (path: string) => fetch(url(path), { headers: authHeaders(gw.token) });
  const post = (path: string, body?: unknown) =>
    fetch(url(path), { method: 'POST', headers: authHeaders(gw.token), ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

  before(async () => {
    fx = await aiHome();
    gw = await startInProcess(
      `config_version: 9\ngateway:\n  api_port: 0\nguardrail:\n  port: 0\nai_discovery:\n  roots: ["${fx.projects}"]\n  probe_ports: [${fx.ollamaPort}]\n`,
      { HOME: fx.home, OPENAI_API_KEY: SECRET_KEY_VALUE },
    );
  });
  after(async () => {
    await gw.close();
    await fx.close();
  });

  test('before any scan: an empty snapshot; a component no scan saw is 404', async () => {
    const response = await get('/api/v1/ai-usage');
    assert.equal(response.status, 200);
    const snapshot = (await response.json()) as { scan_id: null; summary: { agents: number }; packs: { name: string }[] };
    assert.equal(snapshot.scan_id, null);
    assert.equal(snapshot.summary.agents, 0);
    assert.deepEqual(snapshot.packs.map((p) => p.name), ['default']);
    const missing = await get('/api/v1/ai-usage/components/npm/openai/locations');
    assert.equal(missing.status, 404);
    assert.equal(((await missing.json()) as { code: string }).code, 'WARDEN_ERR_DISCOVERY_COMPONENT_UNKNOWN');
  });

  test('POST /scan answers the recorded scan; the snapshot, components, locations and history follow', async () => {
    const response = await post('/api/v1/ai-usage/scan');
    assert.equal(response.status, 200);
    const text = await response.text();
    assert.ok(!text.includes(SECRET_KEY_VALUE));
    const report = JSON.parse(text) as { scan_id: string; signals: { id: string; confidence: { level: string } }[] };
    const level = (id: string) => report.signals.find((s) => s.id === id)?.confidence.level;
    assert.equal(level('local_model:ollama'), 'high');
    assert.equal(level('agent:claude-code'), 'high');
    assert.equal(level('provider_key:OPENAI_API_KEY'), 'low');

    const snapshot = (await (await get('/api/v1/ai-usage')).json()) as {
      scan_id: string; summary: { agents: number; local_models: number; confidence: { high: number } };
      agents: { id: string }[]; processes: { name: string }[]; endpoints: { kind: string }[]; local_models: { model: string; endpoint: string }[]; components: unknown[];
    };
    assert.equal(snapshot.scan_id, report.scan_id);
    assert.ok(snapshot.agents.some((a) => a.id === 'agent:aider'));
    assert.ok(snapshot.processes.some((p) => p.name === 'aider'));
    assert.equal(snapshot.local_models.filter((m) => m.endpoint === `http://127.0.0.1:${fx.ollamaPort}`).length, 2);
    assert.equal(snapshot.summary.local_models, snapshot.local_models.length);
    assert.ok(snapshot.summary.confidence.high >= 2);
    assert.deepEqual([...new Set(snapshot.endpoints.map((e) => e.kind))].sort(), ['local-model', 'mcp']);

    const npm = (await (await get('/api/v1/ai-usage/components?ecosystem=npm')).json()) as { components: { name: string; present: boolean }[] };
    assert.deepEqual(npm.components.map((c) => `${c.name}:${c.present}`), ['@anthropic-ai/sdk:true', 'openai:true']);

    const scoped = await get(`/api/v1/ai-usage/components/npm/${encodeURIComponent('@anthropic-ai/sdk')}/locations`);
    assert.equal(scoped.status, 200);
    const where = (await scoped.json()) as { locations: string[]; versions: string[]; scan_id: string };
    assert.equal(where.scan_id, report.scan_id);
    assert.deepEqual(where.versions, ['0.30.0']);
    assert.ok(where.locations[0]!.endsWith('package.json'));
    const goModule = await get(`/api/v1/ai-usage/components/go/${encodeURIComponent('github.com/sashabaranov/go-openai')}/history?limit=5`);
    assert.equal(goModule.status, 200);
    const history = (await goModule.json()) as { present: boolean; scans: { scan_id: string; present: boolean }[] };
    assert.equal(history.present, true);
    assert.deepEqual(history.scans.map((s) => s.scan_id), [report.scan_id]);
    await gw.gateway.flushAudit();
    const reader = new AuditReader(gw.gateway.settings.paths.auditDb);
    const rows = [...reader.events()];
    reader.close();
    assert.ok(rows.some((r) => r.action === 'ai-usage-scan'));
  });

  test('reports: the scanner\'s and an external one are recorded with confidences computed here; bad ones refused', async () => {
    const signal = {
      id: 'agent:windsurf', category: 'agent', name: 'Windsurf',
      evidence: [{ kind: 'process', detail: 'windsurf (pid 42)' }, { kind: 'config_path', detail: '~/.codeium/windsurf' }],
    };
    const scanner = await post('/api/v1/agents/discovery', { host: 'laptop-7', signals: [signal], processes: [{ pid: 42, name: 'windsurf', agent: 'windsurf' }] });
    assert.equal(scanner.status, 200);
    const recorded = (await scanner.json()) as { source: string; host: string; signals: { confidence: { score: number; level: string } }[] };
    assert.deepEqual([recorded.source, recorded.host], ['scanner', 'laptop-7']);
    assert.deepEqual(recorded.signals[0]!.confidence, { score: 0.82, level: 'high' }); // 1 - 0.3 * 0.6

    const forged = await post('/api/v1/ai-usage/discovery', { signals: [{ ...signal, confidence: { score: 0, level: 'low' } }] });
    assert.equal(forged.status, 400, 'a caller cannot state a confidence');
    const leaked = `ghp_${'Zq7'.repeat(12)}`;
    const external = await post('/api/v1/ai-usage/discovery', {
      signals: [{ id: 'sdk:npm:openai', category: 'sdk', name: 'openai', evidence: [{ kind: 'dependency', detail: 'openai 5.0.0', path: '/srv/app/package.json' }] },
        { id: 'provider_key:ANTHROPIC_API_KEY', category: 'provider_key', name: 'ANTHROPIC_API_KEY', evidence: [{ kind: 'env_key', detail: `ANTHROPIC_API_KEY is ${leaked}` }] }],
      components: [{ ecosystem: 'npm', name: 'openai', versions: ['5.0.0'], locations: ['/srv/app/package.json'] }],
    });
    assert.equal(external.status, 200);
    const stored = await external.text();
    assert.equal((JSON.parse(stored) as { source: string }).source, 'external');
    assert.ok(!stored.includes(leaked) && stored.includes('<redacted len='), 'a key a caller sent is stored redacted');
    assert.ok(!(await (await get('/api/v1/ai-usage')).text()).includes(leaked));
    const locations = (await (await get('/api/v1/ai-usage/components/npm/openai/locations')).json()) as { locations: string[] };
    assert.deepEqual(locations.locations, ['/srv/app/package.json']);
    const removed = (await (await get(`/api/v1/ai-usage/components/npm/${encodeURIComponent('@anthropic-ai/sdk')}/history`)).json()) as { present: boolean; scans: { present: boolean }[] };
    assert.equal(removed.present, false);
    assert.deepEqual(removed.scans.map((s) => s.present), [false, false, true]);

    for (const bad of [
      { signals: [{ ...signal, evidence: [{ kind: 'rumour', detail: 'x' }] }] },
      { signals: [{ ...signal, evidence: [] }] },
      { signals: [], extra: true },
      { components: [{ ecosystem: 'NPM!', name: 'x', versions: [], locations: [] }] },
    ]) {
      const response = await post('/api/v1/ai-usage/discovery', bad);
      assert.equal(response.status, 400, JSON.stringify(bad));
      assert.equal(((await response.json()) as { code: string }).code, 'WARDEN_ERR_REQUEST_INVALID');
    }
  });

  test('the confidence policy in force, and a dry-run validation that changes nothing', async () => {
    const policy = (await (await get('/api/v1/ai-usage/confidence/policy')).json()) as { source: string; digest: string; policy: { thresholds: { high: number } }; problems: string[] };
    assert.deepEqual([policy.source, policy.policy.thresholds.high, policy.problems], ['shipped', 0.8, []]);
    assert.match(policy.digest, /^sha256:[0-9a-f]{64}$/);
    const before = await (await get('/api/v1/ai-usage')).text();

    const invalid = await post('/api/v1/ai-usage/confidence/policy/validate', { content: 'version: 2\nweights: {}\nthresholds: {medium: 0.5, high: 0.8}\n' });
    assert.equal(invalid.status, 200);
    const errors = (await invalid.json()) as { valid: boolean; errors: string[] };
    assert.equal(errors.valid, false);
    assert.ok(errors.errors.some((e) => e.startsWith('policy:1: version')), errors.errors.join('\n'));
    const candidate = 'version: 1\nweights: {process: 0.1, config_path: 0.1, ide_extension: 0.1, mcp_server: 0.1, listening_port: 0.1, api_probe: 0.1, dependency: 0.1, env_key: 0.1}\nthresholds: {medium: 0.5, high: 0.8}\n';
    const valid = (await (await post('/api/v1/ai-usage/confidence/policy/validate', { content: candidate })).json()) as {
      valid: boolean; scores: { id: string; current: { level: string }; candidate: { level: string; score: number } }[];
    };
    assert.equal(valid.valid, true);
    const sdk = valid.scores.find((s) => s.id === 'sdk:npm:openai')!;
    assert.deepEqual([sdk.current.level, sdk.candidate.level, sdk.candidate.score], ['medium', 'low', 0.1]);
    assert.equal(await (await get('/api/v1/ai-usage')).text(), before);
    assert.equal((await post('/api/v1/ai-usage/confidence/policy/validate', {})).status, 400);
  });

  test('the token is required, and the scan takes no body', async () => {
    assert.equal((await fetch(url('/api/v1/ai-usage'))).status, 401);
    assert.equal((await fetch(url('/api/v1/ai-usage/scan'), { method: 'POST', headers: { 'x-warden-client': 't', 'content-type': 'application/json' } })).status, 401);
    const withBody = await post('/api/v1/ai-usage/scan', { roots: ['/'] });
    assert.equal(withBody.status, 400);
    assert.equal(((await withBody.json()) as { code: string }).code, 'WARDEN_ERR_REQUEST_BODY_UNEXPECTED');
  });
});

describe('AI usage routes with discovery off', () => {
  test('scans and reports answer 409; the snapshot stays readable', async () => {
    const gw = await startInProcess('config_version: 9\ngateway:\n  api_port: 0\nguardrail:\n  port: 0\nai_discovery:\n  enabled: false\n');
    try {
      const scan = await fetch(`${gw.url}/api/v1/ai-usage/scan`, { method: 'POST', headers: authHeaders(gw.token) });
      assert.equal(scan.status, 409);
      assert.equal(((await scan.json()) as { code: string }).code, 'WARDEN_ERR_DISCOVERY_DISABLED');
      const report = await fetch(`${gw.url}/api/v1/agents/discovery`, { method: 'POST', headers: authHeaders(gw.token), body: '{"signals":[]}' });
      assert.equal(report.status, 409);
      assert.equal((await fetch(`${gw.url}/api/v1/ai-usage`, { headers: authHeaders(gw.token) })).status, 200);
    } finally {
      await gw.close();
    }
  });
});
