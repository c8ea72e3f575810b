// Shell syntax: words, lists, redirections and compound commands, as facts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NOTHING, shell, summary } from '../helpers/facts.js';

describe('shell words', () => {
  it('removes empty quotes inside a word', () => {
    const f = shell("r''m -rf /");
    assert.deepEqual(f.commands, [{ name: 'rm', args: ['-rf', '/'], text: 'rm -rf /' }]);
    assert.deepEqual(f.paths_written, ['/']);
  });

  it('keeps a quoted command line as one argument of echo', () => {
    const f = shell('echo "rm -rf /"');
    assert.deepEqual(f.commands, [{ name: 'echo', args: ['rm -rf /'], text: 'echo rm -rf /' }]);
    assert.deepEqual(summary(f), { ...NOTHING, commands: ['echo rm -rf /'] });
  });

  it('applies the escapes of double quotes', () => {
    assert.deepEqual(shell('printf "%s" "a\\"b\\\\c\\$d\\`e\\x"').commands[0]?.args, ['%s', 'a"b\\c$d`e\\x']);
  });

  it('decodes ANSI-C quoting as bash does', () => {
    assert.deepEqual(shell("$'\\x72\\x6d' -rf $'/tmp\\x2fa'").commands[0], { name: 'rm', args: ['-rf', '/tmp/a'], text: 'rm -rf /tmp/a' });
    assert.equal(shell("$'\\162\\155' x").commands[0]?.name, 'rm');
    assert.deepEqual(shell("echo $'a\\tb\\nc\\'d\\\\'").commands[0]?.args, ["a\tb\nc'd\\"]);
  });

  it('does not count variable assignments as argv', () => {
    const f = shell('FOO=1 BAR="x y" rm -rf ~');
    assert.deepEqual(f.commands, [{ name: 'rm', args: ['-rf', '~'], text: 'rm -rf ~' }]);
    assert.deepEqual(f.paths_written, ['~']);
  });

  it('names a command by the basename of its path', () => {
    assert.deepEqual(shell('/bin/rm -rf /').commands, [{ name: 'rm', args: ['-rf', '/'], text: '/bin/rm -rf /' }]);
  });
});
