// Reading config.yaml: parse, check the version, fill defaults, validate. Every error names the file, the
// line where YAML can tell, and the dotted key, so an operator can fix it without reading our code.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Compile } from 'typebox/compile';
import Value from 'typebox/value';
import { isMap, LineCounter, parseDocument, type Document } from 'yaml';
import { ConfigSchema, CURRENT_CONFIG_VERSION, duplicateAssetEntries, type Config } from './schema.js';
import { WardenError } from '../errors.js';

/** config.yaml cannot be read or is invalid; the message says where and how to fix it. */
export class ConfigError extends WardenError {
  constructor(message: string) {
    super('WARDEN_ERR_CONFIG_INVALID', message);
  }
}

const validator = Compile(ConfigSchema);

export interface LoadedConfig {
  config: Config;
  path: string;
  /** sha256 of the file's bytes, reported as provenance by /status. */
  sha256: string;
  /** config_version of the file on disk when it was older and migrated in memory (`legacy`). */
  migratedFrom?: number;
}

/**
 * Converts an older config.yaml text (config_version 7 or 8) to version 9 text, in memory, or throws a
 * ConfigError saying what the operator should do. Injected by its user (the gateway, doctor) from src/migration,
 * so this module never imports the migration and its file readers.
 */
export type LegacyConversion = (text: string, path: string, version: number) => string;

export interface ParseOptions {
  /** Without it, an older file is refused with a message naming `warden migrate`. */
  legacy?: LegacyConversion;
}

/** The oldest config_version the migration converts (7 is converted to 8, then 8 to 9). */
const OLDEST_MIGRATED_VERSION = 7;

export function loadConfigFile(path: string, options: ParseOptions = {}): LoadedConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`cannot read config file ${path}: ${(err as Error).message}`);
  }
  const sha256 = createHash('sha256').update(text).digest('hex');
  return { ...parseMigrating(text, path, options.legacy), path, sha256 };
}

/**
 * Parses `text`, first converting it with `legacy` when it is an older version the migration takes. Without
 * `legacy` the version is not even looked at here: checkVersion refuses an older file with its message.
 */
function parseMigrating(text: string, path: string, legacy?: LegacyConversion): { config: Config; migratedFrom?: number } {
  const version = legacy ? migratableVersion(text) : undefined;
  if (version === undefined || !legacy) return { config: parseCurrent(text, path) };
  return { config: parseCurrent(legacy(text, path, version), `${path} (migrated in memory)`), migratedFrom: version };
}

/** config_version of a text the migration can convert (7 or 8), else undefined (checkVersion reports the rest). */
function migratableVersion(text: string): number | undefined {
  const version: unknown = parseDocument(text).get('config_version');
  return typeof version === 'number' && version >= OLDEST_MIGRATED_VERSION && version < CURRENT_CONFIG_VERSION ? version : undefined;
}

export function parseConfig(text: string, path: string, options: ParseOptions = {}): Config {
  return parseMigrating(text, path, options.legacy).config;
}

/** Parses and validates a config_version 9 text (an older one is refused by checkVersion). */
function parseCurrent(text: string, path: string): Config {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: true, uniqueKeys: true });
  const yamlError = doc.errors[0];
  if (yamlError) {
    const line = yamlError.linePos?.[0].line;
    throw new ConfigError(`${path}${line ? `:${line}` : ''}: invalid YAML: ${yamlError.message.split('\n')[0]}`);
  }
  const raw: unknown = doc.toJS() ?? {};
  if (!isMap(doc.contents) && doc.contents !== null) throw new ConfigError(`${path}: the top level must be a mapping`);
  checkVersion(raw as Record<string, unknown>, path);
  return validate(raw, doc, lines, path);
}

/** Validate an already-parsed object (used after a programmatic edit, before it is written). */
export function validateConfigObject(raw: unknown, path: string, doc?: Document, lines?: LineCounter): Config {
  checkVersion(raw as Record<string, unknown>, path);
  return validate(raw, doc, lines, path);
}

