// Where the folders a version 8 config.yaml names live inside the home. Version 8 wrote absolute paths under its
// `data_dir` (`/home/dev/.warden/policies/guardrail/strict`); the migration runs on the home it is given
// ($WARDEN_HOME, or a copy of it), so a path is mapped to a home-relative one through `data_dir`, the home
// itself or `~/.warden`. readHome (which reads the folders) and rule 5 (which rewrites them) share this, so both
// agree on which files a pack holds. A path that stays outside the home is refused: the migration reads and
// writes inside the home only.
import { isAbsolute, posix, relative, sep } from 'node:path';

/** The v8 rule_pack_dir default, relative to the data directory. */
export const V8_DEFAULT_RULE_PACK_DIR = 'policies/guardrail/default';

/** Every `rule_pack_dir` of a parsed v8 config, with the key it was set at (`guardrail` or `guardrail.connectors.<name>`). */
export function rulePackDirs(config: unknown): { scope: string[]; dir: string }[] {
  const guardrail = asRecord(asRecord(config)?.guardrail);
  if (!guardrail) return [];
  const found: { scope: string[]; dir: string }[] = [];
  if (typeof guardrail.rule_pack_dir === 'string') found.push({ scope: ['guardrail'], dir: guardrail.rule_pack_dir });
  for (const [name, connector] of Object.entries(asRecord(guardrail.connectors) ?? {})) {
    const dir = asRecord(connector)?.rule_pack_dir;
    if (typeof dir === 'string') found.push({ scope: ['guardrail', 'connectors', name], dir });
  }
  return found;
}

/**
 * The home-relative (`/`-separated) path of `dir` as a v8 config names it, or undefined when it is outside the
 * home. `dataDir` is the config's `data_dir`, the prefix v8 wrote its own paths under.
 */
export function homeRelative(dir: string, home: string, dataDir: string | undefined): string | undefined {
  const trimmed = dir.replace(/\/+$/, '');
  for (const prefix of [dataDir, home, '~/.warden'].filter((p): p is string => !!p)) {
    const base = prefix.replace(/\/+$/, '');
    if (trimmed === base) return '';
    if (trimmed.startsWith(`${base}/`)) return normalise(trimmed.slice(base.length + 1));
  }
  if (isAbsolute(trimmed) || trimmed.startsWith('~')) {
    const rel = relative(home, trimmed);
    return rel.startsWith('..') || isAbsolute(rel) ? undefined : normalise(rel.split(sep).join('/'));
  }
  return normalise(trimmed);
}

function normalise(rel: string): string | undefined {
  const n = posix.normalize(rel);
  return n === '..' || n.startsWith('../') || n.startsWith('/') ? undefined : n.replace(/^\.\/?/, '');
}

export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
