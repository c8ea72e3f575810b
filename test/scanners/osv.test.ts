// The OSV analyzer: exact pins read from every supported file kind (ranges skipped), one batch query, one
// detail fetch per vulnerability, severities mapped, and failures of the database reported as errors.
import assert from 'node:assert/strict';
import { after, afterEach, describe, it } from 'node:test';
import { osvAnalyzer } from '../../src/scanners/analyzers/osv.js';
import { findPins } from '../../src/scanners/analyzers/osv-pins.js';
import { cvssBaseScore, osvSeverity } from '../../src/scanners/analyzers/osv-severity.js';
import type { AnalyzerContext, AnalyzerFinding, SkillPackage } from '../../src/scanners/types.js';
import { analyzerOptions } from '../helpers/analyzers.js';
import { startMockLlm, type MockLlm, type ReceivedRequest } from '../helpers/mock-llm.js';
import { tempSkills } from '../helpers/skills.js';

const skills = tempSkills();
after(() => skills.remove());

const contextFor = (skill: SkillPackage, env: Record<string, string> = {}): AnalyzerContext =>
  ({ skill, env, options: analyzerOptions({ use_osv: true }), addUsage: () => assert.fail('the osv analyzer calls no model') });

const REQUIREMENTS = `# pinned
requests==2.19.0
Flask>=1.0
django==3.*
-r other.txt
--index-url https://example.invalid/simple
numpy == 1.21.0 ; python_version > "3.7"  # inline comment
PyYAML[extra]==5.3 \\
    --hash=sha256:0123
pkg-range==1.0,<2
`;

const PYPROJECT = `[build-system]
requires = ["setuptools==68.0.0"]

[project]
name = "demo"
dependencies = [
  "urllib3==1.26.4",  # old
  'jinja2>=3',
  "Pillow[webp] == 8.0.0",
]

[tool.other]
dependencies = ["ignored==1.0.0"]
`;

const PIPFILE = `[[source]]
url = "https://pypi.org/simple"

[packages]
Werkzeug = "==0.15.0"
flask = "*"
"zope.interface" = {version = "==5.0.0", extras = ["test"]}
anything = {version = ">=1"}

[dev-packages]
pytest = "==6.0.0"

[requires]
python_version = "3.11"
`;

const PACKAGE_JSON = JSON.stringify({
  name: 'demo',
  dependencies: { lodash: '4.17.20', express: '^4.17.0', chalk: '~4.1.0', semver: 'latest', local: 'file:../x', aliased: 'npm:other@1.0.0' },
  devDependencies: { minimist: '=1.2.0', '@scope/tool': 'v2.0.0-beta.1', gitdep: 'git+https://example.invalid/x.git' },
}, null, 2);

const PACKAGE_LOCK = JSON.stringify({
  name: 'demo', lockfileVersion: 3, requires: true,
  packages: {
    '': { name: 'demo', dependencies: { lodash: '4.17.20' } },
    'node_modules/lodash': { version: '4.17.20', resolved: 'https://registry.npmjs.org/lodash/-/lodash-4.17.20.tgz' },
    'node_modules/a/node_modules/@scope/deep': { version: '1.0.1' },
    'node_modules/linked': { resolved: 'packages/linked', link: true },
    'node_modules/fromgit': { version: '1.0.0', resolved: 'git+ssh://git@example.invalid/x.git' },
    'packages/workspace-a': { name: 'workspace-a', version: '0.0.1' },
  },
}, null, 2);

const ALL_FILES = {
  'requirements.txt': REQUIREMENTS,
  'deps/requirements-dev.txt': 'black==22.3.0\n',
  'pyproject.toml': PYPROJECT,
  Pipfile: PIPFILE,
  'js/package.json': PACKAGE_JSON,
  'js/package-lock.json': PACKAGE_LOCK,
  'js/node_modules/x/package.json': JSON.stringify({ dependencies: { vendored: '1.0.0' } }),
  'notes/requirements.md': 'evil==1.0.0\n',
};

