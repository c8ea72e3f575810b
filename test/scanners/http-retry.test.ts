// The analyzers' lookups retry a service that briefly cannot answer (retry.ts): against a real local HTTP
// server that answers 503 then 200, 429 with Retry-After, drops the connection, or always fails, check that
// the lookup succeeds when it can, waits as told (capped), and gives up within its attempts and its deadline.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { requestJson, ServiceError } from '../../src/scanners/analyzers/http.js';
import { SCANNER_LIMITS } from '../../src/scanners/limits.js';

type Answer = (req: IncomingMessage, res: ServerResponse) => void;

/** A server that answers the n-th request with answers[n] (the last one again once they run out). */
async function withServer(answers: Answer[], run: (url: URL, seen: () => number) => Promise<void>): Promise<void> {
  let count = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => answers[Math.min(count++, answers.length - 1)]!(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await run(new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/lookup`), () => count);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

const status = (code: number, headers: Record<string, string> = {}): Answer => (_req, res) =>
  res.writeHead(code, { 'content-type': 'application/json', ...headers }).end(JSON.stringify({ error: `status ${code}` }));
const ok: Answer = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
const reset: Answer = (req) => req.socket.destroy();

const lookup = (url: URL, timeoutMs = 10_000) =>
  requestJson({ service: 'Test', method: 'POST', url, body: { q: 1 }, timeoutMs });

async function timed<T>(fn: () => Promise<T>): Promise<{ value?: T; error?: unknown; ms: number }> {
  const start = performance.now();
  try {
    return { value: await fn(), ms: performance.now() - start };
  } catch (error) {
    return { error, ms: performance.now() - start };
  }
}

describe('analyzer lookups: retries', () => {
  it('retries a 503 and returns the answer that follows', async () => {
    await withServer([status(503), ok], async (url, seen) => {
      assert.deepEqual(await lookup(url), { ok: true });
      assert.equal(seen(), 2);
    });
  });

  it('retries 429, 502 and 504 too, and a dropped connection', async () => {
    await withServer([status(429), status(502), status(504), ok], async (url, seen) => {
      assert.deepEqual(await lookup(url), { ok: true });
      assert.equal(seen(), 4);
    });
    await withServer([reset, ok], async (url, seen) => {
      assert.deepEqual(await lookup(url), { ok: true });
      assert.equal(seen(), 2);
    });
  });

  it("waits as long as a 429's Retry-After says", async () => {
    await withServer([status(429, { 'retry-after': '1' }), ok], async (url, seen) => {
      const { value, ms } = await timed(() => lookup(url));
      assert.deepEqual(value, { ok: true });
      assert.equal(seen(), 2);
      assert.ok(ms >= 950, `answered after ${ms} ms, before the second the service asked for`);
    });
  });

  it('caps a long Retry-After at the longest wait', async () => {
    await withServer([status(503, { 'retry-after': '3600' }), ok], async (url) => {
      const { value, ms } = await timed(() => lookup(url, 20_000));
      assert.deepEqual(value, { ok: true });
      assert.ok(ms >= SCANNER_LIMITS.lookupMaxRetryWaitMs - 50 && ms < SCANNER_LIMITS.lookupMaxRetryWaitMs + 2_000, `answered after ${ms} ms`);
    });
  });

  it('gives up after its attempts on a service that always fails, with its status in the message', async () => {
    await withServer([status(503)], async (url, seen) => {
      const { error, ms } = await timed(() => lookup(url));
      assert.ok(error instanceof ServiceError);
      assert.equal(error.status, 503);
      assert.match(error.message, /^Test request to http:\/\/127\.0\.0\.1:\d+\/v1\/lookup failed: HTTP 503: \{"error":"status 503"\}$/);
      assert.equal(seen(), SCANNER_LIMITS.lookupAttempts);
      // 250 + 500 + 1000 ms of waits, and not much more.
      assert.ok(ms < 4_000, `gave up after ${ms} ms`);
    });
  });

  it('keeps to its deadline across attempts', async () => {
    await withServer([status(503, { 'retry-after': '2' })], async (url, seen) => {
      const { error, ms } = await timed(() => lookup(url, 1_000));
      assert.ok(error instanceof ServiceError);
      assert.match(error.message, /timed out after 1000 ms$/);
      assert.ok(ms < 1_500, `gave up after ${ms} ms`);
      // Nothing goes on trying behind the caller's back once it has given up.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      assert.equal(seen(), 1);
    });
  });

  it('does not retry an answer that will not change (400, 404, 500)', async () => {
    for (const code of [400, 404, 500]) {
      await withServer([status(code), ok], async (url, seen) => {
        const { error } = await timed(() => lookup(url));
        assert.ok(error instanceof ServiceError && error.status === code);
        assert.equal(seen(), 1);
      });
    }
  });
});
