// readHome: everything the 8 → 9 migration reads from a version 8 home, read once at the start so the pure
// migrate() never races the disk: config.yaml's exact bytes, policies/rego (data.json and *.rego), every
// rule-pack folder a `rule_pack_dir` names (and its `<folder>-1.0` sibling, so rule 5 can refuse to overwrite
// one), the signature-packs folder, the custom-providers overlay, .env, the audit.db `actions` rows, and the
// agents' MCP configurations in the user's home folder (rule 12), keyed `~/<path>`.
// The home is operator-writable, so every read is bounded (limits.ts) and a symlink that leads out of the
// home stops the migration instead of being followed; in the user's home folder such a link (a dotfiles
// repository) is skipped instead, since the agent, not Warden, reads that file. audit.db is opened read-only with better-sqlite3
// directly: the shared opener (src/db/open.ts) would run Warden 9's schema migrations on a version 8 file.
import { lstat, readdir, readFile, realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, relative, sep } from 'node:path';
import Database from 'better-sqlite3';
import { parse } from 'yaml';
import { V8_TABLE_SUFFIX } from '../audit/legacy-v8.js';
import { AGENT_MCP_CONFIGS } from '../scanners/mcp/definitions.js';
import { HomeUnreadableError } from './file-errors.js';
import { homeFileKey } from './home-files.js';
import { asRecord, homeRelative, rulePackDirs } from './home-paths.js';
import { MIGRATION_LIMITS } from './limits.js';
import type { ActionsRow, HomeFile, MigrationInput, MigrationScope } from './types.js';

/** Files and folders of the version 8 home, home-relative. */
export const V8_HOME = {
  config: 'config.yaml',
  singleFiles: ['policies/rego/data.json', 'custom-providers.json', '.env'],
  regoDir: 'policies/rego',
  signaturePacksDir: 'signature-packs',
  auditDb: 'audit.db',
} as const;

const ACTIONS_COLUMNS = ['id', 'target_type', 'target_name', 'action', 'reason'] as const;

/**
 * What the migration reads from data home `home`. `userHome` is the user's home folder the agents' MCP
 * configurations are read from (tests and the commands' subprocess tests pass their own through $HOME).
 */
export async function readHome(home: string, scope: MigrationScope, now = new Date(), userHome = homedir()): Promise<MigrationInput> {
  const root = await realpath(home);
  const reader = new HomeReader(root, 'refuse');
  const config = await reader.file(V8_HOME.config);
  if (!config) throw new HomeUnreadableError(`${join(home, V8_HOME.config)}: no such file`);
  const configText = config.toString('utf8');
  const v8 = parsedConfig(configText);
  const files = new Map<string, HomeFile>();
  const keep = (path: string, bytes: Buffer | undefined) => bytes && files.set(path, { path, bytes });

  for (const path of V8_HOME.singleFiles) keep(path, await reader.file(path));
  for (const path of await reader.folder(V8_HOME.regoDir, (n) => n.endsWith('.rego'))) keep(path, await reader.file(path));
  for (const path of await reader.folder(V8_HOME.signaturePacksDir, () => true)) keep(path, await reader.file(path));
  const policy = skillScannerPolicyFile(v8, configText, root);
  if (policy) keep(policy, await reader.file(policy));
  for (const rel of packFolders(v8, root)) {
    for (const folder of [rel, `${rel}-1.0`]) {
      for (const path of await reader.folder(folder, (n) => /\.ya?ml$/.test(n))) keep(path, await reader.file(path));
    }
  }
  for (const path of await agentConfigs(v8, userHome)) keep(path.key, path.bytes);
  return { home: root, scope, configText, files, actionsRows: await reader.actionsRows(V8_HOME.auditDb), now };
}

/** config.yaml as a mapping, parsed once for the helpers below; one that does not parse is left for migrate() to report. */
function parsedConfig(configText: string): Record<string, unknown> | undefined {
  try {
    return asRecord(parse(configText));
  } catch {
    return undefined;
  }
}

/** The agents' MCP configuration files (and OpenClaw's `claw.config_file`) found in the user's home folder. */
async function agentConfigs(config: Record<string, unknown> | undefined, userHome: string): Promise<{ key: string; bytes: Buffer }[]> {
  let root: string;
  try {
    root = await realpath(userHome);
  } catch {
    return [];
  }
  const clawFile = asRecord(config?.claw)?.config_file;
  const keys = new Set(AGENT_MCP_CONFIGS.map((c) => c.path));
  if (typeof clawFile === 'string' && clawFile.startsWith('~/')) keys.add(clawFile);
  const reader = new HomeReader(root, 'skip');
  const found: { key: string; bytes: Buffer }[] = [];
  for (const key of [...keys].sort()) {
    const bytes = await reader.file(key.slice(2));
    if (bytes) found.push({ key, bytes });
  }
  return found;
}

