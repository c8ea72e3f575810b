// The egress proxy on its own, spoken to through a sandbox's Unix socket from the host (what the forwarder
// relays): a CONNECT tunnel that the proxy cannot read (the upstream's own certificate reaches the client), the
// large-upload report mode (block off, exempt host), lifting a large-upload refusal, failing closed when the
// policy cannot decide, the provider header of each credential, and the 400 for a request that is not a proxy
// request. The firewall is the shipped module through the real policy service.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { connect as tlsConnect, createServer as createTlsServer, type Server as TlsServer } from 'node:tls';
import { validateConfigObject } from '../../src/config/load.js';
import { PolicyService } from '../../src/policy/service.js';
import { SandboxCA } from '../../src/sandbox/egress/ca.js';
import { credentialHeader } from '../../src/sandbox/egress/credentials.js';
import { EgressProxy } from '../../src/sandbox/egress/proxy.js';
import type { EgressSandbox, EgressSettings } from '../../src/sandbox/egress/types.js';

const LIMIT = 4096;

describe('egress proxy through its socket', () => {
  let dir: string;
  let upstream: Server;
  let tlsUpstream: TlsServer;
  let port: number;
  let tlsPort: number;
  let upstreamCA: SandboxCA;
  const events: Record<string, unknown>[] = [];
  const settings: EgressSettings = { large_upload_bytes: LIMIT, large_upload_block: true, large_upload_exempt: [], unblocked: [], block: [] };
  let failPolicy = false;
  let proxy: EgressProxy;
  let policy: PolicyService;
  const received: number[] = [];

  const sandbox = (name: string, extra: Partial<EgressSandbox> = {}): EgressSandbox => ({
    name, session: 1, pack: 'default', profile: 'default', network_mode: 'policed', approvals: false, host_ports: [port, tlsPort], credentials: [], ...extra,
  });
  const socketOf = (name: string) => join(dir, name, 'proxy.sock');
  /** A plain-HTTP request through the sandbox's socket. */
  const viaProxy = (name: string, path: string, body?: Buffer): Promise<{ status: number; text: string }> =>
    new Promise((resolve, reject) => {
      const req = request({ socketPath: socketOf(name), method: body ? 'POST' : 'GET', path, headers: { host: new URL(path).host } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      req.end(body);
    });

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'warden-egress-proxy-'));
    upstream = createServer((req, res) => {
      let bytes = 0;
      req.on('data', (chunk: Buffer) => (bytes += chunk.length));
      req.on('end', () => {
        received.push(bytes);
        res.end(`got ${bytes}\n`);
      });
    }).listen(0, '127.0.0.1');
    upstreamCA = new SandboxCA('upstream');
    tlsUpstream = createTlsServer(upstreamCA.keyPairFor('127.0.0.1'), (socket) => socket.end('hello over tls\n')).listen(0, '127.0.0.1');
    await Promise.all([once(upstream, 'listening'), once(tlsUpstream, 'listening')]);
    port = (upstream.address() as AddressInfo).port;
    tlsPort = (tlsUpstream.address() as AddressInfo).port;
    policy = new PolicyService(validateConfigObject({ config_version: 9 }, 'test'), { policyDir: undefined });
    proxy = new EgressProxy({
      firewall: (input) => {
        if (failPolicy) throw new Error('policy evaluation failed');
        return policy.evaluate('firewall', input);
      },
      settings: () => settings,
      emit: (event) => events.push(event),
      // The test's host machine ports are unblocked: what is tested here comes after the decision.
      isUnblocked: (_sandbox, host) => host === '127.0.0.1' || host === 'localhost',
      resolve: async (host) => (host === 'localhost' ? ['127.0.0.1'] : []),
      dirOf: (name) => join(dir, name),
    });
  });
  after(async () => {
    await proxy.close();
    upstream.close();
    tlsUpstream.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('tunnels TLS it cannot read: the client sees the upstream\'s own certificate', async () => {
    proxy.attach(sandbox('tun'));
    const socket = connect(socketOf('tun'));
    await once(socket, 'connect');
    socket.write(`CONNECT 127.0.0.1:${tlsPort} HTTP/1.1\r\nHost: 127.0.0.1:${tlsPort}\r\n\r\n`);
    const [head] = (await once(socket, 'data')) as [Buffer];
    assert.match(head.toString(), /^HTTP\/1\.1 200/);
    const tls = tlsConnect({ socket, ca: upstreamCA.certPem, host: '127.0.0.1' });
    await once(tls, 'secureConnect');
    assert.match(String(tls.getPeerCertificate().issuer.CN), /sandbox upstream/, 'issued by the upstream\'s CA, not a sandbox CA');
    const [data] = (await once(tls, 'data')) as [Buffer];
    assert.equal(data.toString(), 'hello over tls\n');
    tls.destroy();
    const totals = proxy.totals('tun')!;
    assert.equal(totals.allowed, 1);
    assert.ok(totals.bytes_up > 0 && totals.bytes_down > 0);
  });

  it('refuses a socket path too long for a Unix socket, before binding anything', () => {
    const long = new EgressProxy({ firewall: () => { throw new Error('unused'); }, settings: () => settings, dirOf: (name) => join(dir, 'x'.repeat(120), name) });
    assert.throws(() => long.attach(sandbox('long')), /too long for a Unix socket/);
  });

  it('answers 400 to a request that is not a proxy request', async () => {
    proxy.attach(sandbox('bad'));
    const answer = await new Promise<number>((resolve, reject) => {
      request({ socketPath: socketOf('bad'), path: '/relative' }, (res) => resolve(res.statusCode ?? 0)).on('error', reject).end();
    });
    assert.equal(answer, 400);
  });

  it('only reports a large upload when the block is off, once per host', async () => {
    proxy.attach(sandbox('rep'));
    settings.large_upload_block = false;
    try {
      const first = await viaProxy('rep', `http://127.0.0.1:${port}/a`, Buffer.alloc(LIMIT * 2));
      assert.equal(first.status, 200);
      assert.equal(first.text, `got ${LIMIT * 2}\n`, 'the whole upload went through');
      await viaProxy('rep', `http://127.0.0.1:${port}/b`, Buffer.alloc(LIMIT));
      const reports = events.filter((e) => e.kind === 'egress.large_upload' && e.sandbox === 'rep');
      assert.equal(reports.length, 1);
      assert.equal(reports[0]!.host, '127.0.0.1');
      assert.equal(reports[0]!.threshold, LIMIT);
      assert.ok((reports[0]!.bytes_up as number) > LIMIT);
      assert.equal(proxy.totals('rep')!.large_uploads, 1);
    } finally {
      settings.large_upload_block = true;
    }
  });

  it('only reports a large upload to an exempt host', async () => {
    proxy.attach(sandbox('exe'));
    settings.large_upload_exempt = ['localhost'];
    try {
      const answer = await viaProxy('exe', `http://localhost:${port}/a`, Buffer.alloc(LIMIT * 2));
      assert.equal(answer.text, `got ${LIMIT * 2}\n`);
      assert.ok(events.some((e) => e.kind === 'egress.large_upload' && e.sandbox === 'exe' && e.host === 'localhost'));
    } finally {
      settings.large_upload_exempt = [];
    }
  });

  it('cuts a large upload, refuses the host after it, and lifts that on unblock', async () => {
    proxy.attach(sandbox('cut'));
    const before = received.length;
    await assert.rejects(viaProxy('cut', `http://127.0.0.1:${port}/big`, Buffer.alloc(LIMIT * 8)));
    assert.ok(received.slice(before).every((bytes) => bytes < LIMIT * 8), 'the upload never arrived whole');
    const refused = await viaProxy('cut', `http://127.0.0.1:${port}/small`);
    assert.equal(refused.status, 403);
    assert.equal(JSON.parse(refused.text).category, 'large_upload');
    assert.equal(proxy.unblockUploads('cut', '127.0.0.1'), true);
    assert.equal(proxy.unblockUploads('cut', '127.0.0.1'), false, 'nothing left to lift');
    assert.equal((await viaProxy('cut', `http://127.0.0.1:${port}/again`)).status, 200);
  });

  it('fails closed when the policy cannot decide', async () => {
    proxy.attach(sandbox('pol'));
    failPolicy = true;
    try {
      const answer = await viaProxy('pol', `http://127.0.0.1:${port}/x`);
      assert.equal(answer.status, 403);
      assert.equal(JSON.parse(answer.text).category, 'policy_error');
    } finally {
      failPolicy = false;
    }
  });

  it('injects a credential into plain HTTP to its host and port, never in clear text for a 443 binding', async () => {
    const seenAuth: (string | undefined)[] = [];
    const server = createServer((req, res) => {
      seenAuth.push(req.headers.authorization);
      res.end('ok');
    }).listen(0, '127.0.0.1');
    await once(server, 'listening');
    const plainPort = (server.address() as AddressInfo).port;
    try {
      proxy.attach(sandbox('cred', {
        host_ports: [plainPort, 443],
        credentials: [{ name: 'A', value: 'secret-a', host: '127.0.0.1', port: plainPort }, { name: 'B', value: 'secret-b', host: 'localhost', port: 443 }],
      }));
      await viaProxy('cred', `http://127.0.0.1:${plainPort}/x`);
      assert.deepEqual(seenAuth, ['Bearer secret-a']);
      assert.deepEqual(proxy.endpoints('cred').map((e) => [e.name, e.result]).sort(), [['A', 'ok'], ['B', 'unused']]);
      // Plain HTTP to the 443 endpoint's host and port: forwarded (and failing), but without the secret.
      await viaProxy('cred', 'http://localhost:443/x').catch(() => undefined);
      assert.equal(proxy.endpoints('cred').find((e) => e.name === 'B')!.result, 'unused');
    } finally {
      server.close();
    }
  });

  it('lets a sandbox reach Warden\'s own listener on the host without asking or a host_ports entry', async () => {
    const asked: string[] = [];
    const gateway = new EgressProxy({
      firewall: (input) => policy.evaluate('firewall', input), settings: () => settings, dirOf: (name) => join(dir, name),
      gatewayPorts: () => [port],
      ask: async (request) => {
        asked.push(request.host);
        return { decision: 'reject' };
      },
    });
    try {
      gateway.attach(sandbox('gw', { approvals: true, host_ports: [] }));
      assert.equal((await viaProxy('gw', `http://host.warden.internal:${port}/v1/chat/completions`)).status, 200);
      assert.equal((await viaProxy('gw', `http://127.0.0.1:${tlsPort}/`)).status, 403, 'another host port is still refused');
      assert.deepEqual(asked, []);
    } finally {
      await gateway.close();
    }
  });

  it('injects each provider\'s own header', () => {
    const binding = (host: string) => ({ name: 'K', value: 'v', host, port: 443 });
    assert.deepEqual(credentialHeader(binding('api.anthropic.com')), { name: 'x-api-key', value: 'v' });
    assert.deepEqual(credentialHeader(binding('generativelanguage.googleapis.com')), { name: 'x-goog-api-key', value: 'v' });
    assert.deepEqual(credentialHeader(binding('myres.openai.azure.com')), { name: 'api-key', value: 'v' });
    assert.deepEqual(credentialHeader(binding('api.openai.com')), { name: 'authorization', value: 'Bearer v' });
    assert.deepEqual(credentialHeader(binding('evilanthropic.com')), { name: 'authorization', value: 'Bearer v' }, 'a look-alike is not the provider');
  });
});
