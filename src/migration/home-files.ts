// Finding a file a version 8 setting names among the files the migration was given (MigrationInput.files):
// a path inside the data home (written under v8's `data_dir`, the home itself or `~/.warden`, see home-paths.ts)
// is keyed relative to it; one outside is not read. readHome() supplies them under the same keys.
import { parseEnv } from 'node:util';
import { parse } from 'yaml';
import { asRecord, homeRelative } from './home-paths.js';
import type { HomeFile, MigrationInput } from './types.js';

/** The home-relative key of a path a version 8 config names, or undefined when it is outside the home. */
export function homeFileKey(configText: string, home: string, path: string): string | undefined {
  let dataDir: unknown;
  try {
    dataDir = asRecord(parse(configText))?.data_dir;
  } catch {
    dataDir = undefined;
  }
  const rel = homeRelative(path, home, typeof dataDir === 'string' ? dataDir : undefined);
  return rel === '' ? undefined : rel;
}

export function findFile(input: MigrationInput, path: string): HomeFile | undefined {
  const key = homeFileKey(input.configText, input.home, path);
  return key === undefined ? undefined : input.files.get(key);
}

/** The variables of the home's .env as it is before the migration. */
export function envOf(input: MigrationInput): Record<string, string> {
  const file = input.files.get('.env');
  return file ? (parseEnv(file.bytes.toString('utf8')) as Record<string, string>) : {};
}
