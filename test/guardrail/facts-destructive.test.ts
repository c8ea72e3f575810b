// Facts behind the destructive-command rules (issue 12, section 1) that are not single command cases: path
// scopes themselves, loop bodies, the project root taken from a Codex-style workdir, and query text read from
// standard input. The command cases (path operations, git and interpreter commands, remote code, and the
// default pack's verdicts with the project root) are in cases/shell-destructive.yaml.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractFacts } from '../../src/guardrail/facts/index.js';
import { pathScope } from '../../src/guardrail/facts/shell/scope.js';

const CWD = '/home/dev/project';
const facts = (command: string, cwd: string | undefined = CWD) => extractFacts('Bash', { command }, cwd);

describe('path scopes', () => {
  const ctx = { root: CWD, dir: CWD };
  const cases: [string, string][] = [
    ['/', 'root'], ['/*', 'root'], ['//', 'root'], ['/tmp/../etc', 'system'], ['~', 'home'], ['$HOME/', 'home'], ['${HOME}', 'home'],
    ['/home/dev', 'home'], ['..', 'home'], ['../other', 'outside'], ['.', 'project'], ['*', 'project'], ['./*', 'project'],
    ['$(pwd)', 'project'], ['.git', 'vcs'], ['.git/index.lock', 'inside'], ['node_modules', 'inside'], ['dist/*', 'inside'],
    ['*.log', 'inside'], ['/home/dev/project/dist', 'inside'], ['/tmp/x', 'temp'], ['$TMPDIR/x', 'temp'], ['~/.cache/pip', 'cache'],
    ['~/Documents', 'outside'], ['/etc/passwd', 'system'], ['$DIR/', 'root'], ['$DIR/*', 'root'], ['${DIR:?}/', 'unknown'], ['$BUILD', 'unknown'],
  ];
  for (const [path, scope] of cases) it(`${path} is ${scope}`, () => assert.equal(pathScope(path, ctx), scope));

  it('treats the parent of a project outside any home as an ancestor', () => {
    assert.equal(pathScope('..', { root: '/workspace/app', dir: '/workspace/app' }), 'ancestor');
  });

  it('without a project root, relative paths are inside and absolute ones outside unless they look like build output', () => {
    const none = { root: '', dir: '' };
    assert.equal(pathScope('dist', none), 'inside');
    assert.equal(pathScope('.', none), 'project');
    assert.equal(pathScope('/Users/me/Documents', none), 'outside');
    assert.equal(pathScope('/Users/me/code/app/node_modules', none), 'elsewhere');
  });
});

describe('path operations', () => {
  it('lists loop bodies once as commands', () => {
    assert.deepEqual(facts('for d in a b; do rm -rf "$d"; done').commands.map((c) => c.text), ['rm -rf $d']);
  });

  it('takes the project root from the cwd argument or a Codex-style workdir', () => {
    assert.equal(extractFacts('shell', { command: ['bash', '-lc', 'rm -rf /srv/app'], workdir: '/srv/app' }).path_ops?.[0]?.scope, 'project');
    assert.equal(facts('rm -rf /srv/app', '/srv/app').path_ops?.[0]?.scope, 'project');
    assert.equal(facts('rm -rf /', '/').path_ops?.[0]?.scope, 'root', 'a filesystem root is never the project');
  });
});

describe('git, interpreters and remote code', () => {
  it('records query text that clients read from standard input', () => {
    assert.deepEqual(facts('echo "DROP TABLE t;" | psql').inputs, [{ name: 'psql', text: 'DROP TABLE t;\n' }]);
  });
});
