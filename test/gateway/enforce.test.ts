// The /enforce routes over real HTTP, against a real config.yaml in a temporary WARDEN_HOME: each route's answers
// and errors, the file they leave (comments kept), concurrent changes, the audit rows, and persistence across a
// restart of the real CLI gateway.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { AuditReader } from '../../src/audit/reader.js';
import { authHeaders, spawnGateway, startInProcess, type InProcessGateway } from '../helpers/gateway.js';
import { EPHEMERAL_CONFIG, tempHome } from '../helpers/home.js';

const TOKEN = 'enforce-test-token';
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers are probed field by field
type Json = Record<string, any>;

const COMMENTED_CONFIG = `# operator's header comment
${EPHEMERAL_CONFIG}
asset_policy:
  # skills we never want
  skill:
    denied:
      - name: kept-block # why: hand-written
        reason: written by hand
`;

async function call(gw: InProcessGateway | string, method: string, path: string, body?: unknown): Promise<{ status: number; json: Json }> {
  const base = typeof gw === 'string' ? gw : gw.url;
  const response = await fetch(`${base}${path}`, {
    method,
    headers: authHeaders(TOKEN),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: (await response.json()) as Json };
}

describe('/enforce routes', () => {
  let gw: InProcessGateway;
  const configText = () => readFileSync(join(gw.home.dir, 'config.yaml'), 'utf8');
  const fileLists = () => (parse(configText()) as Json).asset_policy;

  before(async () => {
    gw = await startInProcess(COMMENTED_CONFIG, { WARDEN_GATEWAY_TOKEN: TOKEN });
  });
  after(() => gw.close());

  it('GET /enforce/blocked lists what config.yaml holds at start', async () => {
    const { status, json } = await call(gw, 'GET', '/enforce/blocked');
    assert.equal(status, 200);
    assert.deepEqual(json, { entries: [{ target_type: 'skill', name: 'kept-block', reason: 'written by hand' }] });
    assert.deepEqual((await call(gw, 'GET', '/enforce/allowed')).json, { entries: [] });
  });

  it('POST /enforce/block adds an entry, writes config.yaml with its comments kept, and the running gateway lists it', async () => {
    const { status, json } = await call(gw, 'POST', '/enforce/block', { target_type: 'mcp', name: 'evil-server', reason: 'exfiltrates' });
    assert.equal(status, 200);
    assert.deepEqual(json, { status: 'added', target_type: 'mcp', list: 'denied', entry: { name: 'evil-server', reason: 'exfiltrates' } });
    const text = configText();
    for (const comment of ["# operator's header comment", '# skills we never want', '# why: hand-written']) {
      assert.ok(text.includes(comment), `comment "${comment}" kept:\n${text}`);
    }
    assert.deepEqual(fileLists().mcp, { denied: [{ name: 'evil-server', reason: 'exfiltrates' }] });
    const listed = await call(gw, 'GET', '/enforce/blocked?target_type=mcp');
    assert.deepEqual(listed.json, { entries: [{ target_type: 'mcp', name: 'evil-server', reason: 'exfiltrates' }] });
  });

  it('blocking the same name and connector again updates its reason instead of adding a second entry', async () => {
    const { json } = await call(gw, 'POST', '/enforce/block', { target_type: 'mcp', name: 'evil-server', reason: 'confirmed' });
    assert.equal(json.status, 'updated');
    assert.deepEqual(fileLists().mcp.denied, [{ name: 'evil-server', reason: 'confirmed' }]);
  });

  it('a connector makes a separate entry, and an unknown connector is refused', async () => {
    const { json } = await call(gw, 'POST', '/enforce/block', { target_type: 'tool', name: 'Bash', connector: 'cursor' });
    assert.deepEqual(json.entry, { name: 'Bash', connector: 'cursor', reason: '' });
    await call(gw, 'POST', '/enforce/block', { target_type: 'tool', name: 'Bash' });
    assert.deepEqual(fileLists().tool.denied, [{ name: 'Bash', connector: 'cursor' }, { name: 'Bash' }]);
    const unknown = await call(gw, 'POST', '/enforce/block', { target_type: 'tool', name: 'Bash', connector: 'nosuchagent' });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.json.code, 'WARDEN_ERR_ENFORCE_CONNECTOR_UNKNOWN');
  });

  it('DELETE /enforce/block removes only the entry of that name and connector; a missing one is 404', async () => {
    const { status, json } = await call(gw, 'DELETE', '/enforce/block', { target_type: 'tool', name: 'Bash', connector: 'cursor', reason: 'false alarm' });
    assert.equal(status, 200);
    assert.deepEqual(json, { status: 'removed', target_type: 'tool', list: 'denied', entry: { name: 'Bash', connector: 'cursor', reason: '' } });
    assert.deepEqual(fileLists().tool.denied, [{ name: 'Bash' }]);
    const missing = await call(gw, 'DELETE', '/enforce/block', { target_type: 'tool', name: 'Bash', connector: 'cursor' });
    assert.equal(missing.status, 404);
    assert.equal(missing.json.code, 'WARDEN_ERR_ENFORCE_NOT_FOUND');
    assert.match(missing.json.error, /no tool "Bash" for connector "cursor" in asset_policy\.tool\.denied/);
  });

  it('POST /enforce/allow pins a path, says no upstream was asked for a skill or plugin, and moves a blocked entry', async () => {
    const { status, json } = await call(gw, 'POST', '/enforce/allow', {
      target_type: 'skill', name: 'kept-block', reason: 'reviewed', source_path_contains: '/opt/team/skills/',
    });
    assert.equal(status, 200);
    assert.deepEqual(json, {
      status: 'added', target_type: 'skill', list: 'allowed', moved_from: 'denied', upstream: 'not connected',
      entry: { name: 'kept-block', reason: 'reviewed', source_path_contains: '/opt/team/skills/' },
    });
    assert.deepEqual(fileLists().skill, { denied: [], allowed: [{ name: 'kept-block', reason: 'reviewed', source_path_contains: '/opt/team/skills/' }] });
    assert.deepEqual((await call(gw, 'GET', '/enforce/blocked?target_type=skill')).json, { entries: [] });
    const mcp = await call(gw, 'POST', '/enforce/allow', { target_type: 'mcp', name: 'good-server' });
    assert.equal(mcp.json.upstream, undefined, 'no upstream question for an MCP server');
  });

  it('blocking an allowed entry moves it back', async () => {
    const { json } = await call(gw, 'POST', '/enforce/block', { target_type: 'skill', name: 'kept-block', reason: 'relapsed' });
    assert.equal(json.moved_from, 'allowed');
    assert.deepEqual(fileLists().skill, { denied: [{ name: 'kept-block', reason: 'relapsed' }], allowed: [] });
    const allowed = (await call(gw, 'GET', '/enforce/allowed')).json.entries as Json[];
    assert.deepEqual(allowed.map((e) => `${e.target_type}:${e.name}`), ['mcp:good-server']);
  });

  it('refuses malformed bodies and queries with the house error shape', async () => {
    const cases: [string, string, unknown][] = [
      ['POST', '/enforce/block', { target_type: 'agent', name: 'x' }],
      ['POST', '/enforce/block', { target_type: 'skill', name: '' }],
      ['POST', '/enforce/block', { target_type: 'skill', name: 'x'.repeat(513) }],
      ['POST', '/enforce/block', { target_type: 'skill', name: 'x', source_path_contains: '/a' }],
      ['POST', '/enforce/allow', { target_type: 'skill' }],
      ['DELETE', '/enforce/block', { name: 'x' }],
      ['GET', '/enforce/blocked?target_type=nope', undefined],
    ];
    for (const [method, path, body] of cases) {
      const { status, json } = await call(gw, method, path, body);
      assert.equal(status, 400, `${method} ${path} ${JSON.stringify(body)}`);
      assert.equal(json.code, 'WARDEN_ERR_REQUEST_INVALID');
    }
  });

  it('needs the gateway token and the CSRF header', async () => {
    const noToken = await fetch(`${gw.url}/enforce/blocked`);
    assert.equal(noToken.status, 401);
    const noClient = await fetch(`${gw.url}/enforce/block`, {
      method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ target_type: 'skill', name: 'x' }),
    });
    assert.equal(noClient.status, 403);
  });

  it('concurrent changes all land: none overwrites another', async () => {
    const names = Array.from({ length: 25 }, (_, i) => `parallel-${i}`);
    const answers = await Promise.all(names.map((name) => call(gw, 'POST', '/enforce/block', { target_type: 'plugin', name })));
    assert.ok(answers.every((a) => a.status === 200 && a.json.status === 'added'));
    assert.deepEqual((fileLists().plugin.denied as Json[]).map((e) => e.name).sort(), [...names].sort());
    const listed = (await call(gw, 'GET', '/enforce/blocked?target_type=plugin')).json.entries as Json[];
    assert.equal(listed.length, names.length);
  });

  it('a config.yaml broken by hand is a 409 and stays as it is', async () => {
    const good = configText();
    const broken = good.replace('config_version: 9', 'config_version: 9\nunknown_key: 1');
    writeFileSync(join(gw.home.dir, 'config.yaml'), broken);
    try {
      const { status, json } = await call(gw, 'POST', '/enforce/block', { target_type: 'skill', name: 'later' });
      assert.equal(status, 409);
      assert.equal(json.code, 'WARDEN_ERR_ENFORCE_CONFIG_CONFLICT');
      assert.match(json.error, /unknown key "unknown_key"/);
      assert.equal(configText(), broken);
    } finally {
      writeFileSync(join(gw.home.dir, 'config.yaml'), good);
    }
  });

  it('every change is an audit row, committed before the answer', async () => {
    await call(gw, 'POST', '/enforce/allow', { target_type: 'tool', name: 'Read', connector: 'claudecode', reason: 'harmless' });
    // No flush: the answer itself promises the row is committed.
    const reader = new AuditReader(join(gw.home.dir, 'audit.db'));
    try {
      const rows = [...reader.events()].filter((e) => e.action.startsWith('enforce-'));
      const counts = rows.reduce<Record<string, number>>((n, e) => ({ ...n, [e.action]: (n[e.action] ?? 0) + 1 }), {});
      // 4 blocks before the concurrent ones (evil-server twice, Bash twice), 1 move back, 25 concurrent.
      assert.deepEqual(counts, { 'enforce-block': 30, 'enforce-unblock': 1, 'enforce-allow': 3 });
      const last = rows.at(-1)!;
      assert.equal(last.target, 'tool:Read');
      assert.equal(last.connector, 'claudecode');
      assert.equal(last.actor, 'test');
      assert.equal(last.severity, 'INFO');
      assert.deepEqual(last.structured, {
        target_type: 'tool', list: 'allowed', status: 'added', entry: { name: 'Read', connector: 'claudecode', reason: 'harmless' },
      });
      const unblock = rows.find((e) => e.action === 'enforce-unblock')!;
      assert.match(unblock.details ?? '', /removed from asset_policy\.tool\.denied: false alarm$/);
      const move = rows.find((e) => (e.structured as Json).moved_from === 'denied')!;
      assert.equal(move.target, 'skill:kept-block');
    } finally {
      reader.close();
    }
  });
});

