// Harness images: one folder per harness under `$WARDEN_HOME/images/<harness>`, with `manifest.json` naming
// its `image_id` (sha256 over every file's path, mode and content, so two builds of the same recipe agree and
// any edit of the folder shows). A build writes a fresh folder beside the old one and swaps it in by rename.
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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
    hash.update(`${path}\0${(stats.mode & 0o7777).toString(8)}\0${String(stats.size)}\0`);
    hash.update(readFileSync(full));
  }
  return `sha256:${hash.digest('hex')}`;
}

export class ImageStore {
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

  build(harness: string): Image {
    this.#checkHarness(harness);
    const recipe = recipeOf(harness);
    if (!recipe) {
      throw new SandboxApiError('image_unavailable', `the ${harness} harness image is not buildable yet: only the shell harness has a recipe in this build`);
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
    const manifest: ImageManifest = { harness, image_id: imageDigest(staging), built_at: new Date().toISOString(), entry: recipe.entry, env: recipe.env };
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
