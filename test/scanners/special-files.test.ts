// What a scan never opens: a file swapped for a FIFO after its folder was listed must neither block the scan
// nor be read, and pseudo file systems are recognised by statfs wherever they are mounted (not only by place).
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { pseudoFileSystem, readRegularFile, specialFileSystem } from '../../src/scanners/special-files.js';

const MODULE = fileURLToPath(new URL('../../src/scanners/special-files.ts', import.meta.url));

describe('special files', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'warden-special-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('readRegularFile opens a FIFO without waiting for a writer and reads nothing from it', () => {
    const fifo = join(dir, 'listed-as-a-file');
    execFileSync('mkfifo', [fifo]);
    // In a child process with a deadline: a blocking open would otherwise hang this test runner for good.
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e',
      `const { readRegularFile } = await import(${JSON.stringify(MODULE)}); process.stdout.write(String(readRegularFile(${JSON.stringify(fifo)})));`,
    ], { timeout: 10_000, encoding: 'utf8' });
    assert.equal(child.signal, null, 'the open did not block');
    assert.equal(child.stdout, 'undefined');
  });

  test('readRegularFile reads a regular file, and refuses a link unless asked to follow it', () => {
    const file = join(dir, 'plain.txt');
    writeFileSync(file, 'hello');
    symlinkSync(file, join(dir, 'link.txt'));
    assert.equal(readRegularFile(file)?.toString(), 'hello');
    assert.equal(readRegularFile(join(dir, 'link.txt')), undefined);
    assert.equal(readRegularFile(join(dir, 'link.txt'), { followLinks: true })?.toString(), 'hello');
  });

  test('procfs and sysfs are recognised by statfs; tmpfs and ordinary disks are not special', { skip: process.platform !== 'linux' }, () => {
    assert.equal(pseudoFileSystem('/proc'), 'procfs');
    assert.equal(pseudoFileSystem('/sys'), 'sysfs');
    assert.equal(pseudoFileSystem(dir), undefined);
    assert.equal(pseudoFileSystem('/dev/shm'), undefined, 'tmpfs, like /tmp on many systems');
    assert.equal(specialFileSystem('/dev/shm'), '/dev', '/dev is refused by its place (devtmpfs looks like tmpfs)');
    assert.equal(specialFileSystem('/devices'), undefined, 'a prefix of the name is not the place');
  });
});
