// `warden upgrade` and `warden rollback`: replacing the installed npm package by a new release and migrating the
// home with it, with a way back. The install is the package folder (package.json and the folders it ships; its
// node_modules stays as installed: a release with other dependencies needs `npm install`); the restore point
// under $WARDEN_HOME/rollback/ holds the previous install and the data the migration changes (config.yaml,
// .env, policies/rego/, audit.db, the providers overlay, the generation and record files), so a rollback puts
// the install and the data back together. The new release's own CLI checks and runs the migration (in a
// subprocess): the code that knows the new format is the one that converts to it.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { extract } from 'tar';
import { writeFileAtomic } from '../util/atomic-write.js';
import { MigrationApplyError } from './apply-error.js';
import { GENERATION_FILE, RECORD_FILE, ROLLBACK_DIR } from './files-left.js';

/** What of the data home a restore point keeps (home-relative; folders whole). */
const DATA_ITEMS = ['config.yaml', '.env', 'policies/rego', 'audit.db', 'audit.db-wal', 'audit.db-shm', 'custom-providers.json',
  GENERATION_FILE, RECORD_FILE] as const;
const POINT = 'point';
/** What an install is made of: package.json and the folders its "files" ship (node_modules stays as installed). */
const INSTALL_ITEMS = ['package.json', 'dist', 'hooks', 'policies', 'docs/schemas'] as const;

interface Manifest {
  created_at: string;
  /** version of the install kept (its package.json). */
  version: string;
  /** Items of DATA_ITEMS the home had; the others did not exist and are removed by a rollback. */
  present: string[];
  absent: string[];
}

export interface UpgradeOptions {
  home: string;
  /** The install being replaced: the package folder holding dist/ and package.json. */
  installDir: string;
  /** The new release: an unpacked package folder or a tarball from `npm pack`. */
  release: string;
  /** Refuses while a gateway runs from this home (its files would change under it). */
  gatewayRunning: boolean;
  now?: Date;
}

export interface UpgradeResult {
  from: string;
  to: string;
  /** The new release's `warden migrate` output. */
  migrateOutput: string;
}

