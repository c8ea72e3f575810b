// The identity of a data directory ($WARDEN_HOME), which POST /api/v1/admin/shutdown requires with the pid: a
// caller proves it means this gateway of this data directory, not whatever now listens on a port it remembers
// (a restarted gateway, another user's, a second install). It is derived, not stored: the directory's real path,
// device and inode, hashed. A copy of the folder or a folder recreated at the same path is another directory; a
// symlink to it is the same one. It is not a secret (GET /status reports it); the token is.
import { createHash } from 'node:crypto';
import { realpathSync, statSync } from 'node:fs';

export function dataDirIdentity(home: string): string {
  const real = realpathSync(home);
  const { dev, ino } = statSync(real, { bigint: true });
  return createHash('sha256').update(`${real}\0${dev}\0${ino}`).digest('hex').slice(0, 32);
}
