// Where a scan may read: SKILL_SCANNER_ALLOWED_ROOTS (a `:`-separated list of folders) confines every path a
// request names. Paths are resolved (symlinks included) before the check, so a link cannot lead outside.
import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';

export class PathRejected extends Error {
  override readonly name = 'PathRejected';
  constructor(message: string, readonly status: 400 | 403 | 404) {
    super(message);
  }
}

export function allowedRoots(env: Record<string, string | undefined>): string[] | undefined {
  const raw = env.SKILL_SCANNER_ALLOWED_ROOTS?.trim();
  if (!raw) return undefined;
  return [...new Set(raw.split(':').filter(Boolean).flatMap(rootForms))];
}

/** A root as written and as its real path, so a path can be checked before and after resolving links. */
export function rootForms(root: string): string[] {
  const forms = [resolve(root)];
  try {
    forms.push(realpathSync(resolve(root)));
  } catch {
    // a root that does not exist confines to nothing that exists
  }
  return forms;
}

const isWithin = (path: string, root: string) => {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
};

/** The real path of `path`, when it exists and lies within the allowed roots (when any are set). */
export function confinePath(path: string, roots: string[] | undefined): string {
  if (path.includes('\0')) throw new PathRejected('path contains a NUL byte', 400);
  if (path.trim() === '') throw new PathRejected('path is empty', 400);
  const outside = (candidate: string) => roots !== undefined && !roots.some((root) => isWithin(candidate, root));
  // Refuse before touching the disk, so a caller cannot probe what exists outside the roots.
  if (outside(resolve(path))) throw new PathRejected(`path is outside SKILL_SCANNER_ALLOWED_ROOTS: ${path}`, 403);
  let real: string;
  try {
    real = realpathSync(resolve(path));
  } catch {
    throw new PathRejected(`path not found: ${path}`, 404);
  }
  if (outside(real)) {
    throw new PathRejected(`path is outside SKILL_SCANNER_ALLOWED_ROOTS: ${path}`, 403);
  }
  return real;
}