export async function upgrade(options: UpgradeOptions): Promise<UpgradeResult> {
  const { home, installDir } = options;
  if (options.gatewayRunning) throw gatewayRunning('upgrading');
  // Staged inside the install, so the new CLI resolves its packages from the install's node_modules and its own
  // files (policies, schemas) from the staged copy: the check runs the new code as it will run after the swap.
  const staging = join(installDir, `.release-${randomBytes(6).toString('hex')}`);
  try {
    const release = await stageRelease(options.release, staging);
    const to = packageVersion(release);
    const from = packageVersion(installDir);
    const check = await runCli(release, ['migrate', '--check'], home);
    if (check.code !== 0) throw failed(`the new release cannot migrate this home, nothing was changed: ${lastLine(check.stderr)}`);

    keepRestorePoint(home, installDir, from, options.now ?? new Date());
    swapInstall(release, installDir);
    const migrated = await runCli(installDir, ['migrate'], home);
    if (migrated.code !== 0) {
      restore(home, installDir);
      throw failed(`the new release's migration failed, the previous install and data were restored: ${lastLine(migrated.stderr)}`);
    }
    return { from, to, migrateOutput: migrated.stdout };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** `warden rollback`: the install and the data of the restore point, together. */
export function rollback(home: string, installDir: string, running: boolean): { version: string; createdAt: string } {
  if (running) throw gatewayRunning('rolling back');
  const manifest = restore(home, installDir);
  return { version: manifest.version, createdAt: manifest.created_at };
}

async function stageRelease(release: string, staging: string): Promise<string> {
  mkdirSync(staging, { recursive: true, mode: 0o755 });
  if (statSync(release).isDirectory()) {
    copyItems(release, staging);
  } else {
    // `npm pack` tarballs hold one folder, `package/`; strip it. tar refuses absolute and `..` entries.
    await extract({ file: release, cwd: staging, strip: 1 });
  }
  if (!existsSync(join(staging, 'dist/cli/warden.js')) || !existsSync(join(staging, 'package.json'))) {
    throw failed(`${release} is not a built Warden package (no package.json and dist/cli/warden.js)`);
  }
  return staging;
}

/** Copies the install items `from` holds into `to`. */
function copyItems(from: string, to: string): void {
  for (const item of INSTALL_ITEMS) {
    if (!existsSync(join(from, item))) continue;
    mkdirSync(dirname(join(to, item)), { recursive: true });
    cpSync(join(from, item), join(to, item), { recursive: true, verbatimSymlinks: true });
  }
}

function keepRestorePoint(home: string, installDir: string, version: string, now: Date): void {
  const rollbackDir = join(home, ROLLBACK_DIR);
  const fresh = join(rollbackDir, `.point-${randomBytes(6).toString('hex')}`);
  mkdirSync(join(fresh, 'install'), { recursive: true, mode: 0o700 });
  copyItems(installDir, join(fresh, 'install'));
  const present: string[] = [];
  const absent: string[] = [];
  for (const item of DATA_ITEMS) {
    if (!existsSync(join(home, item))) {
      absent.push(item);
      continue;
    }
    mkdirSync(dirname(join(fresh, 'data', item)), { recursive: true, mode: 0o700 });
    cpSync(join(home, item), join(fresh, 'data', item), { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
    present.push(item);
  }
  const manifest: Manifest = { created_at: now.toISOString(), version, present, absent };
  writeFileAtomic(join(fresh, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`, 0o600);
  // The new point replaces the previous one only once it is whole.
  const point = join(rollbackDir, POINT);
  rmSync(point, { recursive: true, force: true });
  renameSync(fresh, point);
}

function restore(home: string, installDir: string): Manifest {
  const point = join(home, ROLLBACK_DIR, POINT);
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(join(point, 'manifest.json'), 'utf8')) as Manifest;
  } catch {
    throw noRestorePoint(`no restore point in ${join(home, ROLLBACK_DIR)} (\`warden upgrade\` leaves one)`);
  }
  swapInstall(join(point, 'install'), installDir);
  for (const item of manifest.present) replaceWith(join(point, 'data', item), join(home, item));
  for (const item of manifest.absent) rmSync(join(home, item), { recursive: true, force: true });
  return manifest;
}

/** Replace `target` (file or folder) by a copy of `source`: copied beside it first, then renamed over it. */
function replaceWith(source: string, target: string): void {
  const temp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.restore`);
  mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
  cpSync(source, temp, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
  if (statSync(temp).isDirectory()) rmSync(target, { recursive: true, force: true });
  renameSync(temp, target);
}

/**
 * The install's items become those of `release`: each is copied beside its place and renamed into it, so none is
 * ever half-copied (dist/ first and package.json last, so a stop in between leaves a running CLI).
 */
function swapInstall(release: string, installDir: string): void {
  for (const item of [...INSTALL_ITEMS.slice(1), INSTALL_ITEMS[0]]) {
    if (!existsSync(join(release, item))) continue;
    const target = join(installDir, item);
    const next = join(dirname(target), `.${basename(item)}-${randomBytes(6).toString('hex')}`);
    mkdirSync(dirname(target), { recursive: true });
    cpSync(join(release, item), next, { recursive: true, verbatimSymlinks: true });
    if (statSync(next).isDirectory() && existsSync(target)) {
      renameSync(target, `${next}.old`);
      renameSync(next, target);
      rmSync(`${next}.old`, { recursive: true, force: true });
    } else {
      renameSync(next, target);
    }
  }
}

function packageVersion(dir: string): string {
  const value = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version?: unknown }).version;
  return typeof value === 'string' ? value : 'unknown';
}

function runCli(installDir: string, args: string[], home: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(installDir, 'dist/cli/warden.js'), ...args], {
      env: { ...process.env, WARDEN_HOME: home }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const lastLine = (text: string): string => text.trim().split('\n').at(-1) ?? '(no message)';
const failed = (message: string) => new MigrationApplyError('WARDEN_ERR_MIGRATION_UPGRADE_FAILED', message);
const noRestorePoint = (message: string) => new MigrationApplyError('WARDEN_ERR_MIGRATION_NO_RESTORE_POINT', message);
const gatewayRunning = (doing: string) =>
  new MigrationApplyError('WARDEN_ERR_MIGRATION_GATEWAY_RUNNING', `the gateway is running from this data home: stop it before ${doing}`);
