// The sandbox egress proxy's cost: the added latency of a plain-HTTP request that goes through the in-sandbox
// forwarder (TCP on loopback) and the proxy's Unix socket, with a firewall decision (the shipped Rego module
// through the policy service), an audit row (a real audit.db) and an activity event per request, against the
// same request sent directly to the same upstream in the same run. Both sides use keep-alive connections, as a
// harness's HTTP client does; a second pair measures a fresh connection per request (CONNECT for the proxy, so
// the tunnel set-up and its decision count). Requests/s through the proxy are measured with autocannon against
// the direct figure. The forwarder runs on the host here (the same program the sandbox runs): a bwrap sandbox
// adds nothing on the data path. Target: added median latency <= 1 ms.
import { spawn, type ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, createServer, request, type RequestOptions } from 'node:http';
import { connect, createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AuditStore } from '../src/audit/store.js';
import { validateConfigObject } from '../src/config/load.js';
import { PolicyService } from '../src/policy/service.js';
import { EgressProxy } from '../src/sandbox/egress/proxy.js';
import { load } from './lib/load.js';
import { median, round, writeResult } from './lib/report.js';

const SEQUENTIAL = 2000;
const ROUNDS = 4;
const FORWARDER = fileURLToPath(new URL('../runtime/egress-forwarder.mjs', import.meta.url));

async function freePort(): Promise<number> {
  const server = createNetServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  return port;
}

function get(options: RequestOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(options, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`status ${String(res.statusCode)}`))));
    });
    req.on('error', reject);
    req.end();
  });
}

/** One request over a fresh CONNECT tunnel through the forwarder (what an HTTPS client does per connection). */
function tunnelled(forwarderPort: number, upstreamPort: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(forwarderPort, '127.0.0.1');
    let stage = 0;
    let text = '';
    socket.on('error', reject);
    socket.on('connect', () => socket.write(`CONNECT 127.0.0.1:${upstreamPort} HTTP/1.1\r\nHost: 127.0.0.1:${upstreamPort}\r\n\r\n`));
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (stage === 0 && text.includes('\r\n\r\n')) {
        if (!text.startsWith('HTTP/1.1 200')) return reject(new Error(text.split('\r\n')[0]));
        stage = 1;
        text = '';
        socket.write('GET /x HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
      }
    });
    socket.on('end', () => (stage === 1 && text.startsWith('HTTP/1.1 200') ? resolve() : reject(new Error(`tunnel answer: ${text.slice(0, 40)}`))));
  });
}

async function timeEach(count: number, fn: () => Promise<void>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await fn();
    times.push(performance.now() - started);
  }
  return times;
}

export async function run(): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'warden-bench-egress-'));
  const upstream = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '3' }).end('ok\n'));
  upstream.keepAliveTimeout = 60_000;
  upstream.listen(0, '127.0.0.1');
  await once(upstream, 'listening');
  const upstreamPort = (upstream.address() as AddressInfo).port;
  const config = validateConfigObject({ config_version: 9 }, 'bench');
  const policy = new PolicyService(config, { policyDir: undefined });
  const audit = new AuditStore(join(home, 'audit.db'));
  let events = 0;
  const proxy = new EgressProxy({
    firewall: (input) => policy.evaluate('firewall', input),
    settings: () => config.openshell.egress,
    audit: (record) => audit.appendEgress(record),
    emit: () => void events++,
    dirOf: (name) => join(home, name),
  });
  proxy.attach({ name: 'bench', session: 1, pack: 'default', profile: 'default', network_mode: 'open', approvals: false, host_ports: [upstreamPort], credentials: [] });
  const forwarderPort = await freePort();
  const forwarder: ChildProcess = spawn(process.execPath, [FORWARDER, join(home, 'bench', 'proxy.sock'), String(forwarderPort), '--serve'], { stdio: ['ignore', 'pipe', 'inherit'] });
  await once(forwarder.stdout!, 'data');
  const direct = { host: '127.0.0.1', port: upstreamPort, path: '/x' };
  const proxied = { host: '127.0.0.1', port: forwarderPort, path: `http://127.0.0.1:${upstreamPort}/x`, headers: { host: `127.0.0.1:${upstreamPort}` } };
  const directMs: number[] = [];
  const proxiedMs: number[] = [];
  const directFreshMs: number[] = [];
  const tunnelFreshMs: number[] = [];
  try {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    // Warm both paths (JIT, connections, the policy's decision cache).
    await timeEach(200, () => get({ ...direct, agent }));
    await timeEach(200, () => get({ ...proxied, agent }));
    for (let round = 0; round < ROUNDS; round++) {
      directMs.push(...(await timeEach(SEQUENTIAL / ROUNDS, () => get({ ...direct, agent }))));
      proxiedMs.push(...(await timeEach(SEQUENTIAL / ROUNDS, () => get({ ...proxied, agent }))));
      directFreshMs.push(...(await timeEach(100, () => get({ ...direct, agent: false }))));
      tunnelFreshMs.push(...(await timeEach(100, () => tunnelled(forwarderPort, upstreamPort))));
    }
    agent.destroy();
    const directLoad = await load({ url: `http://127.0.0.1:${upstreamPort}/x`, seconds: 5, connections: 10 });
    // autocannon writes a request's path as given: an absolute-form request line, as a proxy client sends it.
    const raw = await autocannon({
      url: `http://127.0.0.1:${forwarderPort}`, duration: 5, connections: 10,
      requests: [{ method: 'GET', path: `http://127.0.0.1:${upstreamPort}/x`, headers: { host: `127.0.0.1:${upstreamPort}` } }],
    });
    const proxiedLoad = { requestsPerSecond: raw.requests.average, p99Ms: raw.latency.p99 };
    if (raw.non2xx > 0 || raw.errors > 0) throw new Error(`proxied load had ${raw.non2xx} non-2xx and ${raw.errors} errors`);
    const metrics = {
      proxied_keepalive_median_ms: round(median(proxiedMs)),
      added_keepalive_median_ms: round(median(proxiedMs) - median(directMs)),
      tunnel_fresh_connection_median_ms: round(median(tunnelFreshMs)),
      added_fresh_connection_median_ms: round(median(tunnelFreshMs) - median(directFreshMs)),
      proxied_requests_per_s: round(proxiedLoad.requestsPerSecond, 0),
      proxied_p99_ms: proxiedLoad.p99Ms,
      decisions_recorded: events,
    };
    const baseline = {
      direct_keepalive_median_ms: round(median(directMs)),
      direct_fresh_connection_median_ms: round(median(directFreshMs)),
      direct_requests_per_s: round(directLoad.requestsPerSecond, 0),
    };
    writeResult({
      name: 'sandbox-egress',
      metrics,
      baseline,
      ratio: {
        proxied_vs_direct_latency: round(median(proxiedMs) / median(directMs), 2),
        proxied_vs_direct_requests_per_s: round(proxiedLoad.requestsPerSecond / directLoad.requestsPerSecond, 2),
      },
      notes: [
        'target: added median latency <= 1 ms (keep-alive, plain HTTP through forwarder + proxy, a decision, an audit row and an event per request)',
        `${SEQUENTIAL} sequential requests each side, in ${ROUNDS} interleaved rounds; load: autocannon 10 connections, 5 s each side`,
      ],
    });
  } finally {
    forwarder.kill();
    await proxy.close();
    await audit.close();
    upstream.close();
    rmSync(home, { recursive: true, force: true });
  }
}
