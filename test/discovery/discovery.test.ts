// AI usage discovery on a fixture home folder (test/helpers/ai-home.ts), through DiscoveryService with scans in
// their worker thread: what is found and with what confidence, that nothing outside the roots or behind a link
// is read and no key value is reported, history across scans (first/last seen, a removed component), signature
// packs pinned by digest (a tampered or unpinned pack refused), the confidence policy override and its dry-run
// validation, the walk's bounds and the special file system skip.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DiscoveryService, type DiscoverySettings } from '../../src/discovery/service.js';
import { loadSignatures } from '../../src/discovery/packs.js';
import { runScanInWorker, SCAN_GRACE_MS } from '../../src/discovery/run.js';
import { extensionFolder, scanHost } from '../../src/discovery/scan.js';
import type { ScanReport } from '../../src/discovery/types.js';
import { skippedMountPoints, walkRoots } from '../../src/discovery/walk.js';
import { aiHome, SECRET_KEY_VALUE, type AiHome } from '../helpers/ai-home.js';

const settings = (fx: AiHome, extra: Partial<DiscoverySettings> = {}): DiscoverySettings => ({
  enabled: true, roots: [fx.projects], max_files: 50_000, timeout_ms: 30_000, interval_minutes: 0, probe_ports: [fx.ollamaPort],
  signature_packs: [], signature_pack_digests: {}, confidence_policy: '', ...extra,
});

const signal = (report: ScanReport, id: string) => report.signals.find((s) => s.id === id);
const componentNames = (report: ScanReport) => report.components.map((c) => `${c.ecosystem}/${c.name}`).sort();
const sha256 = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

