// The sandbox subsystem's state: sandboxes.db across a gateway restart (reconcile), the 503 answers while the
// runtime does not run, and the health states the service reports.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadSettings } from '../../src/config/settings.js';
import { HealthRegistry } from '../../src/gateway/health.js';
import { startGateway } from '../../src/gateway/runtime.js';
import { reportSandboxHealth } from '../../src/gateway/sandbox-health.js';
import { BwrapDriver } from '../../src/sandbox/runtime/bwrap.js';
import { createSandboxService } from '../../src/sandbox/service.js';
import { startInProcess } from '../helpers/gateway.js';
import { EPHEMERAL_CONFIG, tempHome } from '../helpers/home.js';
import { FixedPolicy, MemoryWorkspace } from './fixtures.js';
import { client, ENABLED, ports, project, TOKEN, type Json } from './http.js';

describe('sandbox state across a gateway restart', () => {
  it('reconciles: a stopped sandbox is stopped, a vanished folder missing, unknown runtime state orphaned', async () => {
    const home = tempHome(ENABLED, { WARDEN_GATEWAY_TOKEN: TOKEN, WARDEN_LOG_LEVEL: 'silent' });
    const work = mkdtempSync(join(tmpdir(), 'warden-sbre-'));
    try {
      const first = await startGateway(home.env, ports());
      const api1 = client(first.sidecarUrl);
      assert.equal((await api1.post('/sandboxes', { harness: 'shell', project: project(work, 'keep'), name: 'keep' })).status, 201);
      assert.equal((await api1.post('/sandboxes', { harness: 'shell', project: project(work, 'gone'), name: 'gone' })).status, 201);
      const reconciledBefore = (await api1.get('/status')).body.last_reconcile as string;
      await first.stop();
      rmSync(join(work, 'gone'), { recursive: true });
      mkdirSync(join(home.dir, 'sandboxes', 'stray', 'runtime'), { recursive: true });
      // What a gateway killed mid-run leaves (its sandboxes die with it): the run's log and start record.
      writeFileSync(join(home.dir, 'sandboxes', 'gone', 'runtime', 'run.json'), JSON.stringify({ started_at: '2026-01-01T00:00:00.000Z' }));
      writeFileSync(join(home.dir, 'sandboxes', 'gone', 'runtime', 'run.log'), 'output before the crash\n');

      const second = await startGateway(home.env, ports());
      try {
        const api2 = client(second.sidecarUrl);
        const status = (await api2.get('/status')).body;
        assert.ok(Date.parse(status.last_reconcile) > Date.parse(reconciledBefore));
        const byName = Object.fromEntries((await api2.get('/sandboxes')).body.sandboxes.map((s: Json) => [s.name, s]));
        assert.equal(byName.keep.phase, 'stopped');
        assert.equal(byName.keep.session, 1);
        assert.equal(byName.gone.phase, 'missing');
        assert.equal(byName.stray.orphaned, true);
        const crashed = (await api2.get('/sandboxes/gone/logs')).body;
        assert.deepEqual([crashed.state, crashed.started_at, crashed.log], ['interrupted', '2026-01-01T00:00:00.000Z', 'output before the crash\n']);
        assert.equal(status.counts.orphaned, 1);
        assert.equal((await api2.get('/sandboxes/keep/logs')).body.state, 'interrupted', 'the run ended with the old gateway');
        const restarted = await api2.post('/sandboxes/keep/start');
        assert.equal(restarted.body.session, 2);
        assert.equal((await api2.post('/sandboxes/gone/start')).body.code, 'conflict');
        assert.equal((await api2.del('/sandboxes/stray')).status, 200);
        assert.equal(existsSync(join(home.dir, 'sandboxes', 'stray', 'runtime')), false);
      } finally {
        await second.stop();
      }
    } finally {
      home.remove();
      rmSync(work, { recursive: true, force: true });
    }
  });
});

