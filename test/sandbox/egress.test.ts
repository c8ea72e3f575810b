// The egress proxy with a REAL bubblewrap sandbox (the `shell` harness): the sandbox's network namespace has
// loopback only, so the test servers on the host's loopback are reachable from inside only through the proxy's
// Unix socket and the forwarder. The firewall is the shipped Rego module through the real policy service; the
// test servers are host ports of the run (`host_ports`) and the test's unblocks/approvals allow them. Audit rows
// go to a real audit.db.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { AuditStore } from '../../src/audit/store.js';
import { AuditReader } from '../../src/audit/reader.js';
import { loadSettings } from '../../src/config/settings.js';
import { PolicyService } from '../../src/policy/service.js';
import { SandboxCA } from '../../src/sandbox/egress/ca.js';
import { EGRESS_SOURCE, EgressProxy } from '../../src/sandbox/egress/proxy.js';
import { egressDir } from '../../src/sandbox/egress/setup.js';
import type { AskRequest } from '../../src/sandbox/egress/types.js';
import type { SandboxManager } from '../../src/sandbox/manager/manager.js';
import type { ResolvedPolicy, RunOptions } from '../../src/sandbox/ports.js';
import { createSandboxService, sandboxesDir, type SandboxService } from '../../src/sandbox/service.js';
import { tempHome, type TempHome } from '../helpers/home.js';
import { eventually } from '../helpers/eventually.js';
import { FixedPolicy, MemoryWorkspace } from './fixtures.js';

const SECRET = 'sk-test-7f3c9a1e5b2d4c6f8a0e';
const UPLOAD_LIMIT = 64 * 1024;

/** The fixed test policy, but policed with approvals (the shipped default pack's network settings). */
class PolicedPolicy extends FixedPolicy {
  override resolve(options: RunOptions): ResolvedPolicy {
    return { ...super.resolve(options), network_mode: 'policed', approvals: true };
  }
}

interface Seen { method: string; url: string; headers: IncomingMessage['headers']; bytes: number }

