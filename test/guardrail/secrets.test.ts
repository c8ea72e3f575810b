// Secret detection (issue 12, section 2): the value checks behind the secret rules (entropy, placeholders,
// signed JWTs, name and value groups), their schema, audit redaction sharing them, and the posture on the
// corpus: a positive in a prompt, a tool call's arguments or a written file is blocked, not only flagged.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { InspectionEngine } from '../../src/guardrail/engine.js';
import { captureGroups, loadRulePack, RulePackError } from '../../src/guardrail/rules/load.js';
import { meetsEntropy, shannonEntropy, valueShape } from '../../src/guardrail/secrets/entropy.js';
import { notSecretName, placeholderReason } from '../../src/guardrail/secrets/placeholders.js';
import { isSignedJwt } from '../../src/guardrail/validators.js';
import { defaultInspector } from '../corpus/lanes/lane.js';
import { inspectCase, secretCases } from '../corpus/lanes/secrets.js';

const inspector = defaultInspector();
const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
// random-looking, fixed: a secret must not depend on the run
const BODY36 = 'q7Lm2XcV9tRb4Kp1ZsW8nYd3HjF6gAe0UoNi';

describe('secret value checks', () => {
  it('entropy and shapes', () => {
    assert.equal(shannonEntropy('aaaa'), 0);
    assert.equal(shannonEntropy('abcd'), 2);
    assert.equal(valueShape('deadBEEF09'), 'hex');
    assert.equal(valueShape('abcXYZ123'), 'alnum');
    assert.equal(valueShape('ab+/_-=='), 'base64');
    assert.equal(valueShape('p@ss!word'), 'other');
    assert.ok(meetsEntropy(BODY36, { alnum: 3.5 }));
    assert.ok(!meetsEntropy('abababababababababab', 3.0));
    // short values are judged against what their length allows (log2(8) = 3 bits at most)
    assert.ok(meetsEntropy('Xk9#mQ2v', 3.0));
  });

  it('placeholders: fillers, templates, example words and documented keys', () => {
    for (const value of ['xxxxxxxxxxxxxxxxxxxx', 'XXXXXXXXXXXXXXXX', '0000000000000000', 'your_api_key_here', '${GITHUB_TOKEN}', '{{ secrets.TOKEN }}', '<token>', 'AKIAIOSFODNN7EXAMPLE', 'sk_test_4eC39HqLyjWDarjtT1zdp7dc', 'abc123abc123abc123', '%(password)s']) {
      assert.ok(placeholderReason(value, value, 'basic'), value);
    }
    assert.equal(placeholderReason(BODY36, BODY36, 'basic'), undefined);
    // the proxy tests' token (an alphabet) is not a placeholder at the basic level used by prefixed rules
    assert.equal(placeholderReason('ghp_abcdefghijklmnopqrstuvwxyz0123456789', 'ghp_abcdefghijklmnopqrstuvwxyz0123456789', 'basic'), undefined);
  });

  it('strict placeholders: weak words, sequences, code, paths, URLs, public values, encoded placeholders', () => {
    for (const value of ['changeme', 'P@ssw0rd', 'postgres', '1234567890abcdef', 'process.env.API_KEY', 'os.getenv("X")', 'settings.SECRET_KEY', '$DB_PASSWORD', 'prod/orders/db-credentials', '~/.ssh/id_rsa', 'https://example.com/cb', 'pk_live_51abcdef', 'sha512-abcdef', 'cGFzc3dvcmQ=', 'dev-secret-key-change-in-production', 'MY_SECRET_NAME']) {
      assert.ok(placeholderReason(value, value, 'strict'), value);
    }
    for (const value of [BODY36, 'Xk9#mQ2v!Lp4', 'GRn1aQ.ccIZU2d8$28', '&1c-abk6@5bx1%rxcm_06odxvynd_@0%(of#9y5*8z-3h*-!n#']) {
      assert.equal(placeholderReason(value, value, 'strict'), undefined, value);
    }
  });

  it('names that hold no secret', () => {
    for (const name of ['next_page_token', 'nextPageToken', 'max_tokens', 'token_count', 'secret_name', 'api_key_id', 'publicKey', 'csrf_token', 'token_url']) assert.ok(notSecretName(name), name);
    for (const name of ['GITHUB_TOKEN', 'api_key', 'client_secret', 'DB_PASSWORD', 'secretKey']) assert.ok(!notSecretName(name), name);
  });

  it('a JWT counts only when signed', () => {
    const signed = `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url({ sub: 'u1' })}.${'s'.repeat(10)}Q9xZ-7_pLm2R4tYv`;
    assert.ok(isSignedJwt(signed));
    assert.ok(!isSignedJwt(`${b64url({ alg: 'none' })}.${b64url({ sub: 'u1' })}.`));
    assert.ok(!isSignedJwt(`${b64url({ alg: 'none' })}.${b64url({ sub: 'u1' })}.${'A'.repeat(20)}`));
    assert.ok(!isSignedJwt(`${b64url({ alg: 'HS256' })}.${b64url({ role: 'anon' })}.${'Q9xZ7pLm2R4tYv'.repeat(3)}`), 'Supabase anon keys are public');
  });

  it('counts capture groups the way RE2 does', () => {
    assert.equal(captureGroups('a(b)(?:c)(?P<n>d)[(]\\(e\\)'), 2);
    assert.equal(captureGroups('(?i)x'), 0);
  });
});

