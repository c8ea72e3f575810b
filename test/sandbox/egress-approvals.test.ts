// Egress, approvals and the activity stream joined as `warden start` runs them: a real gateway whose sandbox
// service builds its own egress proxy (the firewall module, the audit store in force), a real bubblewrap sandbox of
// the shipped default pack (policed, with approvals). A connection to a host port the run named is held as an
// approval, approved through the API, and then goes through; the activity log and the egress audit rows show it.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startInProcess, type InProcessGateway } from '../helpers/gateway.js';
import { client, ENABLED, project, TOKEN } from './http.js';

describe('egress asks answered through the approvals API', () => {
  let gw: InProcessGateway;
  let api: ReturnType<typeof client>;
  let work: string;
  let server: Server;
  let port: number;
  const seen: string[] = [];

  before(async () => {
    server = createServer((req, res) => {
      seen.push(req.url ?? '');
      res.end(`hello from ${req.url}\n`);
    }).listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
    gw = await startInProcess(ENABLED, { WARDEN_GATEWAY_TOKEN: TOKEN });
    api = client(gw.url);
    work = mkdtempSync(join(tmpdir(), 'warden-sbask-'));
  });
  after(async () => {
    await gw.close();
    server.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('holds the connection, raises an approval, and lets it through once approved', async () => {
    const created = await api.post('/sandboxes', { harness: 'shell', project: project(work, 'ask'), name: 'ask', host_ports: [port], no_snapshot: true });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual([created.body.policy.network_mode, created.body.policy.approvals], ['policed', true]);
    const status = (await api.get('/status')).body;
    assert.equal(status.egress_addr, join(gw.home.dir, 'sandboxes', '<sandbox>', 'egress', 'proxy.sock'), 'status names the egress socket');
    const health = (await (await fetch(`${gw.url}/health`)).json()) as { subsystems: { sandbox: { details: { egress: string } } } };
    assert.equal(health.subsystems.sandbox.details.egress, status.egress_addr);

    const manager = gw.gateway.sandbox!.manager!;
    const request = manager.exec('ask', ['/bin/sh', '-c', `curl -sS --max-time 100 http://host.warden.internal:${port}/held 2>&1; echo " exit=$?"`], { timeoutMs: 120_000 });

    // Generous bounds: CI runs this beside other test files on two cores. A request that ends before any
    // approval shows up fails with what curl printed.
    let settled: string | undefined;
    void request.then((result) => (settled = result.stdout.toString()), (err: Error) => (settled = err.message));
    let pending: { id: string; kind: string; port: number; status: string } | undefined;
    for (const deadline = Date.now() + 45_000; !pending && settled === undefined && Date.now() < deadline;) {
      pending = (await api.get('/approvals?sandbox=ask')).body.approvals?.[0];
      if (!pending) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.ok(pending, `an approval was raised (the request ${settled === undefined ? 'is still held' : `ended: ${settled}`})`);
    assert.deepEqual([pending.kind, pending.port, pending.status], ['host_port', port, 'pending']);
    assert.equal((await api.get('/sandboxes/ask')).body.pending_approvals, 1);
    assert.ok(!seen.includes('/held'), 'the connection is held while nobody answered');

    const decided = await api.post(`/approvals/${pending.id}`, { decision: 'approve', always: false, reason: 'test server' });
    assert.equal(decided.status, 200, decided.text);
    assert.equal(decided.body.persisted, false);

    const out = (await request).stdout.toString();
    assert.match(out, /hello from \/held\n exit=0/);
    assert.ok(seen.includes('/held'));

    const events = (await api.get('/activity?sandbox=ask')).body.events as { kind: string; port?: number }[];
    const kinds = events.map((event) => event.kind);
    assert.ok(kinds.includes('approval.requested') && kinds.includes('approval.resolved'), kinds.join(','));
    assert.ok(events.some((event) => event.kind === 'egress.allowed' && event.port === port), kinds.join(','));
    const view = (await api.get('/sandboxes/ask')).body;
    assert.ok(view.egress.allowed >= 1, JSON.stringify(view.egress));
    assert.equal(view.pending_approvals, 0);
    await gw.gateway.flushAudit();
    const audit = await fetch(`${gw.url}/api/v1/network-egress?hostname=host.warden.internal`, { headers: { authorization: `Bearer ${TOKEN}` } });
    const rows = ((await audit.json()) as { records: { blocked: boolean | number; source: string }[] }).records;
    assert.ok(rows.some((row) => !row.blocked && row.source === 'warden-egress-proxy'), JSON.stringify(rows));
  });
});

describe('a large upload cut, lifted through the unblock API', () => {
  let gw: InProcessGateway;
  let api: ReturnType<typeof client>;
  let work: string;
  let server: Server;
  let port: number;
  const received: number[] = [];

  before(async () => {
    server = createServer((req, res) => {
      let bytes = 0;
      req.on('data', (chunk: Buffer) => (bytes += chunk.length));
      req.on('end', () => {
        received.push(bytes);
        res.end('stored\n');
      });
    }).listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
    // The host machine is unblocked for every sandbox (no ask), and uploads over 64 KiB to a new host are cut.
    const config = `${ENABLED}  egress:\n    unblocked: [host.warden.internal]\n    large_upload_bytes: 65536\n`;
    gw = await startInProcess(config, { WARDEN_GATEWAY_TOKEN: TOKEN });
    api = client(gw.url);
    work = mkdtempSync(join(tmpdir(), 'warden-sbcut-'));
  });
  after(async () => {
    await gw.close();
    server.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('cuts the upload, refuses the next one, and lets uploads through once unblocked', async () => {
    const created = await api.post('/sandboxes', { harness: 'shell', project: project(work, 'cut'), name: 'cut', host_ports: [port], no_snapshot: true });
    assert.equal(created.status, 201, created.text);
    const manager = gw.gateway.sandbox!.manager!;
    const upload = async (kib: number) => (await manager.exec('cut', ['/bin/sh', '-c',
      `head -c ${kib * 1024} /dev/zero | curl -sS --max-time 30 -o /dev/null -w '%{http_code}' --data-binary @- http://host.warden.internal:${port}/up 2>&1; echo " exit=$?"`],
    { timeoutMs: 60_000 })).stdout.toString();

    assert.match(await upload(256), /exit=(?!0)/, 'the large upload is cut');
    assert.ok(received.every((bytes) => bytes < 256 * 1024), 'the server never got all of it');
    assert.doesNotMatch(await upload(1), /^200 exit=0/, 'a later upload to that host is refused');

    const lifted = await api.post('/egress/unblock', { host: 'host.warden.internal', sandbox: 'cut', always: false });
    assert.equal(lifted.status, 200, lifted.text);
    assert.equal(lifted.body.scope, 'sandbox');
    assert.match(await upload(1), /^200 exit=0/, 'uploads go through once unblocked');
    assert.equal(received.at(-1), 1024);
  });
});
