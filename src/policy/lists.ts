// Enforcement lists: the operator's block and allow lists of skills, MCP servers, plugins and tools, kept in
// config.yaml under `asset_policy.<type>.denied` and `.allowed` (spec document 1 "Enforcement lists", migration
// rule 8). No HTTP here: the /enforce routes call these, and admission reads `enforcementLists(config)`.
//
// A change is one synchronous read, edit, validate and atomic write of config.yaml through the `yaml` document
// API (config/write.ts), so the operator's comments survive. Being synchronous is what serialises changes: on
// one event loop two changes cannot interleave between the read and the write, so neither is lost. A writer in
// another process is caught by updateConfigFile's re-read and refused (ListConfigConflict), never overwritten.
import { isMap, isSeq, YAMLSeq, type Document, type YAMLMap } from 'yaml';
import { findConnector } from '../connectors/registry.js';
import { ConfigError } from '../config/load.js';
import {
  ASSET_LISTS, ASSET_TYPES, MAX_ASSET_LIST_ENTRIES,
  type AssetEntry, type AssetList, type AssetType, type Config,
} from '../config/schema.js';
import { updateConfigFile } from '../config/write.js';
import { WardenError } from '../errors.js';
import type { EnforcementLists } from './service.js';

export type { AssetEntry, AssetList, AssetType } from '../config/schema.js';

/** The block and allow lists of the loaded config, by asset type: the shape admission takes. */
export function enforcementLists(config: Config): EnforcementLists {
  return config.asset_policy;
}

/** What an entry is identified by: one entry per name and connector in a list. */
export interface EntryKey {
  name: string;
  connector?: string;
}

export interface ListChange {
  status: 'added' | 'updated' | 'removed';
  list: AssetList;
  /** The entry as it now stands in `list` (for a removal: as it stood). */
  entry: AssetEntry;
  /** The other list held the same name and connector: putting it here took it out of there. */
  moved_from?: AssetList;
  /** config.yaml as written, validated. */
  config: Config;
}

export class ListEntryNotFound extends WardenError {
  constructor(type: AssetType, list: AssetList, key: EntryKey) {
    super('WARDEN_ERR_ENFORCE_NOT_FOUND', `no ${type} "${key.name}"${forConnector(key)} in asset_policy.${type}.${list}`, { statusCode: 404 });
  }
}

export class ListFull extends WardenError {
  constructor(type: AssetType, list: AssetList) {
    super('WARDEN_ERR_ENFORCE_LIST_FULL', `asset_policy.${type}.${list} already holds ${MAX_ASSET_LIST_ENTRIES} entries; remove some first`, { statusCode: 409 });
  }
}

export class UnknownConnector extends WardenError {
  constructor(name: string) {
    super('WARDEN_ERR_ENFORCE_CONNECTOR_UNKNOWN', `unknown connector "${name}" (GET /v1/connectors lists them)`, { statusCode: 400 });
  }
}

/** config.yaml is invalid as it stands, or another program changed it during the edit: nothing was written. */
export class ListConfigConflict extends WardenError {
  constructor(cause: ConfigError) {
    super('WARDEN_ERR_ENFORCE_CONFIG_CONFLICT', `enforcement lists not changed: ${cause.message}`, { statusCode: 409, cause });
  }
}

export class ListWriteFailed extends WardenError {
  constructor(path: string, cause: Error) {
    super('WARDEN_ERR_ENFORCE_WRITE_FAILED', `cannot write ${path}: ${cause.message}`, { statusCode: 500, cause });
  }
}

/**
 * Adds `entry` to `type`'s `list`, or replaces the entry of the same name and connector there (its reason or
 * pinned path changed). An entry of that name and connector in the other list is removed in the same write:
 * blocking something allowed revokes the allow, and the reverse.
 */