describe('sandbox API while the runtime does not run', () => {
  it('answers 503 disabled when openshell is off, status still 200 with a reason', async () => {
    const gw = await startInProcess(EPHEMERAL_CONFIG, { WARDEN_GATEWAY_TOKEN: TOKEN });
    try {
      const api = client(gw.url);
      const status = await api.get('/status');
      assert.deepEqual([status.status, status.body.enabled, status.body.available], [200, false, false]);
      assert.match(status.body.reason, /openshell\.enabled/);
      for (const answer of [await api.get('/sandboxes'), await api.post('/sandboxes', { harness: 'shell', project: '/x' }), await api.get('/policy/explain')]) {
        assert.deepEqual([answer.status, answer.body.code], [503, 'disabled']);
      }
      assert.equal((await api.get('/nothing/here')).body.code, 'not_found');
    } finally {
      await gw.close();
    }
  });

  it('answers 503 unavailable when enabled without a runtime, and health says error with the cause', async () => {
    const gw = await startInProcess(ENABLED, { WARDEN_GATEWAY_TOKEN: TOKEN, WARDEN_BWRAP: '/nonexistent/bwrap' });
    try {
      const api = client(gw.url);
      const status = await api.get('/status');
      assert.deepEqual([status.status, status.body.enabled, status.body.available], [200, true, false]);
      assert.deepEqual([(await api.get('/sandboxes')).status, (await api.get('/sandboxes')).body.code], [503, 'unavailable']);
      const health = (await (await fetch(`${gw.url}/health`)).json()) as Json;
      assert.equal(health.subsystems.sandbox.state, 'error');
    } finally {
      await gw.close();
    }
  });
});

describe('sandbox service states', () => {
  const home = tempHome(ENABLED);
  const { config } = loadSettings({ env: home.env });
  const make = (overrides: Record<string, unknown>) =>
    createSandboxService({ config, home: home.dir, policy: new FixedPolicy(), workspace: new MemoryWorkspace(), ...overrides });

  it('is error with the cause when bubblewrap cannot run, and health says so', async () => {
    const service = await make({ bwrap: join(home.dir, 'no-such-bwrap') });
    assert.equal(service.state, 'error');
    assert.equal(service.manager, null);
    assert.match(service.reason!, /^openshell: /);
    const health = new HealthRegistry();
    reportSandboxHealth(health, config, 'config.yaml', 'linux', service);
    assert.equal(health.snapshot().sandbox!.state, 'error');
    assert.equal(health.snapshot().sandbox!.last_error, service.reason);
  });

  it('a runtime that fails to start a sandbox answers policy_rejected and leaves nothing running', async () => {
    const driver = new BwrapDriver(join(home.dir, 'sandboxes'), { bwrap: join(home.dir, 'no-such-bwrap') });
    const spec = { name: 'broken', imageDir: home.dir, entry: ['/bin/true'], workdir: '/', mounts: [], env: {} };
    await assert.rejects(driver.start(spec), (err: Error & { apiCode?: string }) => err.apiCode === 'policy_rejected');
    assert.equal(driver.inspect('broken').running, false);
  });

  it('is disabled on a platform the bwrap driver does not support, and when openshell is off', async () => {
    const mac = await make({ platform: 'darwin' });
    assert.equal(mac.state, 'disabled');
    const health = new HealthRegistry();
    reportSandboxHealth(health, config, 'config.yaml', 'darwin', mac);
    assert.deepEqual([health.snapshot().sandbox!.state, health.snapshot().sandbox!.details], ['disabled', { reason: mac.reason }]);
    const off = await make({ config: { ...config, openshell: { ...config.openshell, enabled: false } } });
    assert.deepEqual([off.state, off.reason], ['disabled', 'openshell.enabled is false']);
  });

  it('is running with the driver, the limit mechanism and the hook ingress folder; without an egress proxy, egress not configured', async () => {
    const service = await make({});
    try {
      assert.equal(service.state, 'running', service.reason ?? '');
      const health = new HealthRegistry();
      reportSandboxHealth(health, config, 'config.yaml', 'linux', service);
      const sandbox = health.snapshot().sandbox!;
      assert.equal(sandbox.state, 'running');
      assert.equal(sandbox.details!.compute_driver, 'bwrap');
      assert.match(String(sandbox.details!.egress), /not configured/);
      assert.equal(sandbox.details!.ingress, service.ingress!.address);
      assert.ok(existsSync(service.ingress!.address), 'the ingress folder exists while the service runs');
    } finally {
      await service.close();
      home.remove();
    }
  });
});
