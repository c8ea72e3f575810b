import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startInProcess, type InProcessGateway } from '../helpers/gateway.js';
import { EPHEMERAL_CONFIG } from '../helpers/home.js';

const TOKEN = 'routes-test-token';
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers are probed field by field
type Json = Record<string, any>;
const AUTH = { authorization: `Bearer ${TOKEN}` };

describe('health, status and connectors', () => {
  let gw: InProcessGateway;
  before(async () => {
    gw = await startInProcess(`${EPHEMERAL_CONFIG}  connector: cursor\n  connectors: [openclaw, cursor, codex]\n`, { WARDEN_GATEWAY_TOKEN: TOKEN });
  });
  after(() => gw.close());

  const get = async (path: string) => {
    const response = await fetch(`${gw.url}${path}`, { headers: AUTH });
    assert.equal(response.status, 200, path);
    return (await response.json()) as Json;
  };

  it('GET /health reports liveness, version, uptime and subsystems', async () => {
    const health = await get('/health');
    assert.equal(health.version, '0.1.0');
    assert.ok(Number.isInteger(health.uptime_ms) && health.uptime_ms >= 0);
    assert.ok(!Number.isNaN(Date.parse(health.started_at)));
    assert.equal(health.subsystems.sidecar.state, 'running');
    assert.equal(health.subsystems.audit.state, 'running');
    for (const sub of Object.values(health.subsystems) as { state: string; since: string }[]) {
      assert.ok(!Number.isNaN(Date.parse(sub.since)));
    }
    assert.equal(health.subsystems.sandbox, undefined, 'no sandbox subsystem while openshell is off');
  });

  it('GET /status adds runtime, provenance and the connector modes of every active connector', async () => {
    const status = await get('/status');
    assert.equal(status.runtime.pid, process.pid);
    assert.equal(status.runtime.data_dir, gw.home.dir);
    assert.equal(status.provenance.binary_version, '0.1.0');
    assert.match(status.provenance.config_sha256, /^[0-9a-f]{64}$/);
    assert.deepEqual(status.connector_modes.map((m: { connector: string }) => m.connector), ['cursor', 'openclaw', 'codex']);
    assert.deepEqual(status.connector_mode, status.connector_modes[0]);
    const [cursor, openclaw] = status.connector_modes;
    assert.deepEqual(cursor, {
      connector: 'cursor', mode: 'observability', policy_mode: 'action', guardrail_mode: 'action', hook_fail_mode: 'closed',
      enabled: true, hook_enforcement: true, enforcement_surface: 'agent_lifecycle_hooks', telemetry: ['hooks'], proxy_intercept: false,
    });
    assert.equal(openclaw.mode, 'guardrail');
    assert.equal(openclaw.proxy_intercept, true);
    assert.equal(openclaw.hook_enforcement, false);
    assert.equal(openclaw.enforcement_surface, 'llm_proxy');
  });

  it('GET /v1/connectors lists the eleven hook connectors and two proxy connectors', async () => {
    const { connectors } = await get('/v1/connectors');
    assert.equal(connectors.length, 13);
    const hookNames = connectors.filter((c: { hook_capable: boolean }) => c.hook_capable).map((c: { name: string }) => c.name);
    assert.deepEqual(hookNames, [
      'claudecode', 'codex', 'cursor', 'windsurf', 'geminicli', 'copilot', 'openhands', 'antigravity', 'opencode', 'hermes', 'omnigent',
    ]);
    const proxies = connectors.filter((c: { hook_capable: boolean }) => !c.hook_capable);
    assert.deepEqual(proxies.map((c: { name: string }) => c.name), ['openclaw', 'zeptoclaw']);
    for (const c of connectors) {
      assert.equal(c.source, 'builtin');
      assert.ok(c.description.length > 0);
      assert.ok(['pre_tool', 'post_tool', 'proxy'].includes(c.tool_inspection_mode));
    }
    const cursor = connectors.find((c: { name: string }) => c.name === 'cursor');
    assert.equal(cursor.primary, true);
    assert.equal(connectors.find((c: { name: string }) => c.name === 'codex').active, true);
    assert.equal(connectors.find((c: { name: string }) => c.name === 'windsurf').active, false);
  });
});

describe('sandbox subsystem in /health', () => {
  const healthOf = async (yaml: string, env: Record<string, string> = {}) => {
    const gw = await startInProcess(`${EPHEMERAL_CONFIG}${yaml}`, { WARDEN_GATEWAY_TOKEN: TOKEN, ...env });
    try {
      return ((await (await fetch(`${gw.url}/health`)).json()) as { subsystems: Json }).subsystems.sandbox;
    } finally {
      await gw.close();
    }
  };

  it('is degraded on a legacy standalone host, naming the cleanup command', async () => {
    const sandbox = await healthOf('openshell:\n  mode: standalone\n');
    assert.equal(sandbox.state, 'degraded');
    assert.match(sandbox.last_error, /legacy standalone install detected/);
  });

  it('is present with a cause when openshell is enabled but no runtime runs', async () => {
    const sandbox = await healthOf('openshell:\n  enabled: true\n', { WARDEN_BWRAP: '/nonexistent/bwrap' });
    assert.equal(sandbox.state, 'error');
    assert.ok(sandbox.last_error.length > 0);
  });
});

describe('connector configuration', () => {
  it('refuses to start with an unknown connector, naming the key', async () => {
    await assert.rejects(startInProcess(`${EPHEMERAL_CONFIG}  connector: nosuchagent\n`), /guardrail\.connector: unknown connector "nosuchagent"/);
  });
});
