// The environment schema: values are trimmed and checked, defaults come from the schema, and a malformed value
// is refused with WARDEN_ERR_CONFIG_ENV_INVALID naming the variable but never echoing the value.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EnvSchema, envIsSet, envVar } from '../../src/config/env.js';
import { WardenError } from '../../src/errors.js';
import { hexSecret } from '../../src/util/hex-secret.js';

const refused = (name: string, expected: RegExp) => (err: unknown) => {
  assert.ok(err instanceof WardenError);
  assert.equal(err.code, 'WARDEN_ERR_CONFIG_ENV_INVALID');
  assert.match(err.message, new RegExp(`environment variable ${name} must be`));
  assert.match(err.message, expected);
  return true;
};

describe('environment variables', () => {
  test('unset or blank gives the schema default, or undefined without one', () => {
    assert.equal(envVar({}, 'SKILL_SCANNER_OSV_URL'), 'https://api.osv.dev');
    assert.equal(envVar({ SKILL_SCANNER_HTTP_TIMEOUT_MS: '  ' }, 'SKILL_SCANNER_HTTP_TIMEOUT_MS'), 10_000);
    assert.equal(envVar({}, 'WARDEN_HOME'), undefined);
    assert.equal(envVar({}, 'SKILL_SCANNER_HTTP_TIMEOUT_MS', { fallback: 60_000 }), 60_000);
  });

  test('a set value is trimmed, and integers become numbers', () => {
    assert.equal(envVar({ WARDEN_HOME: ' /srv/warden \n' }, 'WARDEN_HOME'), '/srv/warden');
    assert.equal(envVar({ SKILL_SCANNER_HTTP_TIMEOUT_MS: '250' }, 'SKILL_SCANNER_HTTP_TIMEOUT_MS'), 250);
    assert.equal(envVar({ WARDEN_LOG_LEVEL: 'debug' }, 'WARDEN_LOG_LEVEL'), 'debug');
  });

  test('a malformed value is refused with a code, what is expected, and not the value', () => {
    assert.throws(() => envVar({ SKILL_SCANNER_HTTP_TIMEOUT_MS: '2s' }, 'SKILL_SCANNER_HTTP_TIMEOUT_MS'), refused('SKILL_SCANNER_HTTP_TIMEOUT_MS', /milliseconds/));
    assert.throws(() => envVar({ SKILL_SCANNER_HTTP_TIMEOUT_MS: '0' }, 'SKILL_SCANNER_HTTP_TIMEOUT_MS'), refused('SKILL_SCANNER_HTTP_TIMEOUT_MS', /positive/));
    assert.throws(() => envVar({ WARDEN_LOG_LEVEL: 'loud' }, 'WARDEN_LOG_LEVEL'), refused('WARDEN_LOG_LEVEL', /"debug"/));
    assert.throws(() => envVar({ SKILL_SCANNER_OSV_URL: 'ftp://mirror' }, 'SKILL_SCANNER_OSV_URL'), refused('SKILL_SCANNER_OSV_URL', /http or https URL/));
    const secret = 'not-hex-but-secret';
    assert.throws(() => hexSecret({ WARDEN_OTA_HMAC_KEY: secret }, 'WARDEN_OTA_HMAC_KEY'), (err: Error) => {
      refused('WARDEN_OTA_HMAC_KEY', /64 hex digits/)(err);
      assert.ok(!err.message.includes(secret));
      return true;
    });
  });

  test('hex secrets decode to 32 bytes', () => {
    assert.deepEqual(hexSecret({ WARDEN_EMERGENCY_KEY: 'ab'.repeat(32) }, 'WARDEN_EMERGENCY_KEY'), Buffer.alloc(32, 0xab));
    assert.equal(hexSecret({}, 'WARDEN_EMERGENCY_KEY'), undefined);
  });

  test('envIsSet tells presence without checking the value', () => {
    assert.equal(envIsSet({ AI_GUARD_URL: 'not a url' }, 'AI_GUARD_URL'), true);
    assert.equal(envIsSet({ AI_GUARD_URL: ' ' }, 'AI_GUARD_URL'), false);
  });

  test('every variable has a description', () => {
    for (const [name, schema] of Object.entries(EnvSchema.properties)) {
      assert.ok((schema as { description?: string }).description, `${name} has no description`);
    }
  });
});
