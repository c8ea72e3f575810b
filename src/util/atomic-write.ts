// Atomic file replacement: write a sibling temp file, fsync it, rename it over the target, fsync the folder.
// A reader (or a crash) sees either the old file or the new one, never half of one.
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export function writeFileAtomic(path: string, data: string | Uint8Array, mode?: number): void {
  const fileMode = mode ?? existingMode(path) ?? 0o644;
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  // 'wx': never follow or reuse something already sitting at the temp name.
  const fd = openSync(temp, 'wx', fileMode);
  try {
    writeFileSync(fd, data); // loops until every byte is written, for strings and bytes alike
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw err;
  }
  closeSync(fd);
  try {
    renameSync(temp, path);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
  syncDirectory(dirname(path));
}

function existingMode(path: string): number | undefined {
  try {
    return statSync(path).mode & 0o777;
  } catch {
    return undefined;
  }
}

function syncDirectory(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some filesystems refuse fsync on a directory; the rename itself is still atomic there.
  }
}