/** Home-relative folders named by rule_pack_dir. */
function packFolders(config: Record<string, unknown> | undefined, home: string): string[] {
  const dataDir = typeof config?.data_dir === 'string' ? config.data_dir : undefined;
  const rels = rulePackDirs(config).map(({ dir }) => homeRelative(dir, home, dataDir));
  return [...new Set(rels.filter((r): r is string => r !== undefined && r !== ''))];
}

/** The home-relative path of a file `scanners.skill_scanner.policy` names (rule 6); not a preset name. */
function skillScannerPolicyFile(config: Record<string, unknown> | undefined, configText: string, home: string): string | undefined {
  const policy = asRecord(asRecord(config?.scanners)?.skill_scanner)?.policy;
  if (typeof policy !== 'string' || !/[/\\]|\.ya?ml$/.test(policy)) return undefined;
  return homeFileKey(configText, home, policy);
}

class HomeReader {
  private total = 0;

  /** `outside`: what a symlink leading out of the root does: stop the migration, or count as no file. */
  constructor(private readonly root: string, private readonly outside: 'refuse' | 'skip') {}

  /** The bytes of a regular file, or undefined when there is none. */
  async file(rel: string): Promise<Buffer | undefined> {
    const full = await this.resolve(rel);
    if (!full) return undefined;
    const info = await stat(full);
    if (!info.isFile()) return undefined;
    if (info.size > MIGRATION_LIMITS.maxFileBytes) {
      throw new HomeUnreadableError(`${rel}: ${info.size} bytes, over the migration's limit of ${MIGRATION_LIMITS.maxFileBytes}`);
    }
    this.total += info.size;
    if (this.total > MIGRATION_LIMITS.maxTotalBytes) {
      throw new HomeUnreadableError(`the home's files the migration reads are over ${MIGRATION_LIMITS.maxTotalBytes} bytes together (at ${rel})`);
    }
    return readFile(full);
  }

  /** Home-relative paths of the entries of a folder whose names pass `want`, by name; none when it is missing. */
  async folder(rel: string, want: (name: string) => boolean): Promise<string[]> {
    const full = await this.resolve(rel);
    if (!full || !(await stat(full)).isDirectory()) return [];
    const names = (await readdir(full)).filter(want).sort();
    if (names.length > MIGRATION_LIMITS.maxFilesPerFolder) {
      throw new HomeUnreadableError(`${rel}: ${names.length} files, over the migration's limit of ${MIGRATION_LIMITS.maxFilesPerFolder}`);
    }
    return names.map((n) => `${rel}/${n}`);
  }

  /** The real path of `rel`, refusing one that a symlink leads out of the home; undefined when it does not exist. */
  private async resolve(rel: string): Promise<string | undefined> {
    const full = join(this.root, rel);
    try {
      await lstat(full);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
      throw err;
    }
    let real: string;
    try {
      real = await realpath(full);
    } catch {
      return undefined; // a dangling symlink: nothing to read
    }
    const inside = relative(this.root, real);
    if (inside.startsWith(`..${sep}`) || inside === '..' || inside.startsWith(sep)) {
      if (this.outside === 'skip') return undefined;
      throw new HomeUnreadableError(`${rel}: a symlink leads out of the data home (to ${real}); the migration does not follow it`);
    }
    return real;
  }

  /**
   * The version 8 `actions` rows of audit.db, opened read-only; none when there is no audit.db or no such table.
   * Warden 9 sets a version 8 table aside as `actions_v8` when it first opens the file (src/audit/legacy-v8.ts);
   * an `actions` table in a file Warden 9 has migrated (user_version above 0) is Warden 9's own.
   */
  async actionsRows(rel: string): Promise<ActionsRow[]> {
    const full = await this.resolve(rel);
    if (!full) return [];
    const db = new Database(full, { readonly: true, fileMustExist: true });
    try {
      const hasTable = (name: string) => db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
      const table = hasTable(`actions${V8_TABLE_SUFFIX}`) ? `actions${V8_TABLE_SUFFIX}`
        : hasTable('actions') && db.pragma('user_version', { simple: true }) === 0 ? 'actions' : undefined;
      if (!table) return [];
      const columns = new Set((db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name));
      const missing = ACTIONS_COLUMNS.filter((c) => !columns.has(c));
      if (missing.length) throw new HomeUnreadableError(`${rel}: the actions table has no ${missing.join(', ')} column`);
      const rows = db.prepare(`SELECT * FROM ${table} ORDER BY id LIMIT ?`).all(MIGRATION_LIMITS.maxActionsRows + 1) as Record<string, unknown>[];
      if (rows.length > MIGRATION_LIMITS.maxActionsRows) {
        throw new HomeUnreadableError(`${rel}: more than ${MIGRATION_LIMITS.maxActionsRows} actions rows`);
      }
      return rows.map((row) => ({
        id: typeof row.id === 'number' || typeof row.id === 'string' ? row.id : String(row.id),
        target_type: String(row.target_type ?? ''),
        target_name: String(row.target_name ?? ''),
        action: String(row.action ?? ''),
        reason: String(row.reason ?? ''),
        row,
      }));
    } finally {
      db.close();
    }
  }
}
