// The approval advisor's heuristic and the host keys approvals and unblocks use (pure functions, table cases),
// and the approval store's pruning on a real SQLite file.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { heuristicAdvice } from '../../src/sandbox/approvals/advisor.js';
import { checkHost } from '../../src/sandbox/approvals/hosts.js';
import { ApprovalStore } from '../../src/sandbox/approvals/store.js';
import type { Approval, AskRequest } from '../../src/sandbox/approvals/types.js';

const ask = (host: string, port = 443, kind: AskRequest['kind'] = 'network_rule'): AskRequest => ({ sandbox: 's', host, port, kind, reason: 'asked' });

describe('approval advisor heuristic', () => {
  it('calls known package registries and code hosts low risk', () => {
    for (const host of ['registry.npmjs.org', 'files.pythonhosted.org', 'github.com', 'objects.githubusercontent.com', 'proxy.golang.org']) {
      const advice = heuristicAdvice(ask(host));
      assert.equal(advice.risky, false, host);
      assert.match(advice.triage, /low risk/, host);
    }
  });

  it('calls raw addresses, paste sites, request catchers, tunnels, throwaway TLDs and punycode risky, saying why', () => {
    const cases: [string, RegExp][] = [
      ['203.0.113.7', /raw IPv4/], ['[2001:db8::1]', /raw IPv6/], ['pastebin.com', /paste site/], ['webhook.site', /request catcher/],
      ['abc.ngrok-free.app', /tunnel/], ['x.trycloudflare.com', /tunnel/], ['update-check.zip', /\.zip top-level domain/],
      ['xn--pypl-loa.com', /punycode/], ['transfer.sh', /file drop/],
    ];
    for (const [host, why] of cases) {
      const advice = heuristicAdvice(ask(host));
      assert.equal(advice.risky, true, host);
      assert.match(advice.rationale, why, host);
      assert.ok(advice.security_notes.length > 0, host);
    }
  });

  it('flags a port on the host machine and a non-web port, even on a known host', () => {
    assert.match(heuristicAdvice(ask('127.0.0.1', 5432, 'host_port')).rationale, /host machine/);
    const ssh = heuristicAdvice(ask('github.com', 22));
    assert.equal(ssh.risky, true);
    assert.match(ssh.rationale, /port 22 is not a web port/);
  });

  it('finds an unknown ordinary host neither known nor risky', () => {
    const advice = heuristicAdvice(ask('docs.example.com'));
    assert.equal(advice.risky, false);
    assert.match(advice.triage, /unknown host/);
  });
});

describe('host keys', () => {
  it('lower-cases, drops a trailing dot and IPv6 brackets, and refuses what is not a host', () => {
    assert.equal(checkHost('Example.COM.'), 'example.com');
    assert.equal(checkHost('[2001:DB8::1]'), '2001:db8::1');
    assert.equal(checkHost('10.0.0.1'), '10.0.0.1');
    for (const bad of ['https://example.com', 'example.com/path', '*.example.com', 'a..b', '-lead.example', '', 'x'.repeat(254), 'exa mple.com']) {
      assert.throws(() => checkHost(bad), /host must be/, bad);
    }
  });
});

describe('approval store', () => {
  it('keeps the newest finished approvals of a sandbox and every open one when pruning', () => {
    const dir = mkdtempSync(join(tmpdir(), 'warden-approval-store-'));
    const store = new ApprovalStore(join(dir, 'sandboxes.db'));
    try {
      const approval = (id: string, sandbox: string, status: Approval['status'], minute: number): Approval => ({
        id, sandbox, kind: 'network_rule', host: `${id}.example`, port: 443, endpoints: [], binary: null, risky: false, reason: '', rationale: '',
        security_notes: [], status, created_at: `2026-01-01T00:0${minute}:00.000Z`, decision: null, always: false, decision_reason: null,
        decided_at: null, resolved_at: null, failure: null,
      });
      store.put(approval('open', 's', 'pending', 0));
      for (const [i, status] of (['approved', 'rejected', 'failed', 'approved'] as const).entries()) store.put(approval(`done${i}`, 's', status, i + 1));
      store.put(approval('other', 't', 'approved', 0));
      store.prune('s', 2);
      assert.deepEqual(store.list('s').map((a) => a.id), ['open', 'done2', 'done3']);
      assert.deepEqual(store.list('t').map((a) => a.id), ['other'], 'another sandbox is untouched');
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
