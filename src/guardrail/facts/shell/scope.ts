// Where a path lands relative to the project: the hook payload's working directory is the project root for
// verdicts (DESIGN.md section 4), so a delete of a build folder inside it is routine while the same delete
// of the root itself, of the home directory or of anything outside is not. Paths are resolved lexically
// (no filesystem access): `~`, `$HOME`, `$PWD`, `$(pwd)`, `.` and `..` segments, and globs, which reach
// everything under their fixed prefix.

/** What a path is to the project. Rules compare these names; keep them stable. */
export type Scope =
  | 'root' // the filesystem root, or a glob over it
  | 'system' // an operating-system directory (/etc, /usr, /var, /home …) or something in it
  | 'home' // a home directory itself
  | 'ancestor' // a directory that contains the project (its parent, …)
  | 'project' // the project root itself, or every entry of it (`*`, `./*`)
  | 'vcs' // the project's version-control store (.git, .git/objects, .git/refs)
  | 'inside' // something inside the project
  | 'temp' // a temporary directory (/tmp, /var/tmp, $TMPDIR)
  | 'cache' // a package-manager or build cache outside the project (~/.cache, ~/.npm, DerivedData …): regenerated
  | 'outside' // anything else outside the project
  | 'elsewhere' // with no project root known: an absolute path to what looks like a build or cache folder
  | 'input' // targets read from input (`… | xargs rm -rf`), not known from the command line
  | 'unknown'; // depends on a variable or on code not known from the command line

/** The path recorded for targets that xargs or parallel read from their input. */
export const INPUT_TARGETS = '$STDIN';

