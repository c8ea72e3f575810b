import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sidecarBindAddress } from '../../src/config/bind.js';
import { parseConfig } from '../../src/config/load.js';
import { resolveToken } from '../../src/config/token.js';

const config = (yaml: string) => parseConfig(`config_version: 9\n${yaml}`, 'config.yaml');

describe('sidecar bind rule', () => {
  it('empty api_bind binds loopback', () => {
    assert.equal(sidecarBindAddress(config('guardrail:\n  host: 0.0.0.0\n')), '127.0.0.1');
  });
  it('standalone mode inherits a non-localhost guardrail.host', () => {
    assert.equal(sidecarBindAddress(config('openshell:\n  mode: standalone\nguardrail:\n  host: 10.0.0.5\n')), '10.0.0.5');
  });
  it('standalone mode does not inherit the literal localhost (or an empty host)', () => {
    assert.equal(sidecarBindAddress(config('openshell:\n  mode: standalone\nguardrail:\n  host: localhost\n')), '127.0.0.1');
    assert.equal(sidecarBindAddress(config('openshell:\n  mode: standalone\nguardrail:\n  host: ""\n')), '127.0.0.1');
  });
  it('an explicit api_bind always wins', () => {
    const yaml = 'openshell:\n  mode: standalone\nguardrail:\n  host: 10.0.0.5\ngateway:\n  api_bind: 127.0.0.3\n';
    assert.equal(sidecarBindAddress(config(yaml)), '127.0.0.3');
  });
});

describe('gateway token resolution order', () => {
  const all = config('gateway:\n  token_env: MY_TOKEN\n  token: from-config\n');
  const env = { MY_TOKEN: 'from-token-env', WARDEN_GATEWAY_TOKEN: 'from-warden', AGENT_GATEWAY_TOKEN: 'from-legacy' };

  it('takes the variable named by gateway.token_env first', () => {
    assert.equal(resolveToken(all, env, {})?.token, 'from-token-env');
  });
  it('then WARDEN_GATEWAY_TOKEN, then AGENT_GATEWAY_TOKEN, then gateway.token', () => {
    const rest = { WARDEN_GATEWAY_TOKEN: env.WARDEN_GATEWAY_TOKEN, AGENT_GATEWAY_TOKEN: env.AGENT_GATEWAY_TOKEN };
    assert.equal(resolveToken(all, rest, {})?.token, 'from-warden');
    assert.equal(resolveToken(all, { AGENT_GATEWAY_TOKEN: 'from-legacy' }, {})?.token, 'from-legacy');
    const result = resolveToken(all, {}, {});
    assert.equal(result?.token, 'from-config');
    assert.equal(result?.source, 'config.yaml gateway.token');
  });
  it('reads .env for variables the environment does not set, and the environment wins', () => {
    assert.deepEqual(resolveToken(all, {}, { WARDEN_GATEWAY_TOKEN: 'dotenv' }), {
      token: 'dotenv', source: '.env WARDEN_GATEWAY_TOKEN', locallyManaged: true,
    });
    assert.equal(resolveToken(all, { WARDEN_GATEWAY_TOKEN: 'real' }, { WARDEN_GATEWAY_TOKEN: 'dotenv' })?.token, 'real');
  });
  it('resolves to nothing when no source has a token', () => {
    assert.equal(resolveToken(config(''), {}, {}), undefined);
  });
});