describe('egress proxy with a real sandbox', () => {
  let home: TempHome;
  let service: SandboxService;
  let manager: SandboxManager;
  let proxy: EgressProxy;
  let audit: AuditStore;
  let work: string;
  let httpServer: Server;
  let askServer: Server;
  let tlsServer: TlsServer;
  let httpPort: number;
  let askPort: number;
  let tlsPort: number;
  let closedPort: number;
  const seen: Seen[] = [];
  const tlsSeen: Seen[] = [];
  const events: Record<string, unknown>[] = [];
  const asks: { request: AskRequest; answer: (decision: 'approve' | 'reject') => void }[] = [];
  const unblocked = new Set<string>();
  const sh = (script: string, timeoutMs = 15_000) => manager.exec('eg', ['/bin/sh', '-c', script], { timeoutMs });
  /** curl through the proxy even to 127.0.0.1 (NO_PROXY keeps the sandbox's own loopback direct otherwise). */
  const curl = (args: string) => sh(`curl -sS --noproxy '' -x "$HTTP_PROXY" --max-time 10 ${args} 2>&1; echo " exit=$?"`);

  const recorder = (into: Seen[]) => (req: IncomingMessage, res: import('node:http').ServerResponse) => {
    let bytes = 0;
    req.on('data', (chunk: Buffer) => (bytes += chunk.length));
    req.on('end', () => {
      into.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, bytes });
      res.writeHead(200, { 'content-type': 'text/plain' }).end(`hello from ${req.url}\n`);
    });
  };

  before(async () => {
    home = tempHome(`config_version: 9\nopenshell:\n  enabled: true\n  egress:\n    large_upload_bytes: ${UPLOAD_LIMIT}\n    block: [blocked.example]\n`);
    work = mkdtempSync(join(tmpdir(), 'warden-egress-'));
    mkdirSync(join(work, 'project'));
    const { config } = loadSettings({ env: home.env });
    httpServer = createServer(recorder(seen)).listen(0, '127.0.0.1');
    // Another loopback address: the host machine too, but not one a human unblocked.
    askServer = createServer(recorder(seen)).listen(0, '127.0.0.2');
    const upstreamCA = new SandboxCA('test-upstream');
    tlsServer = createTlsServer({ ...upstreamCA.keyPairFor('127.0.0.1'), ALPNProtocols: ['http/1.1'] }, (socket) => {
      createServer(recorder(tlsSeen)).emit('connection', socket);
    }).listen(0, '127.0.0.1');
    const closed = createServer().listen(0, '127.0.0.1');
    await Promise.all([once(httpServer, 'listening'), once(askServer, 'listening'), once(tlsServer, 'listening'), once(closed, 'listening')]);
    [httpPort, askPort, tlsPort, closedPort] = [httpServer, askServer, tlsServer, closed].map((s) => (s.address() as AddressInfo).port) as [number, number, number, number];
    closed.close();
    audit = new AuditStore(join(home.dir, 'audit.db'));
    const policy = new PolicyService(config, { policyDir: undefined });
    proxy = new EgressProxy({
      firewall: (input) => policy.evaluate('firewall', input),
      settings: () => config.openshell.egress,
      audit: (record) => audit.appendEgress(record),
      emit: (event) => events.push(event),
      ask: (request) => new Promise((resolve) => asks.push({ request, answer: (decision) => resolve({ decision }) })),
      isUnblocked: (sandbox, host) => unblocked.has(`${sandbox} ${host}`),
      dirOf: (name) => egressDir(sandboxesDir(home.dir), name),
      resolve: async (host) => ({ localhost: ['127.0.0.1'], 'rebind.test': ['169.254.169.254'], 'loop.test': ['127.0.0.1'] } as Record<string, string[]>)[host] ?? [],
      upstreamCA: upstreamCA.certPem,
    });
    service = await createSandboxService({ config, home: home.dir, policy: new PolicedPolicy(), workspace: new MemoryWorkspace(), egress: proxy });
    assert.equal(service.state, 'running', service.reason ?? '');
    manager = service.manager!;
    // A human unblocked the host machine's loopback (by IP and by name), and rebind.test, whose DNS answer then
    // points at the metadata service.
    unblocked.add('eg 127.0.0.1').add('eg localhost').add('eg host.warden.internal').add('eg rebind.test');
    await manager.create({
      harness: 'shell', project: join(work, 'project'), name: 'eg', no_snapshot: true,
      host_ports: [httpPort, askPort, tlsPort, closedPort],
      credentials: [{ name: 'TEST_API_TOKEN', value: SECRET, host: '127.0.0.1', port: tlsPort }],
    });
    // The forwarder is an init step: wait until it answers (the proxy refuses an origin-form request with 400).
    const ready = await sh('for i in $(seq 100); do curl -s -o /dev/null -w "%{http_code}" --noproxy "*" http://127.0.0.1:3128/ | grep -q 400 && exit 0; sleep 0.05; done; exit 1');
    assert.equal(ready.code, 0, `forwarder never came up: ${ready.stdout.toString()}${ready.stderr.toString()}`);
  });

  after(async () => {
    await service?.close();
    await proxy?.close();
    await audit?.close();
    httpServer?.close();
    askServer?.close();
    tlsServer?.close();
    home?.remove();
    rmSync(work, { recursive: true, force: true });
  });

  it('reaches an allowed host through the proxy, and the host loopback is not reachable directly', async () => {
    const out = await curl(`http://127.0.0.1:${httpPort}/allowed`);
    assert.match(out.stdout.toString(), /hello from \/allowed\n exit=0/);
    assert.equal(seen.at(-1)?.url, '/allowed');
    const byName = await sh(`curl -sS --max-time 10 http://host.warden.internal:${httpPort}/by-name 2>&1; echo " exit=$?"`);
    assert.match(byName.stdout.toString(), /hello from \/by-name\n exit=0/, 'the host machine by its name, with the default proxy variables');
    const direct = await sh(`curl -sS --noproxy '*' --max-time 5 http://127.0.0.1:${httpPort}/direct 2>&1; echo " exit=$?"`);
    assert.doesNotMatch(direct.stdout.toString(), /exit=0/, 'the host loopback is another network namespace');
    const allowed = events.find((e) => e.kind === 'egress.allowed' && e.port === httpPort);
    assert.ok(allowed, JSON.stringify(events));
    assert.equal(allowed.source, EGRESS_SOURCE);
    assert.equal(allowed.category, 'host_port');
    assert.ok(proxy.totals('eg')!.bytes_down > 0);
  });

  it('refuses a raw socket to an outside address and to the host', async () => {
    const node = '/opt/warden/node/node';
    const script = (host: string, port: number) => `${node} -e 'const s=require("net").connect(${port},"${host}");s.on("connect",()=>{console.log("CONNECTED");process.exit(0)});s.on("error",e=>{console.log(e.code);process.exit(1)});setTimeout(()=>{console.log("TIMEOUT");process.exit(1)},3000)'`;
    for (const [host, port] of [['1.1.1.1', 80], ['8.8.8.8', 53], ['127.0.0.1', httpPort]] as const) {
      const out = await sh(script(host, port));
      assert.notEqual(out.code, 0, `${host}:${port}: ${out.stdout.toString()}`);
      assert.doesNotMatch(out.stdout.toString(), /CONNECTED/);
    }
  });

  it('refuses a blocked host with an egress.blocked event and an audit row, without resolving it', async () => {
    const before = events.length;
    const out = await curl('-i http://blocked.example/x');
    assert.match(out.stdout.toString(), /HTTP\/1\.1 403/);
    assert.match(out.stdout.toString(), /"category":"rejected"/);
    const event = events.slice(before).find((e) => e.kind === 'egress.blocked');
    assert.ok(event);
    assert.equal(event.host, 'blocked.example');
    assert.equal(event.unblockable, true);
    assert.deepEqual(proxy.lastRefusal('eg', 'blocked.example'), { unblockable: true, category: 'rejected' });
    const tls = await curl('https://blocked.example/');
    assert.doesNotMatch(tls.stdout.toString(), /exit=0/);
    await audit.flush();
    const reader = new AuditReader(join(home.dir, 'audit.db'));
    const rows = reader.egress().filter((r) => r.hostname === 'blocked.example');
    reader.close();
    assert.ok(rows.length >= 2);
    assert.equal(rows[0]!.blocked, true);
    assert.equal(rows[0]!.source, EGRESS_SOURCE);
    assert.equal(rows[0]!.branch, 'rejected');
  });

  it('refuses a host port the run did not ask for, not unblockable', async () => {
    const out = await curl(`-i http://127.0.0.1:${httpPort + 1 === askPort ? httpPort + 2 : httpPort + 1}/`);
    assert.match(out.stdout.toString(), /HTTP\/1\.1 403/);
    assert.match(out.stdout.toString(), /"category":"host_port","host":"127\.0\.0\.1".*"unblockable":false/);
  });

  it('refuses cloud metadata addresses in every encoding, and names resolving to them', async () => {
    const before = events.length;
    for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://0xA9FEA9FE/', 'http://2852039166/', 'http://0251.0376.0251.0376/', 'http://[::ffff:a9fe:a9fe]/', 'http://metadata.google.internal./', 'http://rebind.test/']) {
      const out = await curl(`-i '${url}'`);
      assert.match(out.stdout.toString(), /HTTP\/1\.1 403/, url);
      assert.match(out.stdout.toString(), /"unblockable":false/, url);
    }
    const tunnel = await curl('-i https://169.254.169.254/');
    assert.match(tunnel.stdout.toString(), /403/);
    const blocked = events.slice(before).filter((e) => e.kind === 'egress.blocked');
    assert.equal(blocked.length, 8);
    assert.ok(blocked.every((e) => e.category === 'metadata' && e.unblockable === false), JSON.stringify(blocked));
  });

  it('holds an ask until the ask callback resolves', async () => {
    const pending = curl(`http://127.0.0.2:${askPort}/asked`);
    await eventually(() => asks.length > 0, 'the proxy to ask', 2000);
    assert.equal(asks.length, 1);
    assert.deepEqual(asks[0]!.request, { sandbox: 'eg', host: '127.0.0.2', port: askPort, kind: 'host_port', reason: 'a port on the host machine' });
    await new Promise((r) => setTimeout(r, 300));
    assert.ok(!seen.some((s) => s.url === '/asked'), 'held while nobody answered');
    asks[0]!.answer('approve');
    const out = await pending;
    assert.match(out.stdout.toString(), /hello from \/asked\n exit=0/);
    const rejected = curl(`-i http://127.0.0.2:${askPort}/rejected`);
    await eventually(() => asks.length > 1, 'the second ask', 2000);
    asks[1]!.answer('reject');
    assert.match((await rejected).stdout.toString(), /403[\s\S]*"category":"rejected"/);
    assert.equal(proxy.totals('eg')!.asked, 2);
  });

  it('injects a credential into TLS to its endpoint; the sandbox cannot read it', async () => {
    const out = await curl(`https://127.0.0.1:${tlsPort}/v1/models`);
    assert.match(out.stdout.toString(), /hello from \/v1\/models\n exit=0/, 'TLS terminated with the sandbox CA, which curl trusts');
    assert.equal(tlsSeen.at(-1)?.headers.authorization, `Bearer ${SECRET}`);
    const endpoint = proxy.endpoints('eg').find((e) => e.name === 'TEST_API_TOKEN');
    assert.equal(endpoint?.result, 'ok');
    assert.equal(endpoint?.status, 200);
    const viaNode = await sh(`NO_PROXY= no_proxy= /opt/warden/node/node -e 'fetch("https://127.0.0.1:${tlsPort}/node").then(r=>r.text()).then(t=>console.log(t),e=>console.log("ERR",e.cause?.code??e.message))'`);
    assert.match(viaNode.stdout.toString(), /hello from \/node/, 'Node trusts the CA through NODE_EXTRA_CA_CERTS and follows the proxy');
    const look = await sh(`env; cat /proc/*/environ 2>/dev/null | tr '\\0' '\\n'; grep -rs '${SECRET}' / --exclude-dir=proc --exclude-dir=sys --exclude-dir=usr --exclude-dir=dev && echo FOUND-IN-FILES; echo done`, 60_000);
    assert.match(look.stdout.toString(), /done/);
    assert.ok(!look.stdout.toString().includes(SECRET), 'the secret is nowhere inside the sandbox');
    assert.ok(!look.stdout.toString().includes('FOUND-IN-FILES'));
  });

  it('cuts a large upload to a first-seen host and refuses later uploads to it', async () => {
    const before = events.length;
    const out = await sh(`head -c ${UPLOAD_LIMIT * 3} /dev/zero | curl -sS --noproxy '' -x "$HTTP_PROXY" --max-time 10 --data-binary @- http://localhost:${httpPort}/upload 2>&1; echo " exit=$?"`);
    assert.doesNotMatch(out.stdout.toString(), /exit=0/, out.stdout.toString());
    assert.ok(!seen.some((s) => s.url === '/upload' && s.bytes >= UPLOAD_LIMIT * 3), 'the upload did not arrive whole');
    const cut = events.slice(before).find((e) => e.kind === 'egress.blocked' && e.category === 'large_upload');
    assert.ok(cut, JSON.stringify(events.slice(before)));
    assert.equal(cut.host, 'localhost');
    assert.ok((cut.bytes_up as number) <= UPLOAD_LIMIT);
    const later = await curl(`-i http://localhost:${httpPort}/later`);
    assert.match(later.stdout.toString(), /403[\s\S]*"category":"large_upload"/);
    assert.deepEqual(proxy.lastRefusal('eg', 'localhost'), { unblockable: true, category: 'large_upload' });
  });

  it('forgets the sandbox\'s egress folder (socket, CA) when the sandbox is deleted', async () => {
    assert.ok(existsSync(join(home.dir, 'sandboxes', 'eg', 'egress', 'proxy.sock')));
    await manager.remove('eg');
    assert.ok(!existsSync(join(home.dir, 'sandboxes', 'eg')), 'nothing of the sandbox is left');
    assert.equal(proxy.totals('eg'), undefined);
  });
});
