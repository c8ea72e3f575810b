// config_version 7 → 8 ("an older version 7 file is first converted to 8"). Version 7 kept its observability
// in top-level keys that version 8 rejects: `audit_db` and `judge_bodies_db` (the local SQLite paths),
// `audit_sinks[]` (local sinks), `otel` (named OTLP destinations, `{<name>: {endpoint, …}}`) and `splunk` (one
// HEC destination with its token inline). Version 8 holds them in `observability.local` and
// `observability.destinations[]`, with inline secrets in `.env`. The conversion edits the same Document the
// 8 → 9 rules edit next, so comments survive both steps; the token goes out as an `env` operation.
import { isMap, type Document } from 'yaml';
import type { FileOperation } from '../types.js';
import { read, remove, write } from '../doc-edit.js';
import { envOperation } from '../env-line.js';
import { MigrationError } from '../errors.js';
import { isObject } from '../../util/json.js';

/** The .env variable a version 7 inline Splunk token moves to (named in the destination's `token_env`). */
export const V7_SPLUNK_TOKEN_ENV = 'WARDEN_SPLUNK_HEC_TOKEN';

export interface V7Conversion {
  operations: FileOperation[];
  notes: string[];
}


export function convertV7(doc: Document): V7Conversion {
  const operations: FileOperation[] = [];
  const notes: string[] = [];
  const destinations: Record<string, unknown>[] = [];

  for (const [key, to] of [['audit_db', 'path'], ['judge_bodies_db', 'judge_bodies_path']] as const) {
    const value = read(doc, [key]);
    if (value === undefined) continue;
    if (typeof value !== 'string') throw invalid(`${key} must be a path`);
    write(doc, ['observability', 'local', to], value);
    remove(doc, [key]);
    notes.push(`config_version 7: ${key} moved to observability.local.${to}`);
  }

  const sinks = read(doc, ['audit_sinks']);
  if (sinks !== undefined) {
    if (!Array.isArray(sinks)) throw invalid('audit_sinks must be a list');
    sinks.forEach((sink, i) => {
      if (!isObject(sink) || typeof sink.kind !== 'string') throw invalid(`audit_sinks.${i} must be a mapping with a kind`);
      destinations.push({ name: typeof sink.name === 'string' ? sink.name : `${sink.kind}-${i + 1}`, ...sink });
    });
    remove(doc, ['audit_sinks']);
    notes.push('config_version 7: audit_sinks moved to observability.destinations');
  }

  const otel = read(doc, ['otel']);
  if (otel !== undefined) {
    if (!isObject(otel)) throw invalid('otel must be a mapping of named destinations');
    for (const [name, settings] of Object.entries(otel)) {
      if (!isObject(settings)) throw invalid(`otel.${name} must be a mapping`);
      destinations.push({ name, kind: 'otlp', ...settings });
    }
    remove(doc, ['otel']);
    notes.push('config_version 7: otel destinations moved to observability.destinations (kind otlp)');
  }

  const splunk = read(doc, ['splunk']);
  if (splunk !== undefined) {
    if (!isObject(splunk)) throw invalid('splunk must be a mapping');
    const { token, token_env: tokenEnv, ...rest } = splunk;
    const envName = typeof tokenEnv === 'string' && tokenEnv !== '' ? tokenEnv : V7_SPLUNK_TOKEN_ENV;
    if (typeof token === 'string' && token !== '') operations.push(envOperation(envName, token, 'splunk.token'));
    destinations.push({ name: 'splunk', kind: 'splunk_hec', ...rest, token_env: envName });
    remove(doc, ['splunk']);
    notes.push(`config_version 7: splunk moved to observability.destinations (kind splunk_hec); its token to .env as ${envName}`);
  }

  if (destinations.length > 0) {
    const existing = doc.getIn(['observability', 'destinations'], true);
    if (existing !== undefined && !Array.isArray(read(doc, ['observability', 'destinations']))) {
      throw invalid('observability.destinations must be a list');
    }
    if (existing === undefined) write(doc, ['observability', 'destinations'], [], false);
    for (const destination of destinations) doc.addIn(['observability', 'destinations'], doc.createNode(destination, { flow: true }));
  }
  if (!isMap(doc.contents)) throw invalid('the top level must be a mapping');
  doc.set('config_version', 8);
  return { operations, notes };
}

const invalid = (message: string) => new MigrationError('WARDEN_ERR_MIGRATION_SOURCE_INVALID', `config_version 7: ${message}`);
