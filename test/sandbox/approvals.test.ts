// Approvals and unblock end to end: a real gateway with real bubblewrap sandboxes of the `shell` harness and a
// real sandboxes.db and config.yaml. The egress proxy's side of the seams is the test: it asks through
// `Approvals.ask` as the proxy does, and answers `lastRefusal` and `lastHookAt` from its own tables.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startGateway, type GatewayOptions, type RunningGateway } from '../../src/gateway/runtime.js';
import type { AskAnswer } from '../../src/sandbox/approvals/types.js';
import { eventually } from '../helpers/eventually.js';
import { tempHome, type TempHome } from '../helpers/home.js';
import { client, ENABLED, ports, project, TOKEN, type Json } from './http.js';

const CONFIG = `# Team settings: keep this comment.
${ENABLED}  # hosts go below
`;

describe('sandbox approvals and unblock', () => {
  let home: TempHome;
  let gateway: RunningGateway;
  let api: ReturnType<typeof client>;
  let work: string;
  const refusals = new Map<string, { unblockable: boolean; category: string }>();
  const hooks = new Map<string, number>();
  const options: GatewayOptions = {
    ...ports(),
    sandboxLinks: {
      refusals: { lastRefusal: (sandbox, host) => refusals.get(`${sandbox} ${host}`) },
      lastHookAt: (sandbox) => hooks.get(sandbox),
      approvals: { quietMs: 300, maxHoldMs: 5000 },
    },
  };
  const start = async () => {
    gateway = await startGateway({ ...home.env, WARDEN_LOG_LEVEL: 'silent' }, options);
    api = client(gateway.sidecarUrl);
  };
  const service = () => gateway.sandbox!;
  const ask = (sandbox: string, host: string, port = 443) =>
    service().approvals!.ask({ sandbox, host, port, kind: 'network_rule', reason: 'no firewall rule for this host', binary: '/usr/bin/curl' });
  /** The pending approval for `host`, once the ask has raised it. */
  const pendingFor = async (sandbox: string, host: string): Promise<Json> => {
    let found: Json | undefined;
    await eventually(async () => {
      found = (await api.get(`/approvals?sandbox=${sandbox}`)).body.approvals.find((a: Json) => a.host === host && a.status === 'pending');
      return found !== undefined;
    }, `a pending approval for ${host}`);
    return found!;
  };
  const settled = (promise: Promise<AskAnswer>) => {
    const state: { answer?: AskAnswer } = {};
    void promise.then((answer) => (state.answer = answer));
    return state;
  };
  const activity = async (kind: string) => (await api.get('/activity')).body.events.filter((e: Json) => e.kind === kind) as Json[];

  before(async () => {
    home = tempHome(CONFIG, { WARDEN_GATEWAY_TOKEN: TOKEN });
    work = mkdtempSync(join(tmpdir(), 'warden-approvals-'));
    await start();
    for (const name of ['ap-one', 'ap-two']) {
      const created = await api.post('/sandboxes', { harness: 'shell', project: project(work, name), name });
      assert.equal(created.status, 201, created.text);
    }
  });
  after(async () => {
    await gateway.stop();
    home.remove();
    rmSync(work, { recursive: true, force: true });
  });

  it('raises a pending approval with the advisor\'s view, counted on the sandbox and in status, then approves it', async () => {
    const waiting = settled(ask('ap-one', 'pastebin.com'));
    const approval = await pendingFor('ap-one', 'pastebin.com');
    assert.equal(approval.kind, 'network_rule');
    assert.equal(approval.port, 443);
    assert.deepEqual(approval.endpoints, ['pastebin.com:443']);
    assert.equal(approval.binary, '/usr/bin/curl');
    assert.equal(approval.risky, true);
    assert.match(approval.reason, /no firewall rule/);
    assert.match(approval.rationale, /paste site/);
    assert.ok(approval.security_notes.length > 0);
    assert.equal((await api.get('/sandboxes/ap-one')).body.pending_approvals, 1);
    assert.equal((await api.get('/sandboxes/ap-two')).body.pending_approvals, 0);
    assert.equal((await api.get('/status')).body.counts.pending_approvals, 1);
    const requested = (await activity('approval.requested')).find((e) => e.approval_id === approval.id);
    assert.ok(requested, 'approval.requested event');
    assert.equal(requested.sandbox, 'ap-one');
    assert.equal(requested.host, 'pastebin.com');
    assert.equal(requested.risky, true);

    const decided = await api.post(`/approvals/${approval.id}`, { decision: 'approve', reason: 'the task needs it' });
    assert.equal(decided.status, 200, decided.text);
    assert.equal(decided.body.approval.status, 'queued');
    assert.equal(decided.body.persisted, false);
    assert.match(decided.body.message, /queued/);
    await eventually(() => waiting.answer !== undefined, 'the ask to be answered');
    assert.deepEqual(waiting.answer, { decision: 'approve' });
    const after = (await api.get('/approvals?sandbox=ap-one')).body.approvals.find((a: Json) => a.id === approval.id);
    assert.equal(after.status, 'approved');
    assert.equal(after.decision_reason, 'the task needs it');
    assert.equal((await api.get('/status')).body.counts.pending_approvals, 0);
    assert.equal(service().unblocks!.has('ap-one', 'pastebin.com'), true, 'applied for this sandbox');
    assert.equal(service().unblocks!.has('ap-two', 'pastebin.com'), false, 'and only this one');
    const resolved = (await activity('approval.resolved')).find((e) => e.approval_id === approval.id);
    assert.equal(resolved?.phase, 'approved');
    // Applied: a later ask for the host is answered at once, without a new approval.
    assert.deepEqual(await ask('ap-one', 'pastebin.com'), { decision: 'approve' });
  });

  it('joins asks for the same host into one approval with every endpoint, and a rejection answers them all', async () => {
    const first = settled(ask('ap-two', 'files.example.net', 443));
    const second = settled(ask('ap-two', 'files.example.net', 8443));
    await pendingFor('ap-two', 'files.example.net');
    await eventually(async () => (await pendingFor('ap-two', 'files.example.net')).endpoints.length === 2, 'both endpoints');
    const approval = await pendingFor('ap-two', 'files.example.net');
    assert.deepEqual(approval.endpoints.sort(), ['files.example.net:443', 'files.example.net:8443']);
    const decided = await api.post(`/approvals/${approval.id}`, { decision: 'reject' });
    assert.equal(decided.body.approval.status, 'queued');
    await eventually(() => first.answer !== undefined && second.answer !== undefined, 'both asks answered');
    assert.deepEqual([first.answer, second.answer], [{ decision: 'reject' }, { decision: 'reject' }]);
    const list = (await api.get('/approvals?sandbox=ap-two')).body.approvals.filter((a: Json) => a.host === 'files.example.net');
    assert.deepEqual(list.map((a: Json) => a.status), ['rejected']);
    // Decided once: a second decision is a conflict; an unknown id is not found; the body is decoded strictly.
    assert.equal((await api.post(`/approvals/${approval.id}`, { decision: 'approve' })).body.code, 'conflict');
    assert.equal((await api.post('/approvals/no-such-approval', { decision: 'approve' })).status, 404);
    for (const body of [{ decision: 'approve', colour: 'red' }, { decision: 'maybe' }, {}, '{"decision":"approve"} x']) {
      const answer = await api.post(`/approvals/${approval.id}`, body);
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.equal(answer.body.code, 'invalid_request');
    }
    assert.equal((await api.get('/approvals?colour=red')).status, 400);
  });

  it('holds a decided approval in queued while the sandbox\'s hooks are busy, and applies it once they are quiet', async () => {
    const waiting = settled(ask('ap-two', 'pypi.org'));
    const approval = await pendingFor('ap-two', 'pypi.org');
    assert.equal(approval.risky, false, 'a package registry is low risk');
    hooks.set('ap-two', Date.now());
    const busy = setInterval(() => hooks.set('ap-two', Date.now()), 50);
    try {
      await api.post(`/approvals/${approval.id}`, { decision: 'approve' });
      await new Promise((resolve) => setTimeout(resolve, 900));
      const held = (await api.get('/approvals?sandbox=ap-two')).body.approvals.find((a: Json) => a.id === approval.id);
      assert.equal(held.status, 'queued', 'not applied while hook calls keep coming');
      assert.equal(waiting.answer, undefined);
    } finally {
      clearInterval(busy);
    }
    await eventually(() => waiting.answer !== undefined, 'the ask answered once the hooks went quiet', 3000);
    assert.deepEqual(waiting.answer, { decision: 'approve' });
    hooks.delete('ap-two');
  });

  it('fails the open approvals of a sandbox that stops before they are applied', async () => {
    const created = await api.post('/sandboxes', { harness: 'shell', project: project(work, 'ap-three'), name: 'ap-three' });
    assert.equal(created.status, 201, created.text);
    const waiting = settled(ask('ap-three', 'example.org'));
    const approval = await pendingFor('ap-three', 'example.org');
    assert.equal((await api.post('/sandboxes/ap-three/stop')).status, 200);
    await eventually(() => waiting.answer !== undefined, 'the ask answered');
    assert.deepEqual(waiting.answer, { decision: 'reject' });
    const failed = (await api.get('/approvals?sandbox=ap-three')).body.approvals.find((a: Json) => a.id === approval.id);
    assert.equal(failed.status, 'failed');
    assert.match(failed.failure, /stopped/);
    assert.equal((await api.post(`/approvals/${approval.id}`, { decision: 'approve' })).body.code, 'conflict');
    assert.equal((await api.del('/sandboxes/ap-three')).status, 200);
    assert.deepEqual((await api.get('/approvals?sandbox=ap-three')).body.approvals, [], 'a deleted sandbox\'s approvals go with it');
  });

  it('lifts only refusals the policy marks unblockable, for one sandbox or for every sandbox', async () => {
    refusals.set('ap-one metadata.google.internal', { unblockable: false, category: 'metadata' });
    const locked = await api.post('/egress/unblock', { host: 'metadata.google.internal', sandbox: 'ap-one' });
    assert.equal(locked.status, 403);
    assert.equal(locked.body.code, 'policy_violation');
    assert.equal(locked.body.violation, 'metadata');
    const never = await api.post('/egress/unblock', { host: 'never-refused.example', sandbox: 'ap-one' });
    assert.equal(never.status, 403, 'nothing refused, nothing to lift');
    assert.equal((await api.post('/egress/unblock', { host: 'x.example', sandbox: 'nope' })).status, 404);
    assert.equal((await api.post('/egress/unblock', { host: 'x.example' })).body.code, 'invalid_request', 'without sandbox, always is required');
    for (const body of [{ host: 'https://x.example/' }, { host: 'x.example', sandbox: 'ap-one', extra: 1 }, { sandbox: 'ap-one' }]) {
      assert.equal((await api.post('/egress/unblock', body)).status, 400, JSON.stringify(body));
    }

    refusals.set('ap-one blocked.example', { unblockable: true, category: 'firewall' });
    const scoped = await api.post('/egress/unblock', { host: 'Blocked.Example.', sandbox: 'ap-one' });
    assert.equal(scoped.status, 200, scoped.text);
    assert.deepEqual(scoped.body, { host: 'blocked.example', sandbox: 'ap-one', scope: 'sandbox', persisted: false, message: 'blocked.example unblocked for sandbox ap-one' });
    assert.equal(service().unblocks!.has('ap-one', 'blocked.example'), true);
    assert.equal(service().unblocks!.has('ap-two', 'blocked.example'), false);
    const event = (await activity('egress.unblocked')).at(-1)!;
    assert.equal(event.sandbox, 'ap-one');
    assert.equal(event.host, 'blocked.example');
    assert.equal(readFileSync(join(home.dir, 'config.yaml'), 'utf8').includes('blocked.example'), false, 'sandbox scope is not saved to config.yaml');

    refusals.set('ap-two cdn.example', { unblockable: true, category: 'firewall' });
    const everywhere = await api.post('/egress/unblock', { host: 'cdn.example', always: true });
    assert.equal(everywhere.status, 200, everywhere.text);
    assert.deepEqual(everywhere.body, { host: 'cdn.example', sandbox: null, scope: 'always', persisted: true, message: everywhere.body.message });
    assert.equal(service().unblocks!.has('ap-one', 'cdn.example'), true, 'applied at once, for every sandbox');
    assert.equal((await activity('egress.unblocked')).at(-1)!.sandbox, '*');
  });

  it('saves always decisions to config.yaml keeping its comments, and they hold after a gateway restart', async () => {
    const approved = settled(ask('ap-one', 'registry.npmjs.org'));
    const one = await pendingFor('ap-one', 'registry.npmjs.org');
    const answer = await api.post(`/approvals/${one.id}`, { decision: 'approve', always: true });
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.body.persisted, true);
    await eventually(() => approved.answer !== undefined, 'the approve');
    const rejected = settled(ask('ap-two', 'evil.example.xyz'));
    const two = await pendingFor('ap-two', 'evil.example.xyz');
    assert.equal(two.risky, true);
    await api.post(`/approvals/${two.id}`, { decision: 'reject', always: true, reason: 'exfiltration' });
    await eventually(() => rejected.answer !== undefined, 'the reject');
    assert.equal(service().unblocks!.has('ap-two', 'registry.npmjs.org'), true, 'approved for every sandbox');
    assert.deepEqual(await ask('ap-one', 'evil.example.xyz'), { decision: 'reject' }, 'rejected for every sandbox, no new approval');

    const text = readFileSync(join(home.dir, 'config.yaml'), 'utf8');
    assert.match(text, /^# Team settings: keep this comment\.$/m);
    assert.match(text, /# hosts go below/);
    assert.match(text, /unblocked:\n\s+- cdn\.example\n\s+- registry\.npmjs\.org/);
    assert.match(text, /block:\n\s+- evil\.example\.xyz/);

    await gateway.stop();
    await start();
    assert.equal(service().unblocks!.has('ap-one', 'registry.npmjs.org'), true, 'read back from config.yaml');
    assert.equal(service().unblocks!.has('ap-one', 'blocked.example'), true, 'a sandbox\'s own unblock survives in sandboxes.db');
    assert.deepEqual(await ask('ap-two', 'evil.example.xyz'), { decision: 'reject' });
    const statuses = (await api.get('/approvals')).body.approvals.map((a: Json) => `${a.host} ${a.status}`);
    assert.ok(statuses.includes('registry.npmjs.org approved') && statuses.includes('evil.example.xyz rejected'), statuses.join(', '));
  });
});
