// Rule 9: the signature packs in the data directory's `signature-packs/` folder are listed in
// `ai_discovery.signature_packs` (paths relative to $WARDEN_HOME, in name order) with their SHA-256 pins in
// `ai_discovery.signature_pack_digests`, so a pack swapped on disk after the migration is refused.
import { createHash } from 'node:crypto';
import { write } from '../doc-edit.js';
import type { MigrationRule } from '../types.js';

export const SIGNATURE_PACK_DIR = 'signature-packs/';
/** What a signature pack file is called; anything else in the folder (a README, an editor's backup) is not one. */
const PACK_FILE = /^[^/]+\.(?:ya?ml|json)$/;

export const signaturePacks: MigrationRule = (ctx) => {
  const packs = [...ctx.input.files.values()]
    .filter((f) => f.path.startsWith(SIGNATURE_PACK_DIR) && PACK_FILE.test(f.path.slice(SIGNATURE_PACK_DIR.length)))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  if (packs.length === 0) return;
  const digests = Object.fromEntries(packs.map((f) => [f.path, `sha256:${createHash('sha256').update(f.bytes).digest('hex')}`]));
  write(ctx.doc, ['ai_discovery', 'signature_packs'], packs.map((f) => f.path), false);
  write(ctx.doc, ['ai_discovery', 'signature_pack_digests'], digests, false);
  ctx.record.notes.push(`${packs.length} signature pack(s) in ${SIGNATURE_PACK_DIR} pinned by SHA-256 in ai_discovery.signature_pack_digests`);
};
