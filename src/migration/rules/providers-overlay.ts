// Rule 11: the legacy custom-providers overlay ($WARDEN_HOME/custom-providers.json) moves into
// `llm_providers.custom` and `llm_providers.ollama_ports`, and the file is renamed `.migrated-v9`. An overlay
// with `request_overrides` (at its top or in a provider) is left live, untouched, with a note: version 9 has no
// home for rewriting requests, and moving the rest would split one provider across two places. Version 8
// logged and ignored a bad overlay (not JSON, over 1 MiB); so does this rule, with a note, leaving the file.
import { isDeepStrictEqual } from 'node:util';
import { DEFAULT_OLLAMA_PORTS } from '../../config/sections/llm-providers.js';
import { read, write } from '../doc-edit.js';
import type { MigrationContext, MigrationRule } from '../types.js';
import { isObject } from '../../util/json.js';

export const PROVIDERS_OVERLAY = 'custom-providers.json';
/** Version 8's own cap on the overlay. */
export const MAX_OVERLAY_BYTES = 1024 * 1024;
/** Provider fields version 9's `llm_providers.custom` keeps; the rest are listed in a note. */
const KEPT = new Set(['name', 'domains', 'base_url']);


export const providersOverlay: MigrationRule = (ctx) => {
  const file = ctx.input.files.get(PROVIDERS_OVERLAY);
  if (!file) return;
  let overlay: unknown;
  try {
    if (file.bytes.length > MAX_OVERLAY_BYTES) throw new Error(`larger than ${MAX_OVERLAY_BYTES} bytes`);
    overlay = JSON.parse(file.bytes.toString('utf8'));
  } catch (err) {
    ctx.record.notes.push(`${PROVIDERS_OVERLAY} was ignored by version 8 (${(err as Error).message}); left in place, not moved`);
    return;
  }
  const providers = Array.isArray(overlay) ? overlay : isObject(overlay) && Array.isArray(overlay.providers) ? overlay.providers : [];
  const ports = isObject(overlay) ? overlay.ollama_ports : undefined;
  if ((isObject(overlay) && 'request_overrides' in overlay) || providers.some((p) => isObject(p) && 'request_overrides' in p)) {
    ctx.record.notes.push(`${PROVIDERS_OVERLAY} has request_overrides, which version 9 cannot express: the overlay is left live and was not moved`);
    return;
  }
  providers.forEach((provider, i) => moveProvider(ctx, provider, i));
  if (Array.isArray(ports) && ports.length > 0 && !isDeepStrictEqual(ports, DEFAULT_OLLAMA_PORTS)) {
    write(ctx.doc, ['llm_providers', 'ollama_ports'], ports, true);
    ctx.record.notes.push(`${PROVIDERS_OVERLAY}: ollama_ports moved to llm_providers.ollama_ports`);
  }
  ctx.operations.push({ op: 'rename', from: PROVIDERS_OVERLAY, to: `${PROVIDERS_OVERLAY}.migrated-v9` });
};

function moveProvider(ctx: MigrationContext, provider: unknown, i: number): void {
  const where = `${PROVIDERS_OVERLAY}: providers.${i}`;
  if (!isObject(provider) || typeof provider.name !== 'string' || provider.name === '') {
    ctx.record.notes.push(`${where} has no name; not moved`);
    return;
  }
  const domains = Array.isArray(provider.domains) ? provider.domains.filter((d): d is string => typeof d === 'string' && d !== '') : [];
  if (domains.length === 0) {
    ctx.record.notes.push(`${where} (${provider.name}) lists no domains, so version 9 could never route to it; not moved`);
    return;
  }
  const entry: Record<string, unknown> = { name: provider.name, domains };
  if (typeof provider.base_url === 'string' && /^https?:\/\//.test(provider.base_url)) entry.base_url = provider.base_url;
  const existing = (read(ctx.doc, ['llm_providers', 'custom']) as unknown[] | undefined) ?? [];
  if (existing.some((p) => isObject(p) && p.name === provider.name)) {
    ctx.record.notes.push(`${where} (${provider.name}) is already in llm_providers.custom; the config.yaml entry is kept`);
    return;
  }
  if (read(ctx.doc, ['llm_providers', 'custom']) === undefined) write(ctx.doc, ['llm_providers', 'custom'], [], false);
  ctx.doc.addIn(['llm_providers', 'custom'], ctx.doc.createNode(entry, { flow: true }));
  const dropped = Object.keys(provider).filter((k) => !KEPT.has(k) || (k === 'base_url' && entry.base_url === undefined));
  ctx.record.notes.push(`${where} (${provider.name}) moved to llm_providers.custom` +
    (dropped.length > 0 ? `; ${dropped.join(', ')} have no version 9 home and were dropped` : ''));
}
