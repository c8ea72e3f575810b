// `warden setup <connector> --telemetry` as users run it (the real CLI, HOME and WARDEN_HOME in temp dirs): each
// agent's own OpenTelemetry settings point at the sidecar, with the scoped OTLP token Warden recognises (only its
// hash kept in $WARDEN_HOME), and the user's own settings and comments kept.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { parse as parseToml } from 'smol-toml';
import { parse as parseJsonc } from 'jsonc-parser';
import { credentialsPath, ScopedCredentials } from '../../src/telemetry/otlp/credentials.js';
import { runCli } from '../helpers/gateway.js';
import { tempHome, type TempHome } from '../helpers/home.js';

const PORT = 18_977; // written into the agent's settings; nothing listens on it in this test
const ENDPOINT = `http://127.0.0.1:${PORT}`;

let home: TempHome;
let user = '';
let env: NodeJS.ProcessEnv;
const setup = (...args: string[]) => runCli(['setup', ...args], env);
const userFile = (path: string) => join(user, path);
const write = (path: string, text: string) => {
  mkdirSync(dirname(userFile(path)), { recursive: true });
  writeFileSync(userFile(path), text);
};
const read = (path: string) => readFileSync(userFile(path), 'utf8');
const scoped = () => new ScopedCredentials(credentialsPath(home.dir));

beforeEach(() => {
  home = tempHome(`config_version: 9\ngateway:\n  api_port: ${PORT}\nguardrail:\n  port: 0\n`);
  user = mkdtempSync(join(tmpdir(), 'warden-user-'));
  env = { ...home.env, HOME: user };
});
afterEach(() => {
  home.remove();
  rmSync(user, { recursive: true, force: true });
});

describe('warden setup --telemetry', () => {
  it('claudecode: the env block of ~/.claude/settings.json exports OTLP to Warden with its scoped token', async () => {
    write('.claude/settings.json', '{\n  // mine\n  "env": { "MY_VAR": "1" },\n  "model": "opus"\n}\n');
    const result = await setup('claudecode', '--telemetry');
    assert.equal(result.code, 0, result.stderr);
    const text = read('.claude/settings.json');
    assert.match(text, /\/\/ mine/, 'comments kept');
    const settings = parseJsonc(text) as { env: Record<string, string>; model: string; hooks: unknown };
    assert.equal(settings.model, 'opus');
    assert.ok(settings.hooks, 'the hooks are installed too');
    assert.equal(settings.env.MY_VAR, '1');
    assert.equal(settings.env.CLAUDE_CODE_ENABLE_TELEMETRY, '1');
    assert.equal(settings.env.OTEL_LOGS_EXPORTER, 'otlp');
    assert.equal(settings.env.OTEL_EXPORTER_OTLP_PROTOCOL, 'http/protobuf');
    assert.equal(settings.env.OTEL_EXPORTER_OTLP_ENDPOINT, ENDPOINT);
    const headers = Object.fromEntries(settings.env.OTEL_EXPORTER_OTLP_HEADERS!.split(',').map((kv) => kv.split('=') as [string, string]));
    assert.equal(headers['X-Warden-Source'], 'claudecode');
    assert.ok(headers['X-Warden-Client']);
    const token = headers.Authorization!.replace(/^Bearer /, '');
    assert.ok(scoped().matches('claudecode', token), 'Warden recognises the token written for the agent');
    assert.ok(!readFileSync(credentialsPath(home.dir), 'utf8').includes(token), 'only its hash is kept');
    assert.match(result.stdout, /scoped OTLP token issued/);
    const undone = await setup('claudecode', '--undo');
    assert.equal(undone.code, 0, undone.stderr);
    assert.match(undone.stdout, /scoped OTLP token revoked/);
    assert.ok(!scoped().matches('claudecode', token), '--undo revokes the scoped token');
  });

  it('codex: an [otel] table in ~/.codex/config.toml exports protobuf logs to Warden', async () => {
    write('.codex/config.toml', '# my codex\nmodel = "o3"\n\n[profiles.fast]\nmodel = "o4-mini"\n');
    const result = await setup('codex', '--telemetry');
    assert.equal(result.code, 0, result.stderr);
    const text = read('.codex/config.toml');
    assert.match(text, /^# my codex/);
    const doc = parseToml(text) as { model: string; profiles: unknown; otel: { log_user_prompt: boolean; exporter: { 'otlp-http': { endpoint: string; protocol: string; headers: Record<string, string> } } } };
    assert.equal(doc.model, 'o3');
    assert.deepEqual(JSON.parse(JSON.stringify(doc.profiles)), { fast: { model: 'o4-mini' } });
    const http = doc.otel.exporter['otlp-http'];
    assert.deepEqual([http.endpoint, http.protocol, doc.otel.log_user_prompt], [`${ENDPOINT}/v1/logs`, 'binary', false]);
    assert.equal(http.headers['X-Warden-Source'], 'codex');
    assert.ok(scoped().matches('codex', http.headers.Authorization!.replace(/^Bearer /, '')));
    // Again: the block is replaced (a new token), never duplicated.
    assert.equal((await setup('codex', '--telemetry')).code, 0);
    assert.equal(read('.codex/config.toml').match(/\[otel/g)?.length, (text.match(/\[otel/g) ?? []).length);
  });

  it('codex: refuses a config.toml with its own [otel] table, issuing no token', async () => {
    write('.codex/config.toml', '[otel]\nenvironment = "prod"\n');
    const result = await setup('codex', '--telemetry');
    assert.equal(result.code, 1);
    assert.match(result.stderr, /\[otel\]/);
    assert.equal(read('.codex/config.toml'), '[otel]\nenvironment = "prod"\n');
    assert.ok(!existsSync(credentialsPath(home.dir)), 'no scoped token issued');
  });

  it('geminicli: the telemetry settings point at Warden, with no scoped token (it uses the gateway token over loopback)', async () => {
    const result = await setup('geminicli', '--telemetry');
    assert.equal(result.code, 0, result.stderr);
    const settings = JSON.parse(read('.gemini/settings.json')) as { telemetry: Record<string, unknown> };
    assert.deepEqual(settings.telemetry, { enabled: true, target: 'local', otlpEndpoint: ENDPOINT, otlpProtocol: 'http', logPrompts: false });
    assert.ok(!existsSync(credentialsPath(home.dir)));
    assert.match(result.stdout, /OTEL_EXPORTER_OTLP_HEADERS/);
  });

  it('refuses a connector without OpenTelemetry export', async () => {
    const result = await setup('cursor', '--telemetry');
    assert.equal(result.code, 1);
    assert.match(result.stderr, /no OpenTelemetry export/);
  });
});