describe('secret detection in the engine', () => {
  it('prefixed tokens: live blocks, placeholders pass', () => {
    assert.equal(inspector.text(`token ghp_${BODY36}`).verdict.raw_action, 'block');
    assert.equal(inspector.text(`token ghp_${'x'.repeat(36)}`).verdict.raw_action, 'allow');
    assert.equal(inspector.text('AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE').verdict.raw_action, 'allow');
    // a placeholder first does not hide the live token after it
    const padded = `${'GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n'.repeat(40)}real: ghp_${BODY36}`;
    assert.equal(inspector.text(padded).verdict.raw_action, 'block');
  });

  it('generic assignments need a random value and a secret name', () => {
    assert.equal(inspector.tool('Write', { file_path: '.env', content: `DATADOG_API_KEY=${'9f3a1c7e5b2d4f6a8c0e1b3d5f7a9c2e'}` }).verdict.raw_action, 'block');
    assert.equal(inspector.tool('Write', { file_path: '.env', content: 'DATADOG_API_KEY=${DATADOG_API_KEY}' }).verdict.raw_action, 'allow');
    assert.equal(inspector.text('"nextPageToken": "CiAKGjBpNDd2Nmp2Zml2cXRvbmhyaGVhbWw5MzZrGAE"').verdict.raw_action, 'allow');
    assert.equal(inspector.text('DB_PASSWORD=changeme').verdict.raw_action, 'allow');
    assert.equal(inspector.text('DB_PASSWORD="Xk9#mQ2v!Lp4Rt"').verdict.raw_action, 'block');
  });

  it('evidence stays redacted', () => {
    const verdict = inspector.text(`export GITHUB_TOKEN=ghp_${BODY36}`).verdict;
    assert.ok(!JSON.stringify(verdict).includes(BODY36));
    assert.match(verdict.detailed_findings![0]!.evidence, /^<redacted len=\d+ sha=[0-9a-f]{8}>$/);
  });

  it('redactSecrets uses the same checks: live values go, placeholders and names stay', () => {
    const text = `GITHUB_TOKEN=ghp_${BODY36}\nOTHER=ghp_${'x'.repeat(36)}\nDB_PASSWORD="Xk9#mQ2v!Lp4Rt"\nmax_tokens: 4096`;
    const out = inspector.redactSecrets(text);
    assert.ok(!out.includes(BODY36));
    assert.ok(!out.includes('Xk9#mQ2v!Lp4Rt'));
    assert.match(out, /^GITHUB_TOKEN=<redacted len=40 sha=[0-9a-f]{8}>$/m);
    assert.match(out, /^DB_PASSWORD="<redacted len=14 sha=[0-9a-f]{8}>"$/m, 'only the value group is redacted');
    assert.ok(out.includes(`ghp_${'x'.repeat(36)}`), 'a placeholder is left alone');
    assert.ok(out.includes('max_tokens: 4096'));
  });
});

describe('secret rule fields in the schema and loader', () => {
  const root = mkdtempSync(join(tmpdir(), 'warden-secret-rules-'));
  after(() => rmSync(root, { recursive: true, force: true }));
  const pack = (name: string, rule: string) => {
    mkdirSync(join(root, name), { recursive: true });
    writeFileSync(join(root, name, 'pack.yaml'), `name: ${name}\n`);
    writeFileSync(join(root, name, 'a.yaml'), `rules:\n  - id: SECRET-TEST-ONE\n    title: t\n    category: secret\n    severity: HIGH\n    confidence: 0.9\n    tags: []\n${rule}`);
    return () => loadRulePack(name, [root]);
  };
  it('accepts the fields and refuses bad values', () => {
    assert.doesNotThrow(pack('ok', "    patterns: ['key=([a-z]+)']\n    value_group: 1\n    min_entropy: {hex: 3, alnum: 3.5}\n    placeholder_check: strict\n"));
    assert.throws(pack('nogroup', "    patterns: ['key=[a-z]+']\n    value_group: 1\n"), (e: Error) => e instanceof RulePackError && /value_group 1: no pattern/.test(e.message));
    assert.throws(pack('badshape', "    patterns: ['x']\n    min_entropy: {hexadecimal: 3}\n"), RulePackError);
    assert.throws(pack('badcheck', "    patterns: ['x']\n    placeholder_check: sometimes\n"), RulePackError);
  });
  it('a rule with checks keeps linear-time patterns (the pack compiles into one RE2.Set)', () => {
    const engine = new InspectionEngine(loadRulePack('default'));
    const start = performance.now();
    engine.scanText(('api_key = "' + 'A1b2'.repeat(10) + '"\n').repeat(20_000));
    assert.ok(performance.now() - start < 2000);
  });
});

describe('secrets corpus posture', () => {
  it('positives in a prompt, tool-call arguments or a written file are blocked', () => {
    const outgoing = secretCases().filter((c) => c.positive && (c.lane === 'prompt' || c.lane === 'tool-args' || c.lane === 'file-write'));
    const actions = outgoing.map((c) => ({ c, action: inspectCase(inspector, c).verdict.raw_action }));
    // what is caught in these lanes is blocked, never only alerted ...
    const alertedOnly = actions.filter((a) => a.action !== 'block' && a.action !== 'allow').map((a) => a.c.id);
    assert.deepEqual(alertedOnly, []);
    // ... and (as the lane's recall floor) at most 1 % of them is missed
    const missed = actions.filter((a) => a.action === 'allow').map((a) => `${a.c.id} ${a.c.kind}`);
    assert.ok(missed.length <= Math.floor(outgoing.length * 0.01), `not blocked: ${missed.join(', ')}`);
  });
  it('no positive evidence leaves unredacted in a verdict', () => {
    for (const c of secretCases().filter((x) => x.positive).slice(0, 300)) {
      for (const finding of inspectCase(inspector, c).verdict.detailed_findings ?? []) assert.match(finding.evidence, /^<redacted len=\d+ sha=[0-9a-f]{8}>$/, c.id);
    }
  });
});
