// Slow and greedy clients against the real listeners (sidecar, guardrail proxy, skill scanner): a request
// whose headers trickle in is ended within 10 s, one whose body trickles in within 30 s, a non-loopback
// address cannot hold more than 64 connections, and a long model stream is not cut by any of it. The slow
// cases run side by side, so the file takes about 35 s however many listeners it covers.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { networkInterfaces } from 'node:os';
import { after, before, describe, test } from 'node:test';
import { buildScannerServer } from '../../src/skill-scanner/server.js';
import { CONNECTION_LIMITS } from '../../src/util/connection-limits.js';
import { startInProcess, type InProcessGateway } from '../helpers/gateway.js';
import { openAIStream, startMockLlm, type MockLlm } from '../helpers/mock-llm.js';
import { proxyConfig } from '../helpers/proxy.js';

/** This machine's first non-loopback IPv4 address: connections from it count as remote. */
function remoteAddress(): string {
  for (const addresses of Object.values(networkInterfaces())) {
    for (const a of addresses ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  throw new Error('this test needs a non-loopback IPv4 address on the machine');
}

/** Milliseconds until the server closes `socket`, or `limitMs` when it is still open then; and what it sent. */
async function heldFor(socket: Socket, trickle: () => void, limitMs: number): Promise<{ ms: number; answer: string }> {
  const started = Date.now();
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
  socket.on('error', () => {});
  const ticker = setInterval(() => {
    if (!socket.destroyed) trickle();
  }, 500);
  const closed = once(socket, 'close').then(() => Date.now() - started);
  const timeout = new Promise<number>((resolve) => setTimeout(() => resolve(limitMs), limitMs));
  const ms = await Promise.race([closed, timeout]);
  clearInterval(ticker);
  socket.destroy();
  return { ms, answer };
}

async function open(port: number, host = '127.0.0.1', localAddress?: string): Promise<Socket> {
  const socket = connect({ port, host, ...(localAddress ? { localAddress } : {}) });
  await once(socket, 'connect');
  return socket;
}

/** Sends request headers one line every half second, never finishing them. */
async function trickleHeaders(port: number, limitMs: number) {
  const socket = await open(port);
  socket.write('POST /audit/event HTTP/1.1\r\nHost: 127.0.0.1\r\n');
  let n = 0;
  return heldFor(socket, () => socket.write(`x-slow-${n++}: 1\r\n`), limitMs);
}

/** Sends complete headers announcing 10,000 bytes, then one byte every half second. */
async function trickleBody(port: number, path: string, headers: Record<string, string>, limitMs: number) {
  const socket = await open(port);
  const lines = Object.entries({ host: '127.0.0.1', 'content-type': 'application/json', 'content-length': '10000', ...headers }).map(([k, v]) => `${k}: ${v}\r\n`);
  socket.write(`POST ${path} HTTP/1.1\r\n${lines.join('')}\r\n{`);
  return heldFor(socket, () => socket.write(' '), limitMs);
}

describe('slow and greedy clients', { concurrency: true }, () => {
  let gw: InProcessGateway;
  let openai: MockLlm;
  let anthropic: MockLlm;
  let scanner: Awaited<ReturnType<typeof buildScannerServer>>;
  const ports = { sidecar: 0, proxy: 0, scanner: 0 };

  before(async () => {
    openai = await startMockLlm();
    anthropic = await startMockLlm();
    // Bound beyond loopback so that connections from the machine's own network address count as remote.
    const config = proxyConfig(openai, anthropic, { timeoutMs: 60_000 }).replace('gateway:\n  api_port: 0', 'gateway:\n  api_port: 0\n  api_bind: 0.0.0.0').replace('guardrail:\n  port: 0', 'guardrail:\n  port: 0\n  host: 0.0.0.0');
    gw = await startInProcess(config);
    ports.sidecar = Number(new URL(gw.gateway.sidecarUrl).port);
    ports.proxy = Number(new URL(gw.gateway.proxyUrl).port);
    scanner = await buildScannerServer({ env: {}, host: '0.0.0.0', version: 'test', logger: false, workers: 1 });
    await scanner.app.listen({ host: '0.0.0.0', port: 0 });
    ports.scanner = (scanner.app.server.address() as { port: number }).port;
  });
  after(async () => {
    await scanner.app.close();
    await gw.close();
    await openai.close();
    await anthropic.close();
  });

  for (const listener of ['sidecar', 'proxy', 'scanner'] as const) {
    test(`${listener}: headers that trickle in are ended within 10 s`, async () => {
      const { ms, answer } = await trickleHeaders(ports[listener], 16_000);
      assert.ok(ms <= CONNECTION_LIMITS.headersTimeoutMs + 2_500, `held ${ms} ms`);
      assert.ok(ms >= CONNECTION_LIMITS.headersTimeoutMs - 500, `ended early, after ${ms} ms`);
      assert.match(answer, /^HTTP\/1\.1 408/);
    });
  }

  test('sidecar: a body that trickles in is ended within 30 s', async () => {
    const { ms, answer } = await trickleBody(ports.sidecar, '/audit/event', { authorization: `Bearer ${gw.token}`, 'x-warden-client': 'test' }, 36_000);
    assert.ok(ms <= CONNECTION_LIMITS.requestTimeoutMs + 2_500, `held ${ms} ms`);
    assert.match(answer, /^HTTP\/1\.1 408/);
  });

  test('proxy: a body that trickles in is ended within 30 s', async () => {
    const { ms } = await trickleBody(ports.proxy, '/v1/chat/completions', { 'x-warden-auth': `Bearer ${gw.token}` }, 36_000);
    assert.ok(ms <= CONNECTION_LIMITS.requestTimeoutMs + 2_500, `held ${ms} ms`);
  });

  test('proxy: a model stream that lasts longer than the request timeouts is relayed whole', async () => {
    const pieces = openAIStream(Array.from({ length: 34 }, (_, i) => `piece ${i} `));
    openai.replies.push({ kind: 'stream', pieces, delayMs: 1_000 });
    const response = await fetch(`${gw.gateway.proxyUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'x-warden-auth': `Bearer ${gw.token}`, authorization: 'Bearer sk-provider', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-mock', stream: true, messages: [{ role: 'user', content: 'count slowly' }] }),
    });
    const started = Date.now();
    const text = await response.text();
    assert.ok(Date.now() - started > CONNECTION_LIMITS.requestTimeoutMs, 'the stream outlived the request timeout');
    assert.equal(text, pieces.join(''));
  });

  for (const listener of ['sidecar', 'proxy', 'scanner'] as const) {
    test(`${listener}: a non-loopback address holds at most ${CONNECTION_LIMITS.maxConnectionsPerIp} connections; loopback is not capped`, async () => {
      const address = remoteAddress();
      const sockets: Socket[] = [];
      const track = async (socket: Promise<Socket>) => {
        const opened = await socket;
        opened.on('error', () => {});
        sockets.push(opened);
        return opened;
      };
      try {
        const remote = await Promise.all(Array.from({ length: CONNECTION_LIMITS.maxConnectionsPerIp }, () => track(open(ports[listener], address, address))));
        const extra = await track(open(ports[listener], address, address));
        const state = await Promise.race([once(extra, 'close').then(() => 'closed'), new Promise((r) => setTimeout(() => r('open'), 2_000))]);
        assert.equal(state, 'closed', 'the connection beyond the cap is closed');
        await Promise.all(Array.from({ length: CONNECTION_LIMITS.maxConnectionsPerIp + 10 }, () => track(open(ports[listener]))));
        const health = await fetch(`http://127.0.0.1:${ports[listener]}/health`);
        assert.equal(health.status, 200, 'loopback is still served');
        remote[0]!.destroy();
        await once(remote[0]!, 'close');
        await new Promise((r) => setTimeout(r, 50));
        const again = await track(open(ports[listener], address, address));
        const response = await new Promise<string>((resolve) => {
          again.on('data', (chunk: Buffer) => resolve(chunk.toString()));
          again.on('close', () => resolve('closed'));
          again.write(`GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
        });
        assert.match(response, /^HTTP\/1\.1 /, 'a freed slot can be used again');
      } finally {
        for (const socket of sockets) socket.destroy();
      }
    });
  }
});
