// An `env` operation becomes one `NAME=value` line of .env: a name that is not a variable name, or a value with a
// line break or NUL, would write something other than that one variable (a second variable, a broken file), so
// it stops the migration instead, naming the key but never the value.
import type { FileOperation } from './types.js';
import { MigrationError } from './errors.js';

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function envOperation(name: string, value: string, from: string): FileOperation {
  if (!NAME.test(name)) {
    throw new MigrationError('WARDEN_ERR_MIGRATION_SOURCE_INVALID', `${from}: ${JSON.stringify(name)} is not a variable name for .env`);
  }
  if (/[\r\n\0]/.test(value)) {
    throw new MigrationError('WARDEN_ERR_MIGRATION_SOURCE_INVALID', `${from}: the value holds a line break, which .env cannot hold`);
  }
  return { op: 'env', name, value };
}
