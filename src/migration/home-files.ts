// Finding a file a version 8 setting names among the files the migration was given (MigrationInput.files):
// a path inside the data home is keyed relative to it, one in the user's home folder as `~/…`, anything else
// by its absolute path. readHome() supplies them under the same keys.
import { isAbsolute, relative } from 'node:path';
import { parseEnv } from 'node:util';
import type { HomeFile, MigrationInput } from './types.js';

function fileKey(input: MigrationInput, path: string): string {
  if (path.startsWith('~/')) return path;
  if (isAbsolute(path)) {
    const inside = relative(input.home, path);
    return inside !== '' && !inside.startsWith('..') && !isAbsolute(inside) ? inside.split('\\').join('/') : path;
  }
  return path;
}

export const findFile = (input: MigrationInput, path: string): HomeFile | undefined => input.files.get(fileKey(input, path));

/** The variables of the home's .env as it is before the migration. */
export function envOf(input: MigrationInput): Record<string, string> {
  const file = input.files.get('.env');
  return file ? (parseEnv(file.bytes.toString('utf8')) as Record<string, string>) : {};
}
