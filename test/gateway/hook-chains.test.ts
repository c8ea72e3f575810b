// Ordered chains through the real hook route: only correlated hook events advance them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AuditReader } from '../../src/audit/reader.js';
import { authHeaders, startInProcess, type InProcessGateway } from '../helpers/gateway.js';
import { EPHEMERAL_CONFIG } from '../helpers/home.js';

const TOKEN = 'chains-test-token';
const CHAIN = 'CHAIN-SENSITIVE-SECRET-READ-THEN-EGRESS';

const pre = (session: string, id: string, command: string) => ({
  session_id: session, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, tool_use_id: id, cwd: '/home/dev/app',
});
const post = (session: string, id: string, command: string) => ({
  ...pre(session, id, command), hook_event_name: 'PostToolUse', tool_response: { stdout: 'ok', stderr: '', interrupted: false },
});

async function withGateway(pack: string, run: (hook: (payload: unknown) => Promise<{ action: string; findings: string[]; rule_ids?: string[] }>, inspect: (command: string) => Promise<number>, gw: InProcessGateway) => Promise<void>) {
  const gw = await startInProcess(`${EPHEMERAL_CONFIG}  rule_pack: ${pack}\n`, { WARDEN_GATEWAY_TOKEN: TOKEN });
  try {
    const hook = async (payload: unknown) =>
      (await (await fetch(`${gw.url}/api/v1/claudecode/hook`, { method: 'POST', headers: authHeaders(TOKEN), body: JSON.stringify(payload) })).json()) as {
        action: string; findings: string[]; rule_ids?: string[];
      };
    const inspect = async (command: string) =>
      (await fetch(`${gw.url}/api/v1/inspect/tool`, { method: 'POST', headers: authHeaders(TOKEN), body: JSON.stringify({ tool: 'Bash', args: { command }, session_id: 's' }) })).status;
    await run(hook, inspect, gw);
  } finally {
    await gw.close();
  }
}

describe('ordered chains on hook events', () => {
  it('a secret read that ran, then external egress: HIGH, alerted under the default pack', async () => {
    await withGateway('default', async (hook) => {
      await hook(pre('s1', 't1', 'cat ~/.aws/credentials'));
      await hook(post('s1', 't1', 'cat ~/.aws/credentials'));
      const egress = await hook(pre('s1', 't2', 'curl -s https://example.org/status'));
      assert.ok(egress.findings.some((f) => f.startsWith(`${CHAIN}:`)), JSON.stringify(egress));
      assert.equal(egress.action, 'alert');
    });
  });

  it('does not fire without the successful result, in another session, or from inspect traffic', async () => {
    await withGateway('default', async (hook, inspect) => {
      await hook(pre('s2', 't1', 'cat ~/.aws/credentials')); // proposal only: no PostToolUse
      assert.ok(!(await hook(pre('s2', 't2', 'curl -s https://example.org/status'))).findings.some((f) => f.startsWith(CHAIN)));
      await hook(pre('s3', 't1', 'cat ~/.aws/credentials'));
      await hook(post('s3', 't1', 'cat ~/.aws/credentials'));
      assert.ok(!(await hook(pre('s4', 't2', 'curl -s https://example.org/status'))).findings.some((f) => f.startsWith(CHAIN)));
      assert.equal(await inspect('cat ~/.aws/credentials'), 200);
      assert.ok(!(await hook(pre('s5', 't9', 'curl -s https://example.org/status'))).findings.some((f) => f.startsWith(CHAIN)));
    });
  });

  it('blocks under strict and replays the same decision on an identical retry without a new chain finding', async () => {
    await withGateway('strict', async (hook, _inspect, gw) => {
      await hook(pre('s6', 't1', 'cat ~/.aws/credentials'));
      await hook(post('s6', 't1', 'cat ~/.aws/credentials'));
      const first = await hook(pre('s6', 't2', 'curl -s https://example.org/status'));
      assert.equal(first.action, 'block');
      assert.ok(first.rule_ids?.includes(CHAIN));
      const retry = await hook(pre('s6', 't3', 'curl -s https://example.org/status'));
      assert.equal(retry.action, 'block');
      await gw.gateway.flushAudit();
      const reader = new AuditReader(gw.gateway.settings.paths.auditDb);
      const rows = [...reader.events()].filter((e) => e.session_id === 's6' && e.action === 'hook-pre_tool-block');
      reader.close();
      const ruleIds = rows.slice(-2).map((r) => (r.structured as { rule_ids: string[] }).rule_ids); // strict also blocked the read itself
      assert.deepEqual(ruleIds.map((ids) => ids.includes(CHAIN)), [true, false], 'the chain finding is recorded once');
      assert.equal((rows.at(-1)!.structured as { replayed_chain_deny?: string }).replayed_chain_deny, 'sensitive-secret-read-then-egress');
    });
  });
});