describe('AI usage discovery', () => {
  let fx: AiHome;
  let wardenHome: string;
  let service: DiscoveryService;
  let first: ScanReport;
  /** A second data directory, for the services a test configures differently (their scans run in this thread). */
  let side: string;

  before(async () => {
    fx = await aiHome();
    wardenHome = mkdtempSync(join(tmpdir(), 'warden-discovery-'));
    side = mkdtempSync(join(tmpdir(), 'warden-discovery-side-'));
    service = new DiscoveryService({ settings: settings(fx), wardenHome, home: fx.home, env: { OPENAI_API_KEY: SECRET_KEY_VALUE, ANTHROPIC_API_KEY: ' ', PATH: '/bin' } });
    first = await service.scan();
  });
  after(async () => {
    await service.close();
    await fx.close();
    rmSync(wardenHome, { recursive: true, force: true });
    rmSync(side, { recursive: true, force: true });
  });

  test('agents from their folders, MCP configurations, extensions and processes, with confidence levels', () => {
    const claude = signal(first, 'agent:claude-code')!;
    assert.deepEqual([...new Set(claude.evidence.map((e) => e.kind))].sort(), ['config_path', 'ide_extension', 'mcp_server']);
    assert.equal(claude.confidence.level, 'high'); // 1 - 0.6 * 0.4 * 0.5 = 0.88
    assert.equal(claude.confidence.score, 0.88);
    assert.equal(signal(first, 'agent:codex')!.confidence.level, 'medium'); // folder and MCP server: 0.7
    assert.equal(signal(first, 'agent:gemini-cli')!.confidence.level, 'low'); // folder only: 0.4
    assert.equal(signal(first, 'agent:copilot')!.confidence.level, 'medium'); // extension only: 0.6
    assert.equal(signal(first, 'agent:cursor'), undefined);
    const aider = signal(first, 'agent:aider')!;
    assert.equal(aider.evidence[0]!.kind, 'process');
    assert.ok(first.processes.some((p) => p.pid === fx.aiderPid && p.name === 'aider' && p.agent === 'aider'));
  });

  test('IDE extensions by marketplace id; an extension that is not AI is not reported', () => {
    assert.ok(signal(first, 'ide_extension:github.copilot'));
    assert.ok(signal(first, 'ide_extension:anthropic.claude-code'));
    assert.ok(!JSON.stringify(first).includes('ms-python'));
    assert.deepEqual(extensionFolder('anthropic.claude-code-2.0.1-linux-x64'), { id: 'anthropic.claude-code', version: '2.0.1-linux-x64' });
    assert.equal(extensionFolder('.obsolete'), undefined);
  });

  test('MCP servers from the agents\' files and a project file; a remote server reported by origin only', () => {
    assert.equal(signal(first, 'mcp_server:github')!.agent, 'claude-code');
    assert.equal(signal(first, 'mcp_server:docs')!.agent, 'codex');
    assert.ok(signal(first, 'mcp_server:filesystem')!.evidence[0]!.path!.endsWith(join('app', '.mcp.json')));
    assert.deepEqual(first.endpoints.find((e) => e.kind === 'mcp'), { url: 'https://mcp.example.com', kind: 'mcp', name: 'docs' });
    assert.ok(!JSON.stringify(first).includes('hidden-query'));
  });

  test('a local Ollama found by its API on a configured loopback port, with its models', () => {
    // Filtered to the fake server's port: a machine running a real Ollama on 11434 adds its own.
    const ollama = signal(first, 'local_model:ollama')!;
    assert.deepEqual(ollama.evidence.filter((e) => e.detail.includes(String(fx.ollamaPort))).map((e) => e.detail), [
      `127.0.0.1:${fx.ollamaPort}`, `GET /api/tags on port ${fx.ollamaPort}: 2 models`,
    ]);
    assert.equal(ollama.confidence.level, 'high');
    const endpoint = `http://127.0.0.1:${fx.ollamaPort}`;
    assert.deepEqual(first.local_models.filter((m) => m.endpoint === endpoint).map((m) => `${m.server}:${m.model}`), ['ollama:llama3.2:1b', 'ollama:qwen2.5-coder:7b']);
    assert.ok(first.endpoints.some((e) => e.kind === 'local-model' && e.url === endpoint && e.name === 'Ollama'));
  });

  test('AI SDKs in every manifest kind; node_modules and a link out of the root are not read', () => {
    assert.deepEqual(componentNames(first).filter((n) => !n.startsWith('ide-extension/') && !n.startsWith('mcp/')), [
      'cargo/async-openai', 'go/github.com/cohere-ai/cohere-go/v2', 'go/github.com/sashabaranov/go-openai',
      'npm/@anthropic-ai/sdk', 'npm/openai', 'pypi/anthropic', 'pypi/langchain-core', 'pypi/openai',
    ]);
    const npmOpenai = first.components.find((c) => c.ecosystem === 'npm' && c.name === 'openai')!;
    assert.deepEqual(npmOpenai.locations, [join(fx.projects, 'web', 'package.json')]);
    assert.deepEqual(first.components.find((c) => c.ecosystem === 'pypi' && c.name === 'anthropic')!.versions, ['>=0.3']);
    assert.ok(!JSON.stringify(first).includes(fx.outside), 'nothing behind the link');
    assert.ok(!componentNames(first).includes('npm/langchain'), 'node_modules is not a project');
  });

  test('provider keys by name only: the value is never reported, an empty variable is not a key', () => {
    assert.equal(signal(first, 'provider_key:OPENAI_API_KEY')!.confidence.level, 'low');
    assert.equal(signal(first, 'provider_key:ANTHROPIC_API_KEY'), undefined);
    assert.ok(!JSON.stringify(first).includes(SECRET_KEY_VALUE));
    assert.ok(!JSON.stringify(service.snapshot()).includes(SECRET_KEY_VALUE));
  });

  test('history: first and last seen across scans, a removed component no longer present', async () => {
    unlinkSync(join(fx.projects, 'rs', 'Cargo.toml'));
    const second = await service.scan();
    try {
      assert.ok(!componentNames(second).includes('cargo/async-openai'));
      const removed = service.history('cargo', 'async-openai', 50)!;
      assert.equal(removed.present, false);
      assert.equal(removed.first_seen, first.finished_at);
      assert.equal(removed.last_seen, first.finished_at);
      assert.deepEqual(removed.scans.map((s) => [s.scan_id, s.present]), [[second.scan_id, false], [first.scan_id, true]]);
      const kept = service.components().find((c) => c.ecosystem === 'npm' && c.name === 'openai')!;
      assert.deepEqual([kept.first_seen, kept.last_seen, kept.present], [first.finished_at, second.finished_at, true]);
      assert.equal(service.locations('cargo', 'async-openai')!.scan_id, first.scan_id);
      assert.equal(service.locations('npm', 'nothing'), undefined);
      assert.equal(service.snapshot().scan_id, second.scan_id);
    } finally {
      writeFileSync(join(fx.projects, 'rs', 'Cargo.toml'), '[dependencies]\nasync-openai = "0.20"\n');
    }
  });

  test('signature packs: a pinned operator pack is used; tampered or unpinned packs are refused and reported', async () => {
    const packText = 'name: extra\nversion: "1"\nagents:\n  - id: fancy-agent\n    name: Fancy Agent\n    config_paths: ["~/.fancy"]\n';
    mkdirSync(join(side, 'signature-packs'), { recursive: true });
    writeFileSync(join(side, 'signature-packs', 'extra.yaml'), packText);
    writeFileSync(join(side, 'signature-packs', 'unpinned.yaml'), packText.replace('extra', 'unpinned'));
    mkdirSync(join(fx.home, '.fancy'), { recursive: true });
    const packs = ['signature-packs/extra.yaml', 'signature-packs/unpinned.yaml'];
    const withPack = (pin: string) => new DiscoveryService({
      settings: settings(fx, { roots: [], probe_ports: [], signature_packs: packs, signature_pack_digests: { 'signature-packs/extra.yaml': pin } }), wardenHome: side, home: fx.home, env: {}, runner: scanHost,
    });
    const pinned = withPack(sha256(packText));
    const good = await pinned.scan();
    await pinned.close();
    assert.ok(signal(good, 'agent:fancy-agent'));
    assert.deepEqual(good.packs.map((p) => `${p.name}:${p.source}`), ['default:shipped', 'extra:signature-packs/extra.yaml']);
    assert.deepEqual(good.packs_refused, [{ path: 'signature-packs/unpinned.yaml', reason: 'no digest pinned in ai_discovery.signature_pack_digests' }]);

    writeFileSync(join(side, 'signature-packs', 'extra.yaml'), packText.replace('Fancy Agent', 'Fancy Agent (tampered)'));
    const tamperedService = withPack(sha256(packText));
    const tampered = await tamperedService.scan();
    const snapshot = tamperedService.snapshot();
    await tamperedService.close();
    assert.equal(signal(tampered, 'agent:fancy-agent'), undefined);
    assert.match(tampered.packs_refused[0]!.reason, /^digest sha256:[0-9a-f]{64} differs from the pinned sha256:/);
    assert.deepEqual(snapshot.packs_refused.map((p) => p.path), packs);
  });

  test('confidence policy: an operator file changes the levels; a broken one leaves the shipped one with its problems', async () => {
    const policyText = 'version: 1\nweights: {process: 0.9, config_path: 0.9, ide_extension: 0.6, mcp_server: 0.5, listening_port: 0.2, api_probe: 0.8, dependency: 0.6, env_key: 0.3}\nthresholds: {medium: 0.5, high: 0.85}\n';
    writeFileSync(join(side, 'confidence.yaml'), policyText);
    writeFileSync(join(side, 'broken.yaml'), 'version: 1\nweights: {process: 2}\nthresholds: {medium: 0.9, high: 0.5}\n');
    const custom = new DiscoveryService({ settings: settings(fx, { roots: [], probe_ports: [], confidence_policy: 'confidence.yaml' }), wardenHome: side, home: fx.home, env: {}, runner: scanHost });
    const report = await custom.scan();
    assert.equal(custom.policy().source, 'confidence.yaml');
    await custom.close();
    assert.equal(signal(report, 'agent:gemini-cli')!.confidence.level, 'high'); // folder only, now 0.9
    const broken = new DiscoveryService({ settings: settings(fx, { confidence_policy: 'broken.yaml' }), wardenHome: side, home: fx.home, env: {}, runner: scanHost });
    const active = broken.policy();
    await broken.close();
    assert.equal(active.source, 'shipped');
    assert.ok(active.problems.some((p) => p.includes('weights.process')), active.problems.join('\n'));
  });

  test('dry-run validation: errors of a bad candidate, the scores a good one would give, nothing changed', () => {
    const before = service.snapshot();
    const bad = service.validatePolicy('version: 1\nweights: {process: 1.5}\nthresholds: {medium: 0.5, high: 0.8}\nextra: 1\n');
    assert.equal(bad.valid, false);
    assert.ok(bad.errors.some((e) => e.includes('weights.process')), bad.errors.join('\n'));
    assert.ok(bad.errors.some((e) => e.includes('weights: ') || e.includes('config_path')), bad.errors.join('\n'));
    assert.ok(bad.errors.some((e) => e.includes('extra: unknown key')), bad.errors.join('\n'));
    const inverted = service.validatePolicy('version: 1\nweights: {process: 0.7, config_path: 0.4, ide_extension: 0.6, mcp_server: 0.5, listening_port: 0.2, api_probe: 0.8, dependency: 0.6, env_key: 0.3}\nthresholds: {medium: 0.9, high: 0.8}\n');
    assert.match(inverted.errors[0]!, /thresholds.medium: 0.9 must be below thresholds.high/);
    const good = service.validatePolicy('version: 1\nweights: {process: 0.7, config_path: 0.4, ide_extension: 0.6, mcp_server: 0.5, listening_port: 0.2, api_probe: 0.8, dependency: 0.6, env_key: 0.95}\nthresholds: {medium: 0.5, high: 0.9}\n');
    assert.equal(good.valid, true);
    const key = good.scores.find((s) => s.id === 'provider_key:OPENAI_API_KEY')!;
    assert.deepEqual([key.current.level, key.candidate.level], ['low', 'high']);
    assert.deepEqual(service.snapshot(), before);
  });

  test('the walk stops at max_files and says so; a special or network mount is skipped', async () => {
    const bounded = walkRoots([fx.projects], 3, Date.now() + 10_000);
    assert.equal(bounded.truncated.files, true);
    assert.ok(bounded.entries <= 4);
    const mountinfo = join(wardenHome, 'mountinfo');
    const mount = join(fx.projects, 'py');
    writeFileSync(mountinfo, `36 35 98:0 / / rw - ext4 /dev/root rw\n40 36 0:45 / ${mount.replace(/ /g, '\\040')} rw,relatime - nfs4 server:/export rw\n`);
    const skipped = skippedMountPoints(mountinfo);
    assert.deepEqual([...skipped], [mount]);
    const walked = walkRoots([fx.projects], 1000, Date.now() + 10_000, skipped);
    assert.ok(!walked.files.some((f) => f.startsWith(mount)));
    assert.ok(walked.files.some((f) => f.endsWith('go.mod')));
    assert.deepEqual(walkRoots(['/proc'], 1000, Date.now() + 10_000).files, []);
    const expired = walkRoots([fx.projects], 1000, Date.now() - 1);
    assert.equal(expired.truncated.time, true);
  });

  test('a scan still busy past its deadline and the grace is stopped: 504', async () => {
    const input = { home: fx.home, roots: [], maxEntries: 1, deadline: Date.now() - SCAN_GRACE_MS, probePorts: [], envKeysSet: [], signatures: loadSignatures({ signature_packs: [], signature_pack_digests: {} }, side, fx.home) };
    await assert.rejects(runScanInWorker(input), { code: 'WARDEN_ERR_DISCOVERY_SCAN_TIMEOUT', statusCode: 504 });
  });

  test('closing the service stops a running scan at once', async () => {
    const closing = new DiscoveryService({ settings: settings(fx, { probe_ports: [] }), wardenHome: side, home: fx.home, env: {} });
    const scan = closing.scan();
    await closing.close();
    await assert.rejects(scan, { code: 'WARDEN_ERR_DISCOVERY_SCAN_FAILED', statusCode: 503 });
  });

  test('off: scans are refused', async () => {
    const off = new DiscoveryService({ settings: settings(fx, { enabled: false }), wardenHome: side, home: fx.home, env: {} });
    await assert.rejects(off.scan(), { code: 'WARDEN_ERR_DISCOVERY_DISABLED', statusCode: 409 });
    await off.close();
  });
});
