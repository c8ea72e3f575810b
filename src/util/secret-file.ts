// Owner-only secret files created on first use (device.key, fleet.key). The new content is written to a
// complete temp file and hard-linked into place: link fails if another process won the race, so every reader
// sees one whole secret, never half of one and never two different ones.
import { randomBytes } from 'node:crypto';
import { linkSync, rmSync } from 'node:fs';
import { writeFileAtomic } from './atomic-write.js';

/** `read(path)`, after creating the file with `fresh()` (mode 0600) when it does not exist yet. */
export function readOrCreateSecretFile<T>(path: string, read: (path: string) => T, fresh: () => string): T {
  try {
    return read(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const temp = `${path}.${randomBytes(6).toString('hex')}.new`;
  writeFileAtomic(temp, fresh(), 0o600);
  try {
    linkSync(temp, path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    rmSync(temp, { force: true });
  }
  return read(path);
}
