// The sidecar's /policy routes over real HTTP: the admission decision with config.yaml overrides, the firewall,
// audit and skill-actions sub-policies, the 400s for any other domain or input shape, and reload of the
// operator's policy_dir, which keeps the running policy when a module does not compile.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { WardenError } from '../../src/errors.js';
import { startGateway } from '../../src/gateway/runtime.js';
import { authHeaders, startInProcess, type InProcessGateway } from '../helpers/gateway.js';
import { EPHEMERAL_CONFIG, tempHome } from '../helpers/home.js';

describe('sidecar policy routes', () => {
  let gw: InProcessGateway;
  let policyDir: string;
  const post = (path: string, body?: unknown) =>
    fetch(`${gw.url}${path}`, { method: 'POST', headers: authHeaders(gw.token), ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are checked field by field below
  const json = async (response: Response) => (await response.json()) as Record<string, any>;
  const firewall = async (host: string) => (await json(await post('/policy/evaluate/firewall', { input: { host, port: 443, protocol: 'tcp' } }))).data;

  before(async () => {
    policyDir = mkdtempSync(join(tmpdir(), 'warden-policy-dir-'));
    mkdirSync(join(policyDir, 'rego'));
    writeFileSync(join(policyDir, 'rego', 'data.json'), JSON.stringify({ warden: { config: { firewall: { deny: ['blocked.example'] } } } }));
    writeFileSync(join(policyDir, 'rego', 'team.rego'), 'package team\n\nimport rego.v1\n\nowner := "platform"\n');
    gw = await startInProcess(`config_version: 9
gateway:
  api_port: 0
guardrail:
  port: 0
policy_dir: ${JSON.stringify(policyDir)}
admission:
  skill:
    actions:
      HIGH: warn
`);
  });
  after(async () => {
    await gw.close();
    rmSync(policyDir, { recursive: true, force: true });
  });

  test('POST /policy/evaluate answers the admission decision, with the config.yaml override applied', async () => {
    const high = await post('/policy/evaluate', { domain: 'admission', input: { target_type: 'skill', target_name: 's', scan_result: { max_severity: 'HIGH' } } });
    assert.equal(high.status, 200);
    const body = await json(high);
    assert.equal(body.ok, true);
    assert.deepEqual(body.data, {
      verdict: 'warning', reason: 'scan severity HIGH is allowed with a warning',
      actions: { install: 'none', file: 'none', runtime: 'enable' }, matched_list: null, severity: 'HIGH',
    });
    const critical = await json(await post('/policy/evaluate', { input: { target_type: 'skill', target_name: 's', scan_result: { max_severity: 'CRITICAL' } } }));
    assert.equal(critical.data.verdict, 'rejected', 'the domain defaults to admission; CRITICAL keeps the shipped block');
    const mcp = await json(await post('/policy/evaluate', { input: { target_type: 'mcp', target_name: 'local', scan_result: { max_severity: 'NONE', unscannable: true, findings: [] } } }));
    assert.equal(mcp.data.verdict, 'blocked', 'an unscannable MCP server is blocked at install');
  });

  test('admission sees the enforcement lists as /enforce/* leaves them: a block wins over a clean scan', async () => {
    const input = { target_type: 'skill', target_name: 'lister', scan_result: { max_severity: 'NONE', findings: [] } };
    assert.equal((await json(await post('/policy/evaluate', { input }))).data.verdict, 'clean');
    assert.equal((await post('/enforce/block', { target_type: 'skill', name: 'lister', reason: 'test block' })).status, 200);
    const blocked = (await json(await post('/policy/evaluate', { input }))).data;
    assert.deepEqual([blocked.verdict, blocked.matched_list], ['blocked', 'denied']);
    const removed = await fetch(`${gw.url}/enforce/block`, {
      method: 'DELETE', headers: authHeaders(gw.token), body: JSON.stringify({ target_type: 'skill', name: 'lister' }),
    });
    assert.equal(removed.status, 200);
    assert.equal((await json(await post('/policy/evaluate', { input }))).data.verdict, 'clean');
  });

  test('any other domain or input shape is 400', async () => {
    for (const body of [
      { domain: 'firewall', input: { target_type: 'skill', target_name: 's' } },
      { input: { target_type: 'tool', target_name: 's' } },
      { input: { target_type: 'skill' } },
      { input: { target_type: 'skill', target_name: 's', extra: 1 } },
      { input: { target_type: 'skill', target_name: 's', scan_result: { max_severity: 'SEVERE' } } },
      {},
    ]) {
      const response = await post('/policy/evaluate', body);
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.equal((await json(response)).code, 'WARDEN_ERR_REQUEST_INVALID');
    }
  });

  test('the firewall, audit and skill-actions sub-policies', async () => {
    assert.deepEqual(await firewall('0xa9fea9fe'), { allow: false, reason: 'cloud metadata address', matched_rule: 'metadata' });
    assert.deepEqual(await firewall('blocked.example'), { allow: false, reason: 'denied host', matched_rule: 'blocked.example' });
    assert.equal((await firewall('example.org')).allow, true);
    const audit = await json(await post('/policy/evaluate/audit', { input: { event_type: 'hook', fields: ['token', 'cwd'] } }));
    assert.deepEqual(audit.data, { keep: true, retention_days: 90, redact: ['token'] });
    const actions = await json(await post('/policy/evaluate/skill-actions', { input: { severity: 'HIGH' } }));
    assert.deepEqual(actions.data, { severity: 'HIGH', actions: { install: 'none', file: 'none', runtime: 'enable' } });
    assert.equal((await post('/policy/evaluate/firewall', { input: { host: 'x' } })).status, 400);
    assert.equal((await post('/policy/evaluate/skill-actions', { input: { severity: 'NONE' } })).status, 400);
  });

  test('POST /policy/reload loads the changed folder; a module that does not compile is a 400 and the running policy stays', async () => {
    writeFileSync(join(policyDir, 'rego', 'data.json'), JSON.stringify({ warden: { config: { firewall: { deny: ['other.example'] } } } }));
    const reloaded = await post('/policy/reload');
    assert.equal(reloaded.status, 200);
    assert.deepEqual(await json(reloaded), { status: 'reloaded', policy_dir: policyDir });
    assert.equal((await firewall('blocked.example')).allow, true, 'the cached decision was dropped and the new data read');
    assert.equal((await firewall('other.example')).allow, false);

    writeFileSync(join(policyDir, 'rego', 'data.json'), JSON.stringify({}));
    writeFileSync(join(policyDir, 'rego', 'broken.rego'), 'package broken\n\nimport rego.v1\n\nallow if {\n\tinput.x ==\n}\n');
    const refused = await post('/policy/reload', {});
    assert.equal(refused.status, 400);
    const error = await json(refused);
    assert.equal(error.code, 'WARDEN_ERR_POLICY_COMPILE');
    assert.match(error.error, new RegExp(`${join(policyDir, 'rego', 'broken.rego').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:6:12: rego_parse_error`));
    assert.equal((await firewall('other.example')).allow, false, 'the running policy (and its data) stays');

    rmSync(join(policyDir, 'rego', 'broken.rego'));
    symlinkSync('/etc/hostname', join(policyDir, 'rego', 'linked.rego'));
    const linked = await post('/policy/reload');
    assert.equal(linked.status, 400);
    assert.equal((await json(linked)).code, 'WARDEN_ERR_POLICY_DIR');
    rmSync(join(policyDir, 'rego', 'linked.rego'));
    assert.equal((await post('/policy/reload', { policy_dir: '/tmp' })).status, 400, 'reload takes no parameters');
  });
});

test('a policy_dir that cannot be loaded refuses the start, naming the problem', async () => {
  const home = tempHome(`${EPHEMERAL_CONFIG}policy_dir: no-such-folder\n`);
  try {
    await assert.rejects(startGateway({ ...home.env, WARDEN_LOG_LEVEL: 'silent' }), (err: unknown) =>
      err instanceof WardenError && err.code === 'WARDEN_ERR_POLICY_DIR' && err.message.includes(join(home.dir, 'no-such-folder')));
  } finally {
    home.remove();
  }
});
