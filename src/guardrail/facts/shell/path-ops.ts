// Destructive operations on paths (delete, shred, truncate, recursive chmod/chown, moves), each with the
// scope of its target relative to the project (scope.ts): rules then say "a recursive delete of the home
// directory" without re-deriving from argv what rm, find, rsync or mv will touch.
import type { PathOp } from '../types.js';
import { optionValues, parseOptions } from './options.js';
import { pathScope, type ScopeContext } from './scope.js';

export type PathOpSink = (op: PathOp) => void;

/** find tests that narrow what is matched: with one of them, `find . … -delete` is a cleanup, not a wipe. */
const FIND_FILTERS = new Set([
  '-name', '-iname', '-path', '-ipath', '-wholename', '-iwholename', '-regex', '-iregex', '-newer', '-mtime',
  '-mmin', '-atime', '-amin', '-ctime', '-cmin', '-empty', '-size', '-user', '-group', '-perm', '-links', '-inum',
  '-samefile', '-lname', '-ilname', '-uid', '-gid', '-nouser', '-nogroup',
]);
const FIND_DELETERS = new Set(['rm', 'shred', 'unlink', 'rmdir', 'srm']);
const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);
/** find options before the starting points. */
const FIND_LEADING = /^-[HLPO]/;
const PLACEHOLDER = '{}';
const RECURSIVE_FLAG = /^-[A-Za-z]*[rR]/;
const MODE_WIDE_OPEN = /^(0?[0-7]?7[0-7]7|0?[0-7]?[0-7][0-7][2367]|0?0{3,4}|[ugoa]*[oa][ugoa]*[+=][rwxXst]*w[rwxXst]*|a?[+=]rwx)$/;

function op(sink: PathOpSink, ctx: ScopeContext, kind: string, path: string, recursive: boolean, filtered = false): void {
  let scope = pathScope(path, ctx);
  // A filtered find over the project root only touches what matches: a cleanup inside the project.
  if (filtered && scope === 'project') scope = 'inside';
  sink({ op: kind, path, scope, recursive, filtered });
}

function isRecursive(args: readonly string[]): boolean {
  return args.some((a) => a === '--recursive' || (!a.startsWith('--') && RECURSIVE_FLAG.test(a)));
}

/** rm, unlink, rmdir, srm, rimraf: operands are deleted; `{}` (find -exec, xargs -I) is handled by their caller. */
function remove(name: string, args: readonly string[], ctx: ScopeContext, sink: PathOpSink, targets?: readonly string[], filtered = false): void {
  const parsed = parseOptions(args, {});
  // rimraf (the npm package's CLI) always deletes recursively; it has no -r to look for.
  const recursive = name === 'rimraf' || (name !== 'unlink' && name !== 'rmdir' && isRecursive(args.slice(0, args.indexOf('--') < 0 ? args.length : args.indexOf('--'))));
  const operands = parsed.operands.filter((p) => p !== PLACEHOLDER);
  for (const p of operands) op(sink, ctx, 'delete', p, recursive);
  for (const p of targets ?? []) op(sink, ctx, 'delete', p, recursive, filtered);
}

/** find ROOTS … -delete | -exec rm …: every root is deleted from, recursively; filters narrow it. */
function find(args: readonly string[], ctx: ScopeContext, sink: PathOpSink): void {
  let i = 0;
  while (i < args.length && FIND_LEADING.test(args[i]!)) i++;
  const roots: string[] = [];
  for (; i < args.length && !args[i]!.startsWith('-') && args[i] !== '(' && args[i] !== '!'; i++) roots.push(args[i]!);
  if (roots.length === 0) roots.push('.');
  let deletes = false;
  let recursive = false;
  let shreds = false;
  for (let j = i; j < args.length; j++) {
    const a = args[j]!;
    if (a === '-delete') deletes = recursive = true;
    if (FIND_EXEC.has(a)) {
      const cmd = (args[j + 1] ?? '').split('/').pop()!;
      if (FIND_DELETERS.has(cmd)) {
        deletes = true;
        shreds ||= cmd === 'shred';
        const until = args.indexOf(';', j) < 0 ? args.length : args.indexOf(';', j);
        recursive ||= isRecursive(args.slice(j + 2, until)) || cmd === 'rm';
      }
    }
  }
  if (!deletes) return;
  // `-name '*'` matches everything: not a filter.
  const filtered = args.slice(i).some((a, j, rest) => FIND_FILTERS.has(a) && rest[j + 1] !== '*' && rest[j + 1] !== '.*');
  for (const root of roots) op(sink, ctx, shreds ? 'shred' : 'delete', root, recursive, filtered);
}

