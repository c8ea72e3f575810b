// What the resolver resolves against, built once from a Config and the home folders (and again on config
// reload): the shipped and operator packs by name, each loaded or with the problem that keeps it from loading,
// and the administrator file with its authority. A pack that fails to load does not stop the others: only a
// run that uses it is refused (pack_invalid).
import type { Config } from '../../config/schema.js';
import { resolvePolicyDir } from '../../policy/files.js';
import {
  loadAdminFile, loadInlinePack, loadPackFile, loadShippedPacks, PolicyFileProblem,
  type LoadedAdmin, type LoadedPack,
} from './files.js';

export type PackEntry = { ok: true; loaded: LoadedPack } | { ok: false; name: string; problem: string };

export type AdminEntry =
  | { configured: false }
  | { configured: true; authoritative: boolean; path: string; loaded?: LoadedAdmin; problem?: string };

export interface PolicyCatalog {
  packs: Map<string, PackEntry>;
  admin: AdminEntry;
  /** `openshell.pack`, `openshell.profile` and `openshell.defaults` as configured. */
  user: Pick<Config['openshell'], 'pack' | 'profile' | 'defaults'>;
}

export interface CatalogInputs {
  config: Pick<Config, 'openshell'>;
  /** $WARDEN_HOME: relative pack and administrator paths are under it. */
  wardenHome: string;
  /** The user's home folder, for `~`. */
  home: string;
}

function attempt<T>(load: () => T): { value?: T; problem?: string } {
  try {
    return { value: load() };
  } catch (err) {
    if (err instanceof PolicyFileProblem) return { problem: err.message };
    throw err;
  }
}

export function buildCatalog({ config, wardenHome, home }: CatalogInputs): PolicyCatalog {
  const { openshell } = config;
  const packs = new Map<string, PackEntry>();
  // Shipped packs are tested (test/sandbox/policy-packs.test.ts): a broken one is a bug, so it is not caught.
  for (const loaded of loadShippedPacks()) packs.set(loaded.name, { ok: true, loaded });
  for (const [name, spec] of Object.entries(openshell.packs)) {
    const path = typeof spec === 'string' ? resolvePolicyDir(spec, wardenHome, home)! : undefined;
    const { value, problem } = attempt(() => (path === undefined ? loadInlinePack(name, spec) : loadPackFile(name, path, path)));
    packs.set(name, value ? { ok: true, loaded: value } : { ok: false, name, problem: problem! });
  }
  const adminPath = resolvePolicyDir(openshell.admin, wardenHome, home);
  let admin: AdminEntry = { configured: false };
  if (adminPath !== undefined) {
    const { value, problem } = attempt(() => loadAdminFile(adminPath));
    admin = { configured: true, authoritative: openshell.admin_authority === 'authoritative', path: adminPath, loaded: value, problem };
  }
  return { packs, admin, user: { pack: openshell.pack, profile: openshell.profile, defaults: openshell.defaults } };
}
