// How an MCP server is reached, read from its definition alone: a URL (spoken to over Streamable HTTP), a
// package that `npx` or `uvx` fetches from a registry (checked for a pinned version, and against OSV), or
// anything else (`node server.js`, `docker run …`, a local binary), which the scanner cannot inspect without
// running it and therefore reports as unscannable. Nothing here is ever executed.
import { basename } from 'node:path';
import type { McpServerDefinition } from './definitions.js';

export type Launch =
  | { kind: 'url'; url: URL }
  | { kind: 'package'; runner: 'npx' | 'uvx'; ecosystem: 'npm' | 'PyPI'; name: string; version?: string; pinned: boolean; spec: string }
  | { kind: 'unscannable'; reason: string };

/** Options of `npx` / `uvx` that take a value (so the value is not mistaken for the package). */
const NPX_VALUE_OPTIONS = new Set(['-p', '--package', '-c', '--call', '--cache', '--registry', '--userconfig', '-w', '--workspace']);
const UVX_VALUE_OPTIONS = new Set([
  '--from', '--with', '--with-requirements', '--with-editable', '-p', '--python', '--index', '--index-url', '--extra-index-url',
  '--default-index', '-c', '--constraints', '--overrides', '--env-file', '--directory', '--project', '--cache-dir',
]);

/** An exact version: semver for npm (build metadata aside), PEP 440 release (with pre/post/dev parts) for PyPI. */
const EXACT_NPM = /^v?\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;
const EXACT_PYPI = /^\d+(?:\.\d+)*(?:(?:a|b|rc)\d+)?(?:\.post\d+)?(?:\.dev\d+)?$/;
const NPM_NAME = /^(?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i;
const PYPI_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;

/** The program's name without folder or Windows suffix (`/usr/local/bin/npx`, `npx.cmd` → `npx`). */
const programOf = (command: string) => basename(command.trim().split(/\s+/)[0] ?? '').replace(/\.(cmd|exe|bat|ps1)$/i, '');

/** The command split when a definition puts the whole line in `command` (`"command": "npx -y pkg"`). */
function argvOf(definition: McpServerDefinition): string[] {
  const words = definition.command!.trim().split(/\s+/);
  return [...words.slice(1), ...definition.args];
}

/** The value of an option (`--from x`, `--from=x`) and the first argument that is not an option. */
function readArgs(args: string[], valueOptions: Set<string>, wanted: string[]): { positional?: string; option?: string } {
  let option: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return { positional: args[i + 1], option };
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (flag.startsWith('-')) {
      const value = inline ?? (valueOptions.has(flag) ? args[++i] : undefined);
      if (wanted.includes(flag) && value !== undefined) option ??= value;
      continue;
    }
    return { positional: arg, option };
  }
  return { option };
}

function npmPackage(spec: string): Launch {
  const at = spec.lastIndexOf('@');
  const [name, version] = at > 0 ? [spec.slice(0, at), spec.slice(at + 1)] : [spec, undefined];
  if (!NPM_NAME.test(name)) return { kind: 'unscannable', reason: `npx runs ${spec}, which is not a package from the npm registry (a path, URL or git source)` };
  return { kind: 'package', runner: 'npx', ecosystem: 'npm', name, spec, pinned: version !== undefined && EXACT_NPM.test(version), ...(version ? { version: version.replace(/^v/, '') } : {}) };
}

function pypiPackage(spec: string): Launch {
  // `name==1.2.3`, `name@1.2.3` (uvx's shorthand), `name[extra]==1.2.3`, or a bare name.
  const match = /^([^=<>!~@[\s]+)(?:\[[^\]]*\])?\s*(?:(==|@|>=|<=|~=|!=|>|<)\s*(.+))?$/.exec(spec.trim());
  if (!match || !PYPI_NAME.test(match[1]!)) return { kind: 'unscannable', reason: `uvx runs ${spec}, which is not a package from PyPI (a path, URL or git source)` };
  const [, name, operator, version] = match;
  const exact = (operator === '==' || operator === '@') && version !== undefined && EXACT_PYPI.test(version.trim());
  return { kind: 'package', runner: 'uvx', ecosystem: 'PyPI', name: name!, spec, pinned: exact, ...(version ? { version: version.trim() } : {}) };
}

export function launchOf(definition: McpServerDefinition): Launch {
  if (definition.url) {
    let url: URL;
    try {
      url = new URL(definition.url);
    } catch {
      return { kind: 'unscannable', reason: `${definition.url} is not a URL` };
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return { kind: 'unscannable', reason: `${url.protocol} servers cannot be spoken to (only http and https)` };
    return { kind: 'url', url };
  }
  const program = programOf(definition.command ?? '');
  const args = argvOf(definition);
  if (program === 'npx') {
    const { positional, option } = readArgs(args, NPX_VALUE_OPTIONS, ['-p', '--package']);
    const spec = option ?? positional;
    return spec ? npmPackage(spec) : { kind: 'unscannable', reason: 'npx names no package' };
  }
  if (program === 'uvx' || (program === 'uv' && args[0] === 'tool' && args[1] === 'run')) {
    const { positional, option } = readArgs(program === 'uv' ? args.slice(2) : args, UVX_VALUE_OPTIONS, ['--from']);
    const spec = option ?? positional;
    return spec ? pypiPackage(spec) : { kind: 'unscannable', reason: 'uvx names no package' };
  }
  return { kind: 'unscannable', reason: `${program || 'the command'} is neither npx nor uvx with a package, nor a URL: its code cannot be inspected without running it` };
}