/** truncate -s 0 (or -s -N, -s <N): the file's content is gone. */
function truncate(args: readonly string[], ctx: ScopeContext, sink: PathOpSink): void {
  const parsed = parseOptions(args, { short: 'sr', long: ['--size', '--reference'] });
  const [size] = optionValues(parsed, '-s', '--size');
  if (size === undefined || !/^(0+[KMGkmg]?|-.*|<.*|\/.*)$/.test(size)) return;
  for (const p of parsed.operands) op(sink, ctx, 'truncate', p, false);
}

function shred(args: readonly string[], ctx: ScopeContext, sink: PathOpSink): void {
  const parsed = parseOptions(args, { short: 'ns', long: ['--iterations', '--size', '--random-source'] });
  for (const p of parsed.operands) op(sink, ctx, 'shred', p, false);
}

/** chmod -R / chown -R / chgrp -R: the mode (or owner) goes with the op's path as `MODE:path`. */
function permissions(name: string, args: readonly string[], ctx: ScopeContext, sink: PathOpSink): void {
  if (!isRecursive(args)) return;
  const operands = args.filter((a) => !/^-[RvcfhHLP]+$/.test(a) && !a.startsWith('--'));
  const [mode, ...targets] = operands;
  if (mode === undefined) return;
  const kind = name === 'chmod' ? (MODE_WIDE_OPEN.test(mode) ? 'chmod-open' : 'chmod') : 'chown';
  for (const p of targets) op(sink, ctx, kind, p, true);
}

/** mv: each source leaves its place (a move of / or ~ is as bad as a delete); the destination is overwritten. */
function move(args: readonly string[], ctx: ScopeContext, sink: PathOpSink): void {
  const parsed = parseOptions(args, { short: 'tS', long: ['--target-directory', '--suffix'] });
  const [target] = optionValues(parsed, '-t', '--target-directory');
  const { operands } = parsed;
  const destination = target ?? (operands.length >= 2 ? operands[operands.length - 1] : undefined);
  const sources = target === undefined ? operands.slice(0, -1) : operands;
  if (destination === undefined) return;
  const intoVoid = destination === '/dev/null';
  for (const s of sources) op(sink, ctx, intoVoid ? 'delete' : 'move', s, true);
  if (!intoVoid) op(sink, ctx, 'overwrite', destination, false);
}

/** rsync --delete (and friends) removes from the destination whatever the source lacks. */
function rsync(args: readonly string[], ctx: ScopeContext, sink: PathOpSink): void {
  if (!args.some((a) => a.startsWith('--delete') || a === '--remove-source-files')) return;
  const operands = args.filter((a) => !a.startsWith('-'));
  const destination = operands[operands.length - 1];
  if (destination !== undefined && operands.length >= 2 && !/^[^/]*:/.test(destination)) op(sink, ctx, 'delete', destination, true);
}

/** Commands this module knows. */
export const PATH_OP_COMMANDS: ReadonlySet<string> = new Set(['rm', 'unlink', 'rmdir', 'srm', 'rimraf', 'find', 'truncate', 'shred', 'chmod', 'chown', 'chgrp', 'mv', 'rsync']);

/** Records the path operations of `name args`; `targets` are operands xargs or parallel add from input. */
export function recordPathOps(name: string, args: readonly string[], ctx: ScopeContext, sink: PathOpSink, targets?: readonly string[], filtered = false): void {
  switch (name) {
    case 'rm':
    case 'unlink':
    case 'rmdir':
    case 'srm':
    case 'rimraf':
      return remove(name, args, ctx, sink, targets, filtered);
    case 'find':
      return find(args, ctx, sink);
    case 'truncate':
      return truncate(args, ctx, sink);
    case 'shred':
      return shred([...args, ...(targets ?? [])], ctx, sink);
    case 'chmod':
    case 'chown':
    case 'chgrp':
      return permissions(name, [...args, ...(targets ?? [])], ctx, sink);
    case 'mv':
      return move(args, ctx, sink);
    case 'rsync':
      return rsync(args, ctx, sink);
  }
}

