// The digest that pins a custom rule pack (`custom_packs.<name>.digest`), over the pack folder's YAML files
// (pack.yaml and the rule files: what the pack is loaded from) in one documented canonical order
// (docs/migration.md "Version 8 rule packs"): files sorted by their path relative to the folder (`/`
// separators, compared as UTF-8 bytes); for each, the line `<path>\0<sha256 hex of its bytes>\n`; the digest
// is `sha256:` and the SHA-256 hex of those lines. Renaming, adding, removing or editing a file changes it; the
// folder's location and the files' times do not.
import { createHash } from 'node:crypto';

export function packDigest(files: readonly { path: string; bytes: Buffer }[]): string {
  const lines = [...files]
    .sort((a, b) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)))
    .map((f) => `${f.path}\0${createHash('sha256').update(f.bytes).digest('hex')}\n`);
  return `sha256:${createHash('sha256').update(lines.join('')).digest('hex')}`;
}