describe('enforcement lists across a restart of the real gateway', () => {
  it('what one gateway process writes, the next one serves', async () => {
    const home = tempHome(COMMENTED_CONFIG, { WARDEN_GATEWAY_TOKEN: TOKEN, WARDEN_LOG_LEVEL: 'silent' });
    try {
      const first = await spawnGateway(home.env);
      assert.equal((await call(first.sidecar, 'POST', '/enforce/block', { target_type: 'plugin', name: 'bad-plugin', reason: 'r1' })).status, 200);
      assert.equal((await call(first.sidecar, 'POST', '/enforce/allow', { target_type: 'mcp', name: 'ok', source_path_contains: '/srv' })).status, 200);
      assert.equal(await first.terminate(), 0);

      const second = await spawnGateway(home.env);
      try {
        assert.deepEqual((await call(second.sidecar, 'GET', '/enforce/blocked')).json.entries, [
          { target_type: 'skill', name: 'kept-block', reason: 'written by hand' },
          { target_type: 'plugin', name: 'bad-plugin', reason: 'r1' },
        ]);
        assert.deepEqual((await call(second.sidecar, 'GET', '/enforce/allowed')).json.entries, [
          { target_type: 'mcp', name: 'ok', reason: '', source_path_contains: '/srv' },
        ]);
      } finally {
        assert.equal(await second.terminate(), 0);
      }
    } finally {
      home.remove();
    }
  });
});