describe('osv analyzer: exact pins', () => {
  it('reads every supported file kind and skips ranges, wildcards, URLs, links and other sections', () => {
    const pins = findPins(skills.load(ALL_FILES)).map((p) => `${p.ecosystem} ${p.name}@${p.version} ${p.file_path}:${p.line_number}`);
    assert.deepEqual(pins, [
      'PyPI black@22.3.0 deps/requirements-dev.txt:1',
      'npm lodash@4.17.20 js/package-lock.json:12',
      'npm @scope/deep@1.0.1 js/package-lock.json:16',
      'npm lodash@4.17.20 js/package.json:4',
      'npm minimist@1.2.0 js/package.json:12',
      'npm @scope/tool@2.0.0-beta.1 js/package.json:13',
      'PyPI werkzeug@0.15.0 Pipfile:5',
      'PyPI zope-interface@5.0.0 Pipfile:7',
      'PyPI pytest@6.0.0 Pipfile:11',
      'PyPI urllib3@1.26.4 pyproject.toml:7',
      'PyPI pillow@8.0.0 pyproject.toml:9',
      'PyPI requests@2.19.0 requirements.txt:2',
      'PyPI numpy@1.21.0 requirements.txt:7',
      'PyPI pyyaml@5.3 requirements.txt:8',
    ]);
  });

  it('takes a single-line dependencies array and ignores lock files before v2', () => {
    const pins = findPins(skills.load({
      'pyproject.toml': '[project]\ndependencies = ["a==1.0", "b[x]==2.0; os_name == \'nt\'", "c~=3"]\n',
      'package-lock.json': JSON.stringify({ lockfileVersion: 1, dependencies: { old: { version: '1.0.0' } } }),
    }));
    assert.deepEqual(pins.map((p) => `${p.name}@${p.version}:${p.line_number}`), ['a@1.0:2', 'b@2.0:2']);
  });
});