const TEMP_PREFIXES = ['/tmp', '/var/tmp', '/private/tmp', '/private/var/folders', '/var/folders', '/dev/shm'];
const SYSTEM_TOP = new Set([
  'bin', 'boot', 'dev', 'etc', 'lib', 'lib32', 'lib64', 'libx32', 'opt', 'proc', 'sbin', 'srv', 'sys', 'usr', 'var',
  'home', 'Users', 'System', 'Library', 'Applications', 'private', 'Volumes', 'mnt', 'media', 'snap', 'nix', 'run',
  'cores', 'etc.defaults',
]);
const HOME_MARKERS = ['~', '$HOME', '${HOME}', '${HOME:?}', '$USERPROFILE'];
const CWD_MARKERS = ['$PWD', '${PWD}', '$(pwd)', '`pwd`', '$(pwd -P)', '$(realpath .)'];
const GLOB = /[*?[{]/;
const VARIABLE = /\$/;
const HOME_DIR = /^(\/home\/[^/]+|\/Users\/[^/]+|\/root)(?:\/|$)/;
/** Caches that tools rebuild on demand: deleting them costs a download, not work. */
const CACHE_DIR = /\/(\.cache|Caches|\.npm|_cacache|\.yarn\/cache|\.pnpm-store|DerivedData|\.gradle\/caches|\.m2\/repository|go-build|go\/pkg\/mod|\.cargo\/registry|\.cargo\/git|__pycache__|\.nuget\/packages|\.bun\/install\/cache|\.deno|\.composer\/cache|\.pub-cache|\.cocoapods|\.terraform\.d\/plugin-cache)(\/|$)|^\/var\/cache(\/|$)|^\/var\/lib\/apt\/lists(\/|$)/;

export interface ScopeContext {
  /** Project root (absolute, normalised), or '' when unknown. */
  root: string;
  /** Directory commands run in (after `cd`), or '' when unknown. */
  dir: string;
}

/** Home directory of the user owning `dir` (`/home/dev/project` → `/home/dev`), or '' when not a home. */
export function homeContaining(dir: string): string {
  const m = HOME_DIR.exec(dir);
  return m ? m[1]! : '';
}

/** `.` and `..` segments removed, doubled slashes collapsed; `..` above the root stays at the root. */
export function normalizePath(path: string): string {
  // Most paths have nothing to normalise; splitting and joining them is most of the cost.
  if (!path.includes('//') && !path.includes('/.') && !path.startsWith('.') && !path.endsWith('/')) return path;
  const absolute = path.startsWith('/');
  const out: string[] = [];
  for (const seg of path.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
      else if (!absolute) out.push('..');
    } else out.push(seg);
  }
  return (absolute ? '/' : '') + out.join('/');
}

function replacePrefix(path: string, markers: readonly string[], value: string): string | undefined {
  for (const m of markers) {
    if (path === m) return value;
    if (path.startsWith(`${m}/`)) return value + path.slice(m.length);
  }
  return undefined;
}

/** The path with `~`, `$HOME` and `$PWD` expanded where their value is known, made absolute against the
 *  current directory. `~` stays `~` (and `~user` becomes `/home/user`) when no home is known. */
export function resolvePath(path: string, ctx: ScopeContext): string {
  const first = path.charAt(0);
  if ((path === '.' || path === './') && ctx.dir !== '') return ctx.dir;
  if (first !== '~' && first !== '$' && first !== '`') {
    return normalizePath(!path.startsWith('/') && ctx.dir !== '' ? `${ctx.dir}/${path}` : path);
  }
  const home = homeContaining(ctx.root || ctx.dir);
  let p = replacePrefix(path, HOME_MARKERS, home || '~');
  if (p === undefined && path.startsWith('~') && !path.startsWith('~/')) {
    const slash = path.indexOf('/');
    p = `/home/${slash < 0 ? path.slice(1) : path.slice(1, slash)}${slash < 0 ? '' : path.slice(slash)}`;
  }
  if (p === undefined) p = replacePrefix(path, CWD_MARKERS, ctx.dir || '.');
  if (p === undefined) p = path;
  if (!p.startsWith('/') && !p.startsWith('~') && ctx.dir !== '') p = `${ctx.dir}/${p}`;
  return normalizePath(p);
}

/** Glob segments that match every entry of their directory (`*`, `.*`, `**`, `{*,.*}`). */
const MATCH_ALL = /^(\*+|\.\*|\*\.\*|\.\[!.\]\*|\{[*.,]+\}|\?\*)$/;

/** The part of a path before its first segment with a glob character, whether there was one, and whether
 *  the glob matches everything there (`dist/*`) rather than some entries (`*.log`, `build-*`). */
function globPrefix(path: string): { prefix: string; glob: boolean; narrow: boolean } {
  const at = globIndex(path);
  if (at < 0) return { prefix: path, glob: false, narrow: false };
  const slash = path.lastIndexOf('/', at);
  const rest = path.slice(slash + 1).split('/').filter((s) => s !== '');
  const narrow = rest.length === 0 || !MATCH_ALL.test(rest[0]!);
  return { prefix: slash < 0 ? '.' : slash === 0 ? '/' : path.slice(0, slash), glob: true, narrow };
}

/** Index of the first glob character outside `${…}` parameter expansions, or -1. */
function globIndex(path: string): number {
  if (!GLOB.test(path)) return -1;
  for (let i = 0; i < path.length; i++) {
    const c = path.charAt(i);
    if (c === '$' && path.charAt(i + 1) === '{') {
      const close = path.indexOf('}', i);
      if (close < 0) return -1;
      i = close;
    } else if (c === '*' || c === '?' || c === '[' || c === '{') return i;
  }
  return -1;
}

/** A glob matching only some entries (`*.log`) reaches less than its directory: one step down in gravity. */
const NARROWED: Partial<Record<Scope, Scope>> = { project: 'inside', home: 'outside', root: 'system', ancestor: 'outside' };

function within(path: string, dir: string): boolean {
  if (dir === '/') return path.startsWith('/');
  return path.startsWith(dir) && (path.length === dir.length || path.charCodeAt(dir.length) === 47 /* / */);
}

function isTemp(path: string): boolean {
  return TEMP_PREFIXES.some((t) => within(path, t)) || path.startsWith('$TMPDIR') || path.startsWith('${TMPDIR}');
}

/** Folder names that are build output or caches: with no project root known, an absolute path ending in
 *  one of them is most likely a project's own build folder, anything else is treated as outside. */
const BUILD_NAME = /^(node_modules|dist|build|out|target|\.next|\.nuxt|\.turbo|\.cache|__pycache__|\.pytest_cache|coverage|\.venv|venv|tmp|\.tmp|vendor|bin|obj|\.gradle|\.parcel-cache|storybook-static|\.svelte-kit|\.angular|\.expo|DerivedData|Pods|\.terraform|\.tox|\.mypy_cache|\.ruff_cache|[^/]*\.egg-info|[^/]*\.log)$/;

/** `$VAR` at the start of a path: an empty variable turns `$VAR/` or `$VAR/*` into the root. `${VAR:?}`
 *  refuses to expand when VAR is empty, so it is only unknown. */
function variableScope(path: string): Scope | undefined {
  if (/\$\{[A-Za-z_][A-Za-z0-9_]*:?\?/.test(path)) return 'unknown';
  if (!path.startsWith('$') && !path.includes('/$') && !path.startsWith('"$')) return undefined;
  if (path.startsWith('$TMPDIR') || path.startsWith('${TMPDIR}')) return 'temp';
  const m = /^\$\{?[A-Za-z_][A-Za-z0-9_]*\}?(\/.*)?$/.exec(path);
  if (m && (m[1] === '/' || m[1] === '/*' || m[1] === '/.')) return 'root';
  return 'unknown';
}

/**
 * The scope of `path` (as written in a command) for a command run in `ctx.dir` of project `ctx.root`.
 * A glob has the scope of its fixed prefix, except that a glob directly in the project root is `project`.
 */
export function pathScope(path: string, ctx: ScopeContext): Scope {
  const glob = globPrefix(path);
  const scope = broadScope(path, glob, ctx);
  return glob.narrow ? NARROWED[scope] ?? scope : scope;
}

function broadScope(path: string, { prefix, glob }: { prefix: string; glob: boolean }, ctx: ScopeContext): Scope {
  if (path === '') return 'unknown';
  if (path === INPUT_TARGETS) return 'input';
  const home = homeContaining(ctx.root || ctx.dir);
  const resolved = resolvePath(prefix, ctx);
  if (VARIABLE.test(resolved) || resolved.includes('`')) return variableScope(path) ?? 'unknown';
  if (resolved === '/' || resolved === '') return resolved === '/' ? 'root' : 'project';
  if (resolved === '~' || (home !== '' && resolved === home)) return ctx.root !== '' && resolved === ctx.root ? 'project' : 'home';
  // The project first: a project checked out under /tmp is still the project.
  if (ctx.root !== '') {
    if (resolved === ctx.root) return 'project';
    if (within(ctx.root, resolved)) return 'ancestor';
    if (within(resolved, ctx.root)) return vcsOrInside(resolved.slice(ctx.root.length + 1), glob);
  }
  if (CACHE_DIR.test(resolved)) return 'cache';
  if (resolved.startsWith('~/')) return ctx.root === '' && !glob && BUILD_NAME.test(resolved.split('/').pop()!) ? 'elsewhere' : 'outside';
  if (isTemp(resolved)) return 'temp';
  if (ctx.root === '' && !resolved.startsWith('/')) {
    if (resolved === '..' || resolved.startsWith('../')) return 'ancestor';
    return vcsOrInside(resolved, glob);
  }
  if (HOME_DIR.test(resolved) && homeContaining(resolved) === resolved) return 'home';
  const top = resolved.split('/')[1] ?? '';
  if (SYSTEM_TOP.has(top) && !HOME_DIR.test(resolved)) return 'system';
  return ctx.root === '' && BUILD_NAME.test(resolved.split('/').pop()!) ? 'elsewhere' : 'outside';
}

/** Inside the project: the git store itself (not `.git/index.lock` or a stuck rebase folder) is history. */
function vcsOrInside(relative: string, glob: boolean): Scope {
  if (relative === '.git' || relative === '.git/objects' || relative === '.git/refs' || (glob && relative === '.git')) return 'vcs';
  return 'inside';
}
