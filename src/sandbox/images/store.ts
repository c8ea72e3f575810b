// Harness images: one folder per harness under `$WARDEN_HOME/images/<harness>`, with `manifest.json` naming
// its `image_id` (sha256 over every file's path, mode and content, so two builds of the same recipe agree and
// any edit of the folder shows). A build writes a fresh folder beside the old one and swaps it in by rename.
// A connector image's agent CLI comes from the npm registry through the npm client (`npm install --prefix
// <image> --ignore-scripts`: no package's install script runs on the host), pinned by the connector's definition.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SandboxApiError } from '../errors.js';
import { knownHarness, recipeOf } from './recipes.js';

const MANIFEST = 'manifest.json';

export interface ImageManifest {
  harness: string;
  image_id: string;
  built_at: string;
  entry: string[];
  /** Variables the image pins (names and values; never secrets). */
  env: Record<string, string>;
  /** The agent CLI installed from npm (connector images). */
  package?: { name: string; version: string; bin: string };
  /** The hook connector and its config file (relative to the image's `home/`) whose hooks the ingress checks for tampering. */
  hooks?: { connector: string; config: string };
}

export interface Image extends ImageManifest {
  path: string;
}

/** Files of a folder, sorted, relative to it (the manifest left out). */
function filesOf(root: string, dir = ''): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true })
    .flatMap((entry) => {
      const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) return filesOf(root, path);
      return path === MANIFEST ? [] : [path];
    })
    .sort();
}

export function imageDigest(root: string): string {
  const hash = createHash('sha256');
  for (const path of filesOf(root)) {
    const full = join(root, path);
    const stats = lstatSync(full);
    // A link (node_modules/.bin) counts as its target text, never followed.
    const content = stats.isSymbolicLink() ? Buffer.from(`link:${readlinkSync(full)}`) : readFileSync(full);
    hash.update(`${path}\0${(stats.mode & 0o7777).toString(8)}\0${String(content.length)}\0`);
    hash.update(content);
  }
  return `sha256:${hash.digest('hex')}`;
}

export class ImageStore {
  /** Builds going on, by harness: a second create of the same harness waits for the first build. */
  readonly #building = new Map<string, Promise<Image>>();

  constructor(readonly root: string) {}

  #checkHarness(harness: string): void {
    if (!/^[a-z0-9-]{1,64}$/.test(harness) || !knownHarness(harness)) {
      throw new SandboxApiError('invalid_request', `unknown harness ${JSON.stringify(harness)}: use shell or a hook connector's name`);
    }
  }

  get(harness: string): Image | null {
    this.#checkHarness(harness);
    const path = join(this.root, harness);
    try {
      const manifest = JSON.parse(readFileSync(join(path, MANIFEST), 'utf8')) as ImageManifest;
      return { ...manifest, path };
    } catch {
      return null;
    }
  }

  list(): Image[] {
    if (!existsSync(this.root)) return [];
    return readdirSync(this.root)
      .filter((name) => knownHarness(name))
      .flatMap((name) => this.get(name) ?? []);
  }

  build(harness: string): Promise<Image> {
    this.#checkHarness(harness);
    const going = this.#building.get(harness);
    if (going) return going;
    const build = this.#build(harness).finally(() => this.#building.delete(harness));
    this.#building.set(harness, build);
    return build;
  }

  async #build(harness: string): Promise<Image> {
    const recipe = recipeOf(harness);
    if (!recipe) {
      throw new SandboxApiError('image_unavailable', `the ${harness} harness image is not buildable: its connector names no harness package`);
    }
    mkdirSync(this.root, { recursive: true, mode: 0o700 });
    const staging = join(this.root, `.${harness}.${randomBytes(6).toString('hex')}`);
    for (const [path, file] of Object.entries(recipe.files)) {
      const full = join(staging, path);
      mkdirSync(dirname(full), { recursive: true, mode: 0o755 });
      writeFileSync(full, file.content, { mode: file.mode });
      chmodSync(full, file.mode);
    }
    chmodSync(staging, 0o755);
    try {
      if (recipe.npm) await npmInstall(staging, `${recipe.npm.package}@${recipe.npm.version}`);
    } catch (err) {
      rmSync(staging, { recursive: true, force: true });
      throw new SandboxApiError('image_unavailable', `the ${harness} harness image could not be built: ${(err as Error).message}`);
    }
    const manifest: ImageManifest = {
      harness, image_id: imageDigest(staging), built_at: new Date().toISOString(), entry: recipe.entry, env: recipe.env,
      ...(recipe.npm ? { package: { name: recipe.npm.package, version: recipe.npm.version, bin: recipe.npm.bin } } : {}),
      ...(recipe.hooks ? { hooks: recipe.hooks } : {}),
    };
    writeFileSync(join(staging, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o644 });
    const target = join(this.root, harness);
    const old = `${staging}.old`;
    if (existsSync(target)) renameSync(target, old);
    renameSync(staging, target);
    rmSync(old, { recursive: true, force: true });
    return { ...manifest, path: target };
  }

  remove(harness: string): boolean {
    this.#checkHarness(harness);
    const target = join(this.root, harness);
    if (!existsSync(target)) return false;
    rmSync(target, { recursive: true, force: true });
    return true;
  }
}

const NPM_TIMEOUT_MS = 600_000;

/** `npm install` of one pinned package into `prefix`, without running any install script; rejects with npm's last lines. */
function npmInstall(prefix: string, spec: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['install', '--prefix', prefix, '--ignore-scripts', '--no-audit', '--no-fund', '--save-exact', '--loglevel=error', spec], {
      stdio: ['ignore', 'ignore', 'pipe'], timeout: NPM_TIMEOUT_MS, killSignal: 'SIGKILL',
    });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-4000);
    });
    child.on('error', (err) => reject(new Error(`npm could not be started: ${err.message}`)));
    child.on('close', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`npm install ${spec} failed (exit ${String(code)}): ${stderr.trim().split('\n').slice(-3).join(' / ')}`));
    });
  });
}