describe('osv analyzer: severity', () => {
  it('computes CVSS v3 base scores', () => {
    assert.equal(cvssBaseScore('CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H'), 9.8);
    assert.equal(cvssBaseScore('CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N'), 6.1);
    assert.equal(cvssBaseScore('CVSS:3.0/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H'), 10);
    assert.equal(cvssBaseScore('CVSS:3.1/AV:P/AC:H/PR:H/UI:R/S:U/C:L/I:N/A:N'), 1.6);
    assert.equal(cvssBaseScore('CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:N'), 0);
    assert.equal(cvssBaseScore('CVSS:3.1/AV:N/AC:L'), undefined);
    assert.equal(cvssBaseScore('CVSS:3.1/AV:Q/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H'), undefined);
    assert.equal(cvssBaseScore('high'), undefined);
  });

  // Scores published by FIRST for these vectors (CVSS v4.0 Examples document and calculator).
  it('computes CVSS v4.0 base scores as FIRST publishes them', () => {
    assert.equal(cvssBaseScore('CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N'), 9.3);
    assert.equal(cvssBaseScore('CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:H/SI:H/SA:H'), 10);
    assert.equal(cvssBaseScore('CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:N/VA:N/SC:N/SI:N/SA:N'), 8.7);
    assert.equal(cvssBaseScore('CVSS:4.0/AV:L/AC:L/AT:N/PR:L/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N'), 8.5);
    assert.equal(cvssBaseScore('CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:A/VC:N/VI:N/VA:N/SC:L/SI:L/SA:N'), 5.1);
    assert.equal(cvssBaseScore('CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:N/VI:N/VA:N/SC:N/SI:N/SA:N'), 0);
    assert.equal(cvssBaseScore('CVSS:4.0/AV:N'), undefined);
  });

  it('computes CVSS v2 base scores, with or without the prefix', () => {
    assert.equal(cvssBaseScore('AV:N/AC:L/Au:N/C:P/I:P/A:P'), 7.5);
    assert.equal(cvssBaseScore('CVSS:2.0/AV:N/AC:L/Au:N/C:C/I:C/A:C'), 10);
    assert.equal(cvssBaseScore('AV:N/AC:L'), undefined);
  });

  it('scores a CVSS v4-only record from its vector, not its label', () => {
    assert.equal(osvSeverity({ severity: [{ type: 'CVSS_V4', score: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N' }], database_specific: { severity: 'MODERATE' } }), 'CRITICAL');
    assert.equal(osvSeverity({ severity: [{ type: 'CVSS_V2', score: 'AV:N/AC:L/Au:N/C:P/I:P/A:P' }, { type: 'CVSS_V4', score: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:A/VC:N/VI:N/VA:N/SC:L/SI:L/SA:N' }] }), 'HIGH');
  });

  it('prefers CVSS v3, then database labels, then MEDIUM', () => {
    assert.equal(osvSeverity({ severity: [{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:N/A:N' }], database_specific: { severity: 'CRITICAL' } }), 'MEDIUM');
    assert.equal(osvSeverity({ severity: [{ type: 'CVSS_V4', score: 'CVSS:4.0/AV:N' }], database_specific: { severity: 'MODERATE' } }), 'MEDIUM');
    assert.equal(osvSeverity({ affected: [{ ecosystem_specific: { severity: 'low' } }, { database_specific: { severity: 'HIGH' } }] }), 'HIGH');
    assert.equal(osvSeverity({ severity: [{ type: 'CVSS_V3', score: '7.5' }] }), 'HIGH');
    assert.equal(osvSeverity({ summary: 'no severity at all' }), 'MEDIUM');
  });
});

describe('osv analyzer: database', () => {
  let mock: MockLlm;
  afterEach(() => mock.close());

  const RECORDS: Record<string, Record<string, unknown>> = {
    'GHSA-lodash-1': {
      id: 'GHSA-lodash-1', summary: 'Prototype pollution in lodash', aliases: ['CVE-2021-0001'], modified: '2024-01-01T00:00:00Z',
      severity: [{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H' }],
      affected: [{ package: { name: 'lodash', ecosystem: 'npm' }, ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '4.17.21' }] }] }],
    },
    'PYSEC-requests-1': {
      id: 'PYSEC-requests-1', details: 'Requests leaks credentials on redirect.', database_specific: { severity: 'MODERATE' },
      affected: [{ package: { name: 'Requests', ecosystem: 'PyPI' }, ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '2.20.0' }] }] }],
    },
  };
  const database = (request: ReceivedRequest) => {
    if (request.method === 'POST' && request.path === '/osv/v1/querybatch') {
      const { queries } = JSON.parse(request.body) as { queries: { package: { name: string } }[] };
      const vulns: Record<string, { id: string; modified: string }[]> = {
        lodash: [{ id: 'GHSA-lodash-1', modified: 'x' }],
        requests: [{ id: 'PYSEC-requests-1', modified: 'x' }, { id: 'GHSA-withdrawn', modified: 'x' }],
      };
      return { kind: 'json' as const, body: { results: queries.map((q) => (vulns[q.package.name] ? { vulns: vulns[q.package.name] } : {})) } };
    }
    const id = decodeURIComponent(request.path.replace('/osv/v1/vulns/', ''));
    return RECORDS[id] ? { kind: 'json' as const, body: RECORDS[id] } : { kind: 'json' as const, status: 404, body: { message: 'Bug not found' } };
  };

  it('sends one batch query, fetches each vulnerability once, and reports it at the pin', async () => {
    mock = await startMockLlm();
    mock.fallback = database;
    const skill = skills.load({
      'requirements.txt': 'requests==2.19.0\nflask>=2\n',
      'package.json': JSON.stringify({ dependencies: { lodash: '4.17.20', left: '1.0.0' } }, null, 2),
      'package-lock.json': PACKAGE_LOCK,
    });
    const findings = (await osvAnalyzer.analyze(contextFor(skill, { SKILL_SCANNER_OSV_URL: `${mock.url}/osv/` }))) as AnalyzerFinding[];

    const batch = mock.requests.filter((r) => r.path === '/osv/v1/querybatch');
    assert.equal(batch.length, 1);
    assert.equal(batch[0]!.headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(batch[0]!.body), {
      queries: [
        { package: { name: 'lodash', ecosystem: 'npm' }, version: '4.17.20' },
        { package: { name: '@scope/deep', ecosystem: 'npm' }, version: '1.0.1' },
        { package: { name: 'left', ecosystem: 'npm' }, version: '1.0.0' },
        { package: { name: 'requests', ecosystem: 'PyPI' }, version: '2.19.0' },
      ],
    });
    assert.deepEqual(mock.requests.filter((r) => r.method === 'GET').map((r) => r.path).sort(), [
      '/osv/v1/vulns/GHSA-lodash-1', '/osv/v1/vulns/GHSA-withdrawn', '/osv/v1/vulns/PYSEC-requests-1',
    ]);

    const byRule = new Map(findings.map((f) => [f.rule_id, f]));
    assert.deepEqual([...byRule.keys()].sort(), ['OSV-GHSA-lodash-1', 'OSV-GHSA-withdrawn', 'OSV-PYSEC-requests-1']);
    const lodash = byRule.get('OSV-GHSA-lodash-1')!;
    assert.deepEqual(
      { category: lodash.category, severity: lodash.severity, file: lodash.file_path, line: lodash.line_number, snippet: lodash.snippet },
      { category: 'supply_chain_attack', severity: 'CRITICAL', file: 'package.json', line: 3, snippet: '"lodash": "4.17.20",' },
    );
    assert.equal(lodash.title, 'Vulnerable dependency lodash@4.17.20: Prototype pollution in lodash');
    assert.match(lodash.description, /GHSA-lodash-1 \(CVE-2021-0001\)/);
    assert.equal(lodash.remediation, 'Pin lodash to a fixed version: 4.17.21 (or later).');
    assert.deepEqual(lodash.metadata?.locations, [{ file_path: 'package.json', line_number: 3 }, { file_path: 'package-lock.json', line_number: 12 }]);

    const requests = byRule.get('OSV-PYSEC-requests-1')!;
    assert.deepEqual([requests.severity, requests.file_path, requests.line_number], ['MEDIUM', 'requirements.txt', 1]);
    assert.match(requests.description, /leaks credentials on redirect/);
    assert.equal(requests.remediation, 'Pin requests to a fixed version: 2.20.0 (or later).');

    const withdrawn = byRule.get('OSV-GHSA-withdrawn')!;
    assert.equal(withdrawn.severity, 'MEDIUM');
    assert.match(withdrawn.description, /could not be fetched/);
  });

  it('asks nothing when the skill pins nothing exactly', async () => {
    mock = await startMockLlm();
    const findings = await osvAnalyzer.analyze(contextFor(skills.load({ 'requirements.txt': 'flask>=2\n' }), { SKILL_SCANNER_OSV_URL: mock.url }));
    assert.deepEqual(findings, []);
    assert.equal(mock.requests.length, 0);
  });

  it('fails with a clear message on a 5xx, a malformed answer, an unreachable host and a timeout', async () => {
    mock = await startMockLlm();
    const skill = skills.load({ 'requirements.txt': 'requests==2.19.0\n' });
    const run = async (env: Record<string, string>) => osvAnalyzer.analyze(contextFor(skill, env));

    mock.fallback = () => ({ kind: 'json', status: 503, body: { error: 'overloaded' } });
    await assert.rejects(run({ SKILL_SCANNER_OSV_URL: mock.url }), /^ServiceError: OSV request to http:\/\/127\.0\.0\.1:\d+\/v1\/querybatch failed: HTTP 503: \{"error":"overloaded"\}$/);

    mock.fallback = () => ({ kind: 'json', body: { results: [] } });
    await assert.rejects(run({ SKILL_SCANNER_OSV_URL: mock.url }), /does not hold one result per query/);

    mock.fallback = (request) => (request.method === 'POST'
      ? { kind: 'json', body: { results: [{ vulns: [{ id: 'PYSEC-requests-1', modified: 'x' }] }] } }
      : { kind: 'json', status: 500, body: {} });
    await assert.rejects(run({ SKILL_SCANNER_OSV_URL: mock.url }), /vulns\/PYSEC-requests-1 failed: HTTP 500/);

    mock.fallback = () => ({ kind: 'hang' });
    await assert.rejects(run({ SKILL_SCANNER_OSV_URL: mock.url, SKILL_SCANNER_HTTP_TIMEOUT_MS: '200' }), /timed out after 200 ms/);

    const unreachable = mock.url;
    await mock.close();
    mock = await startMockLlm(); // afterEach closes this one
    await assert.rejects(run({ SKILL_SCANNER_OSV_URL: unreachable }), /OSV request to .* failed: could not reach the service \(ECONNREFUSED\)/);
  });
});