function checkVersion(raw: Record<string, unknown>, path: string): void {
  const version = raw?.config_version;
  if (version === undefined) throw new ConfigError(`${path}: config_version: missing (expected ${CURRENT_CONFIG_VERSION})`);
  if (typeof version !== 'number' || !Number.isInteger(version)) {
    throw new ConfigError(`${path}: config_version: must be an integer, got ${JSON.stringify(version)}`);
  }
  if (version > CURRENT_CONFIG_VERSION) {
    throw new ConfigError(
      `${path}: config_version ${version} is newer than this Warden supports (${CURRENT_CONFIG_VERSION}); upgrade Warden`,
    );
  }
  if (version >= OLDEST_MIGRATED_VERSION && version < CURRENT_CONFIG_VERSION) {
    throw new ConfigError(
      `${path}: config_version ${version} must be migrated to ${CURRENT_CONFIG_VERSION} first: run \`warden migrate\` ` +
        '(`warden migrate --check` lists what would change; the old file is kept as config.yaml.v8.bak)',
    );
  }
  if (version < CURRENT_CONFIG_VERSION) {
    // Too old for the migration: the message offers what works.
    throw new ConfigError(
      `${path}: config_version ${version} is not supported: this release reads config_version ${CURRENT_CONFIG_VERSION} only and ` +
        'cannot convert an older file. Keep running the Warden release that wrote it, or rename it to ' +
        `${path}.v${version} so the next \`warden start\` writes a fresh version ${CURRENT_CONFIG_VERSION} file with defaults, ` +
        'then copy your settings into it by hand (docs/configuration.md lists every key)',
    );
  }
}

function validate(raw: unknown, doc: Document | undefined, lines: LineCounter | undefined, path: string): Config {
  const withDefaults = Value.Default(ConfigSchema, structuredClone(raw)) as unknown;
  const problems: string[] = [];
  for (const error of validator.Errors(withDefaults)) {
    const segments = error.instancePath.split('/').slice(1).map(unescapePointer);
    if (error.keyword === 'boolean') continue; // reported once more, with the key's name, as additionalProperties
    if (error.keyword === 'additionalProperties') {
      for (const key of (error.params as { additionalProperties: string[] }).additionalProperties) {
        problems.push(`${where(path, doc, lines, [...segments, key])}: unknown key "${[...segments, key].join('.')}"`);
      }
      continue;
    }
    if (error.keyword === 'anyOf' || error.keyword === 'const') {
      // Union of literals: one message listing the allowed values reads better than one per literal.
      const allowed = allowedValues(segments);
      const message = allowed ? `must be one of ${allowed}` : error.message;
      problems.push(`${where(path, doc, lines, segments)}: ${segments.join('.')}: ${message}`);
      continue;
    }
    problems.push(`${where(path, doc, lines, segments)}: ${segments.join('.') || '(top level)'}: ${error.message}`);
  }
  if (problems.length === 0) {
    for (const duplicate of duplicateAssetEntries((withDefaults as Config).asset_policy)) {
      problems.push(`${where(path, doc, lines, duplicate.segments)}: ${duplicate.message}`);
    }
  }
  const unique = [...new Set(problems)];
  if (unique.length > 0) throw new ConfigError(`invalid configuration:\n  ${unique.join('\n  ')}`);
  return withDefaults as Config;
}

function allowedValues(segments: string[]): string | undefined {
  let schema: unknown = ConfigSchema;
  for (const segment of segments) {
    const s = schema as { properties?: Record<string, unknown>; items?: unknown };
    schema = s.properties?.[segment] ?? (/^\d+$/.test(segment) ? s.items : undefined);
    if (!schema) return undefined;
  }
  const literals = (schema as { anyOf?: { const?: unknown }[] }).anyOf?.map((v) => v.const);
  if (!literals || literals.some((v) => v === undefined)) return undefined;
  return literals.map((v) => JSON.stringify(v)).join(', ');
}

function where(path: string, doc: Document | undefined, lines: LineCounter | undefined, segments: string[]): string {
  if (!doc || !lines) return path;
  for (let depth = segments.length; depth > 0; depth--) {
    const node = doc.getIn(segments.slice(0, depth).map(keyOf), true) as { range?: [number, number, number] } | undefined;
    if (node?.range) return `${path}:${lines.linePos(node.range[0]).line}`;
  }
  return path;
}

const keyOf = (segment: string): string | number => (/^\d+$/.test(segment) ? Number(segment) : segment);
const unescapePointer = (s: string): string => s.replace(/~1/g, '/').replace(/~0/g, '~');