export function putEntry(configPath: string, type: AssetType, list: AssetList, entry: AssetEntry): ListChange {
  if (entry.connector !== undefined && !findConnector(entry.connector)) throw new UnknownConnector(entry.connector);
  const other = ASSET_LISTS.find((l) => l !== list)!;
  let status: 'added' | 'updated' = 'added';
  let movedFrom: AssetList | undefined;
  const config = edit(configPath, (doc) => {
    const target = listNode(doc, type, list);
    const index = indexOf(target, entry);
    const node = doc.createNode(yamlEntry(entry));
    if (index >= 0) {
      status = 'updated';
      target.items[index] = node;
    } else {
      if (target.items.length >= MAX_ASSET_LIST_ENTRIES) throw new ListFull(type, list);
      // `denied: []` grows into a block list: entries are mappings, which read better one per line.
      if (target.items.length === 0) target.flow = false;
      target.items.push(node);
    }
    const previous = existingList(doc, type, other);
    const otherIndex = previous ? indexOf(previous, entry) : -1;
    if (previous && otherIndex >= 0) {
      previous.items.splice(otherIndex, 1);
      movedFrom = other;
    }
  });
  const stored = config.asset_policy[type][list].find((e) => sameKey(e, entry))!;
  return { status, list, entry: stored, ...(movedFrom ? { moved_from: movedFrom } : {}), config };
}

/** Removes the entry of `key`'s name and connector from `type`'s `list`; ListEntryNotFound when there is none. */
export function removeEntry(configPath: string, type: AssetType, list: AssetList, key: EntryKey): ListChange {
  let removed: AssetEntry | undefined;
  const config = edit(configPath, (doc) => {
    const target = existingList(doc, type, list);
    const index = target ? indexOf(target, key) : -1;
    if (!target || index < 0) throw new ListEntryNotFound(type, list, key);
    removed = (target.items[index] as YAMLMap).toJSON() as AssetEntry;
    target.items.splice(index, 1);
  });
  return { status: 'removed', list, entry: { ...removed!, reason: removed!.reason ?? '' }, config };
}

/** Every entry of `list`, of one type or of all, each with its type. */
export function listEntries(config: Config, list: AssetList, type?: AssetType): (AssetEntry & { target_type: AssetType })[] {
  const types = type ? [type] : ASSET_TYPES;
  return types.flatMap((t) => config.asset_policy[t][list].map((entry) => ({ target_type: t, ...entry })));
}

function edit(configPath: string, change: (doc: Document) => void): Config {
  try {
    return updateConfigFile(configPath, change);
  } catch (err) {
    if (err instanceof WardenError && err.code.startsWith('WARDEN_ERR_ENFORCE_')) throw err;
    if (err instanceof ConfigError) throw new ListConfigConflict(err);
    throw new ListWriteFailed(configPath, err as Error);
  }
}

/** The sequence at asset_policy.<type>.<list>, created (with any missing parents) when the file has none. */
function listNode(doc: Document, type: AssetType, list: AssetList): YAMLSeq {
  const existing = existingList(doc, type, list);
  if (existing) return existing;
  const seq = new YAMLSeq();
  doc.setIn(['asset_policy', type, list], seq);
  return seq;
}

function existingList(doc: Document, type: AssetType, list: AssetList): YAMLSeq | undefined {
  const node = doc.getIn(['asset_policy', type, list], true);
  return isSeq(node) ? node : undefined;
}

function indexOf(seq: YAMLSeq, key: EntryKey): number {
  return seq.items.findIndex((item) => isMap(item) && sameKey(item.toJSON() as EntryKey, key));
}

const sameKey = (a: EntryKey, b: EntryKey): boolean => a.name === b.name && (a.connector ?? null) === (b.connector ?? null);

const forConnector = (key: EntryKey): string => (key.connector === undefined ? '' : ` for connector "${key.connector}"`);

/** The entry as written: fields in a fixed order, an empty reason left out (it is the default). */
function yamlEntry(entry: AssetEntry): Record<string, string> {
  return {
    name: entry.name,
    ...(entry.connector !== undefined ? { connector: entry.connector } : {}),
    ...(entry.reason ? { reason: entry.reason } : {}),
    ...(entry.source_path_contains !== undefined ? { source_path_contains: entry.source_path_contains } : {}),
  };
}
