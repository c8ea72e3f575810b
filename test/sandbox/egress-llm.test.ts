// Model traffic from a sandbox goes through the guardrail proxy, as `warden start` wires it: a real gateway whose
// egress proxy knows the guardrail proxy's registry, a real bubblewrap sandbox, and a mock model server on the
// host registered in llm_providers.custom (`127.0.0.1:<port>`, reached from inside as `host.warden.internal:<port>`,
// as a sandbox reaches a model server on the host such as Ollama). A harmless prompt reaches the mock with the
// sandbox's own key; one carrying a secret is answered with the guardrail's block (over plain HTTP and TLS) and
// never reaches the mock; the egress and guardrail audit rows show the route.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AuditReader } from '../../src/audit/reader.js';
import { startInProcess, type InProcessGateway } from '../helpers/gateway.js';
import { EPHEMERAL_CONFIG } from '../helpers/home.js';
import { anthropicMessage, anthropicStream, startMockLlm, type MockLlm } from '../helpers/mock-llm.js';
import { client, project, TOKEN } from './http.js';

const SECRET = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
const SANDBOX_KEY = 'sk-ant-sandbox-own-key-0001';

describe('model traffic from a sandbox goes through the guardrail proxy', () => {
  let gw: InProcessGateway;
  let mock: MockLlm;
  let work: string;
  let dir: string;

  before(async () => {
    mock = await startMockLlm();
    mock.fallback = () => ({ kind: 'json', body: anthropicMessage('Hello from the mock.') });
    const config = `${EPHEMERAL_CONFIG}openshell:\n  enabled: true\n  egress:\n    unblocked: [host.warden.internal]\n`
      + `llm_providers:\n  custom:\n    - name: mock-provider\n      domains: ["127.0.0.1:${mock.port}"]\n`;
    gw = await startInProcess(config, { WARDEN_GATEWAY_TOKEN: TOKEN });
    work = mkdtempSync(join(tmpdir(), 'warden-sbllm-'));
    const body = (content: string) => JSON.stringify({ model: 'claude-mock', max_tokens: 20, messages: [{ role: 'user', content }] });
    dir = project(work, 'llm', {
      'ok.json': body('Say hello.'), 'secret.json': body(`Please use my token ${SECRET} to push.`),
      'stream.json': JSON.stringify({ model: 'claude-mock', max_tokens: 20, stream: true, messages: [{ role: 'user', content: 'Stream a hello.' }] }),
    });
    const created = await client(gw.url).post('/sandboxes', { harness: 'shell', project: dir, name: 'llm', host_ports: [mock.port], no_snapshot: true });
    assert.equal(created.status, 201, created.text);
  });
  after(async () => {
    await gw.close();
    await mock.close();
    rmSync(work, { recursive: true, force: true });
  });

  const curl = async (url: string, file: string, extra = '') => {
    const command = `curl -sS -i --max-time 30 ${extra} -H 'content-type: application/json' -H 'x-api-key: ${SANDBOX_KEY}' `
      + `-H 'x-warden-target-url: http://exfil.example.net' --data-binary @${dir}/${file} ${url}; echo " exit=$?"`;
    const result = await gw.gateway.sandbox!.manager!.exec('llm', ['/bin/sh', '-c', command], { timeoutMs: 60_000 });
    return result.stdout.toString();
  };

  it('a harmless prompt reaches the provider through the guardrail proxy, with the sandbox\'s own key', async () => {
    const out = await curl(`http://host.warden.internal:${mock.port}/v1/messages`, 'ok.json');
    assert.match(out, /Hello from the mock\./);
    assert.match(out, / exit=0$/m);
    const seen = mock.requests.at(-1)!;
    assert.equal(seen.path, '/v1/messages');
    assert.equal(seen.headers['x-api-key'], SANDBOX_KEY, 'the sandbox\'s own provider credential is forwarded');
    assert.equal(seen.headers['x-warden-auth'], undefined, 'the gateway token never goes upstream');
    assert.equal(seen.headers['x-warden-target-url'], undefined);
    assert.match(seen.body, /Say hello/);

    await gw.gateway.flushAudit();
    const reader = new AuditReader(gw.gateway.settings.paths.auditDb);
    const events = [...reader.events()];
    const egress = reader.egress();
    reader.close();
    assert.ok(events.some((e) => e.action === 'proxy-passthrough-allow' && e.target === 'mock-provider'), 'the guardrail proxy audited the call');
    const routed = egress.find((row) => row.source === 'warden-egress-proxy' && row.hostname === 'host.warden.internal');
    assert.ok(routed, JSON.stringify(egress));
    assert.equal(routed.branch, 'llm');
    assert.equal(routed.looks_like_llm, true);
    assert.deepEqual([(routed.details as Record<string, unknown>).via, (routed.details as Record<string, unknown>).provider], ['guardrail_proxy', 'mock-provider']);
    assert.ok(!egress.some((row) => row.hostname === 'exfil.example.net'), 'the sandbox cannot pick the target');

    const activity = (await client(gw.url).get('/activity?sandbox=llm')).body.events as { kind: string; category?: string; via?: string }[];
    assert.ok(activity.some((e) => e.kind === 'egress.allowed' && e.category === 'llm' && e.via === 'guardrail_proxy'), JSON.stringify(activity));
  });

  it('a streamed answer comes back as the provider\'s event stream', async () => {
    mock.replies.push({ kind: 'stream', pieces: anthropicStream(['Hel', 'lo ', 'stream']), delayMs: 20 });
    const out = await curl(`http://host.warden.internal:${mock.port}/v1/messages`, 'stream.json', '-N');
    assert.match(out, /^content-type: text\/event-stream/im);
    const deltas = [...out.matchAll(/"text":"([^"]*)"/g)].map((m) => m[1]).join('');
    assert.equal(deltas, 'Hello stream', out);
    assert.match(out, /event: message_stop/);
  });

  it('a prompt carrying a secret is answered with the block and never reaches the provider', async () => {
    const before = mock.requests.length;
    const out = await curl(`http://host.warden.internal:${mock.port}/v1/messages`, 'secret.json');
    assert.match(out, /^x-warden-blocked: true\r?$/im);
    assert.match(out, / exit=0$/m);
    assert.equal(mock.requests.length, before);
  });

  it('TLS to a provider is terminated with the sandbox CA and inspected the same way', async () => {
    const before = mock.requests.length;
    const out = await curl(`https://host.warden.internal:${mock.port}/v1/messages`, 'secret.json');
    assert.match(out, /^x-warden-blocked: true\r?$/im, out);
    assert.match(out, / exit=0$/m);
    assert.equal(mock.requests.length, before);
  });

  it('the gateway token added on the host side opens model routes only, not the guardrail proxy\'s control routes', async () => {
    const event = JSON.stringify({ target_host: 'forged.example', branch: 'direct', decision: 'allow' });
    const command = (path: string) => `curl -sS -o /dev/null -w '%{http_code}' --max-time 30 -H 'content-type: application/json' `
      + `--data '${event}' http://host.warden.internal:${mock.port}${path}`;
    for (const path of ['/v1/events/egress', '/V1//events/%65gress/', '/v1/config/providers/reload']) {
      const result = await gw.gateway.sandbox!.manager!.exec('llm', ['/bin/sh', '-c', command(path)], { timeoutMs: 60_000 });
      assert.equal(result.stdout.toString(), '401', path);
    }
    await gw.gateway.flushAudit();
    const reader = new AuditReader(gw.gateway.settings.paths.auditDb);
    const egress = reader.egress();
    reader.close();
    assert.ok(!egress.some((row) => row.hostname === 'forged.example'), 'no egress event written with the gateway token');
  });

  it('plain HTTP tunnelled through CONNECT is read too, not passed on unread', async () => {
    const before = mock.requests.length;
    const blocked = await curl(`http://host.warden.internal:${mock.port}/v1/messages`, 'secret.json', '--proxytunnel');
    assert.match(blocked, /^x-warden-blocked: true\r?$/im, blocked);
    assert.equal(mock.requests.length, before);
    const ok = await curl(`http://host.warden.internal:${mock.port}/v1/messages`, 'ok.json', '--proxytunnel');
    assert.match(ok, /Hello from the mock\./, ok);
    assert.equal(mock.requests.length, before + 1);
  });
});
