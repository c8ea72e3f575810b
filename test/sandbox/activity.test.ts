// The activity stream over real HTTP: a real gateway with a running sandbox service, events appended through the
// producers' seam (`ActivityLog.append`), and raw `http` clients reading the server-sent events byte by byte.
import assert from 'node:assert/strict';
import { request, type IncomingMessage } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { ActivityLog } from '../../src/sandbox/activity/log.js';
import { startInProcess, type InProcessGateway } from '../helpers/gateway.js';
import { eventually } from '../helpers/eventually.js';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { client, ENABLED, ports, project, TOKEN, type Json } from './http.js';

interface Stream {
  response: IncomingMessage;
  /** Everything received so far. */
  text(): string;
  /** The parsed `event: activity` frames so far, with the `id:` each carried. */
  events(): { id: string | undefined; data: Json }[];
  close(): void;
}

/** Opens the stream with a raw http client; resolves once the status line and headers arrived. */
function openStream(base: string, path: string, headers: Record<string, string> = {}, paused = false): Promise<Stream> {
  const url = new URL(`/api/v1/sandbox${path}`, base);
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { authorization: `Bearer ${TOKEN}`, ...headers } }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      if (paused) response.pause();
      response.on('data', (chunk: string) => (text += chunk));
      response.on('error', () => {});
      resolve({
        response,
        text: () => text,
        events: () => text.split('\n\n').filter((block) => block.includes('event: activity')).map((block) => {
          const lines = block.split('\n');
          const id = lines.find((l) => l.startsWith('id: '))?.slice(4);
          return { id, data: JSON.parse(lines.find((l) => l.startsWith('data: '))!.slice(6)) as Json };
        }),
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('activity log', () => {
  it('numbers events one higher each, keeps the newest up to its capacity, and filters by sandbox', () => {
    const log = new ActivityLog({ capacity: 3 });
    for (const sandbox of ['a', 'b', 'a', 'a']) log.append({ kind: 'finding', sandbox, reason: 'nested_repo', seq: 99, time: 'forged' });
    const kept = log.since(0);
    assert.deepEqual(kept.map((e) => e.seq), [2, 3, 4]);
    assert.ok(kept.every((e) => e.time !== 'forged' && Date.parse(e.time) > 0), 'the log assigns time');
    assert.deepEqual(log.since(2, 'a').map((e) => e.seq), [3, 4]);
    log.append({ kind: 'egress.unblocked', sandbox: '*', host: 'example.com' });
    assert.deepEqual(log.since(3, 'b').map((e) => e.kind), ['egress.unblocked'], 'an every-sandbox event is in every feed');
    assert.deepEqual(log.since(900).map((e) => e.seq), [3, 4, 5], 'a seq from an earlier gateway process replays everything kept');
  });
});

describe('GET /api/v1/sandbox/activity', () => {
  let gw: InProcessGateway;
  let api: ReturnType<typeof client>;
  let log: ActivityLog;
  const emit = (sandbox: string, message: string) => log.append({ kind: 'finding', sandbox, reason: 'hook_silence', message });

  before(async () => {
    gw = await startInProcess(ENABLED, { WARDEN_GATEWAY_TOKEN: TOKEN }, {
      ...ports(), sandboxLinks: { activity: { keepaliveMs: 150, maxStreams: 3, queueEvents: 8 } },
    });
    api = client(gw.url);
    log = gw.gateway.sandbox!.activity!;
    for (let i = 1; i <= 5; i += 1) emit(i % 2 === 0 ? 'even' : 'odd', `event ${i}`);
  });
  after(async () => {
    await gw.close();
  });

  it('answers the kept events after since, of one sandbox when asked', async () => {
    const all = await api.get('/activity');
    assert.equal(all.status, 200);
    assert.deepEqual(all.body.events.slice(0, 5).map((e: Json) => e.message), ['event 1', 'event 2', 'event 3', 'event 4', 'event 5']);
    const some = await api.get('/activity?since=2&sandbox=odd');
    assert.deepEqual(some.body.events.map((e: Json) => [e.seq, e.sandbox, e.kind]), [[3, 'odd', 'finding'], [5, 'odd', 'finding']]);
  });

  it('refuses unknown parameters and a Last-Event-ID that is not a seq', async () => {
    const unknown = await api.get('/activity?since=1&colour=red');
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.code, 'invalid_request');
    assert.equal((await api.get('/activity?since=-1')).body.code, 'invalid_request');
    const response = await fetch(`${gw.url}/api/v1/sandbox/activity`, { headers: { authorization: `Bearer ${TOKEN}`, 'last-event-id': 'abc' } });
    assert.equal(response.status, 400);
    assert.equal(((await response.json()) as Json).code, 'invalid_request');
  });

  it('streams: replay after Last-Event-ID (which wins over since), a keepalive, then live events with id, event and data', async () => {
    const stream = await openStream(gw.url, '/activity?since=0&sandbox=odd', { accept: 'text/event-stream', 'last-event-id': '2' });
    try {
      assert.equal(stream.response.statusCode, 200);
      assert.match(String(stream.response.headers['content-type']), /^text\/event-stream/);
      await eventually(() => stream.text().includes(': keepalive'), 'the keepalive after the replay');
      const replayed = stream.text().slice(0, stream.text().indexOf(': keepalive'));
      assert.equal(replayed, stream.events().map((e) => `id: ${e.id}\nevent: activity\ndata: ${JSON.stringify(e.data)}\n\n`).join(''), 'frames are id, event, data');
      assert.deepEqual(stream.events().map((e) => e.id), ['3', '5'], 'replay of the odd feed after seq 2, not after since=0');
      emit('even', 'not for this feed');
      const live = emit('odd', 'live one');
      await eventually(() => stream.events().length === 3, 'the live event');
      assert.deepEqual(stream.events()[2], { id: String(live.seq), data: JSON.parse(JSON.stringify(live)) });
      // The keepalive repeats (every 150 ms in this gateway; 15 s by default).
      const count = () => stream.text().split(': keepalive').length - 1;
      await eventually(() => count() >= 3, 'repeated keepalives', 2000);
    } finally {
      stream.close();
    }
  });

  it('streams with follow=true too, and a reconnect with Last-Event-ID resumes exactly after the last event seen', async () => {
    const first = await openStream(gw.url, '/activity?follow=true');
    await eventually(() => first.text().includes(': keepalive'), 'the first stream to start');
    const lastSeen = first.events().at(-1)!.id!;
    first.close();
    const missed = emit('odd', 'while away');
    const second = await openStream(gw.url, '/activity?follow=true', { 'last-event-id': lastSeen });
    try {
      await eventually(() => second.text().includes(': keepalive'), 'the replay');
      assert.deepEqual(second.events().map((e) => e.data.message), [missed.message]);
    } finally {
      second.close();
    }
  });

  it('answers 429 unavailable past the stream limit, and a closed stream frees its place', async () => {
    await eventually(() => log.streams === 0, 'earlier streams to be released');
    const open = await Promise.all([1, 2, 3].map(() => openStream(gw.url, '/activity?follow=true')));
    const refused = await fetch(`${gw.url}/api/v1/sandbox/activity?follow=true`, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(refused.status, 429);
    assert.equal(((await refused.json()) as Json).code, 'unavailable');
    open[0]!.close();
    await eventually(() => log.streams === 2, 'the closed stream to unsubscribe');
    const again = await openStream(gw.url, '/activity?follow=true');
    assert.equal(again.response.statusCode, 200);
    for (const stream of [...open.slice(1), again]) stream.close();
    await eventually(() => log.streams === 0, 'every stream to unsubscribe');
  });

  it('ends open streams when the listener restarts, and the log outlives it for the reconnect', async () => {
    const stream = await openStream(gw.url, '/activity?follow=true');
    await eventually(() => stream.text().includes(': keepalive'), 'the stream to start');
    const lastSeen = stream.events().at(-1)!.id!;
    const ended = new Promise((resolve) => stream.response.once('end', resolve));
    await gw.gateway.restart();
    await ended;
    const during = emit('odd', 'after the restart');
    const again = await openStream(gw.gateway.sidecarUrl, '/activity?follow=true', { 'last-event-id': lastSeen });
    try {
      await eventually(() => again.text().includes(': keepalive'), 'the replay');
      assert.deepEqual(again.events().map((e) => e.data.seq), [during.seq]);
    } finally {
      again.close();
    }
    api = client(gw.gateway.sidecarUrl);
    gw.url = gw.gateway.sidecarUrl;
  });

  it('gives a reader that stops reading a dropped event saying how many it missed instead of buffering, then carries on', async () => {
    const slow = await openStream(gw.url, '/activity?follow=true&sandbox=flood', {}, true);
    try {
      const padding = 'x'.repeat(4096);
      // Enough to fill the kernel's socket buffers and the writer's, then the subscription's queue of 8.
      let last = 0;
      for (let i = 0; i < 4000; i += 1) {
        last = log.append({ kind: 'finding', sandbox: 'flood', reason: 'test', message: `${i} ${padding}` }).seq;
        if (i % 100 === 0) await new Promise((r) => setImmediate(r));
      }
      slow.response.resume();
      await eventually(() => slow.events().some((e) => e.data.seq === last), 'the stream to catch up with the newest event', 10_000);
      const events = slow.events();
      const dropped = events.filter((e) => e.data.kind === 'dropped');
      assert.ok(dropped.length >= 1, 'the reader was told it fell behind');
      for (const drop of dropped) {
        assert.equal(drop.id, undefined, 'a dropped event carries no id: Last-Event-ID stays on the last event delivered');
        assert.ok(drop.data.missed > 0 && drop.data.sandbox === 'flood');
      }
      // One dropped event per time it fell behind: never two in a row, the queued events come first.
      events.forEach((e, i) => assert.ok(e.data.kind !== 'dropped' || events[i + 1]?.data.kind !== 'dropped', 'no two dropped events in a row'));
      const delivered = events.filter((e) => e.data.kind === 'finding').length;
      const missed = dropped.reduce((sum, e) => sum + Number(e.data.missed), 0);
      assert.ok(missed > 0 && delivered < 4000, 'events were skipped rather than buffered');
      assert.equal(delivered + missed, 4000, 'every event was either delivered or counted as missed');
      const seqs = events.filter((e) => e.id !== undefined).map((e) => Number(e.id));
      assert.deepEqual(seqs, [...seqs].sort((a, b) => a - b), 'delivered in order');
    } finally {
      slow.close();
    }
  });

  it('carries the manager\'s lifecycle, workspace and finding events, in order, for one sandbox\'s feed', async () => {
    const work = mkdtempSync(join(tmpdir(), 'warden-activity-'));
    try {
      const dir = project(work, 'life');
      mkdirSync(join(dir, 'vendor.nested'));
      const start = log.lastSeq;
      const created = await api.post('/sandboxes', { harness: 'shell', project: dir, name: 'life' });
      assert.equal(created.status, 201, created.text);
      // A detached run still going when the sandbox stops is interrupted.
      gw.gateway.sandbox!.manager!.execDetached('life', ['/bin/sh', '-c', 'sleep 30']);
      assert.equal((await api.post('/sandboxes/life/stop')).status, 200);
      writeFileSync(join(dir, 'added.txt'), 'made in a session\n');
      assert.equal((await api.post('/sandboxes/life/undo')).status, 200);
      const copy = await api.post('/sandboxes', { harness: 'shell', project: dir, name: 'life-copy', copy: true });
      assert.equal(copy.status, 201, copy.text);
      await api.post('/sandboxes/life-copy/workspace', { kind: 'upload', files: 2, bytes: 12 });
      assert.equal((await api.del('/sandboxes/life')).status, 200);
      const events = (await api.get(`/activity?since=${start}&sandbox=life`)).body.events as Json[];
      assert.deepEqual(events.map((e) => [e.kind, e.phase ?? e.reason ?? e.event]), [
        ['finding', 'nested_repo'],
        ['sandbox.lifecycle', 'ready'],
        ['sandbox.lifecycle', 'stopped'],
        ['workspace', 'undo'],
        ['sandbox.lifecycle', 'deleted'],
      ]);
      assert.equal(events[2]!.reason, 'run_interrupted');
      assert.match(events[0]!.message, /vendor\.nested/);
      const upload = (await api.get(`/activity?since=${start}&sandbox=life-copy`)).body.events.find((e: Json) => e.kind === 'workspace');
      assert.equal(upload.event, 'upload');
      assert.match(upload.message, /2 files, 12 bytes/);
      await api.del('/sandboxes/life-copy');
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
