// docs/errors.md lists every error code: the codes written in src/ and the rows of its table must be the same
// set, so a new code cannot ship undocumented and a removed one cannot linger in the documentation.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { INTERNAL_ERROR, isOperatorError, WardenError } from '../../src/errors.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** A whole code: `WARDEN_ERR_REQUEST_*` in a comment names a family, not a code. */
const CODE = /\bWARDEN_ERR_[A-Z0-9_]*[A-Z0-9]\b/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(?:ts|mts|js|mjs)$/.test(entry.name) ? [path] : [];
  });
}

function codesInSource(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of sourceFiles(join(ROOT, 'src'))) {
    for (const match of readFileSync(file, 'utf8').matchAll(CODE)) found.set(match[0], file.slice(ROOT.length));
  }
  return found;
}

interface DocumentedCode {
  status: string;
  meaning: string;
  action: string;
}

function codesInDocs(): Map<string, DocumentedCode> {
  const rows = new Map<string, DocumentedCode>();
  for (const line of readFileSync(join(ROOT, 'docs/errors.md'), 'utf8').split('\n')) {
    const row = /^\| `(WARDEN_ERR_[A-Z0-9_]+)` \|(.*)\|$/.exec(line);
    if (!row) continue;
    assert.ok(!rows.has(row[1]!), `${row[1]} is listed twice`);
    const [status = '', meaning = '', action = ''] = row[2]!.split(' | ').map((cell) => cell.trim());
    rows.set(row[1]!, { status, meaning, action });
  }
  return rows;
}

describe('error codes', () => {
  it('lists in docs/errors.md every code used in src/, and only those', () => {
    const used = codesInSource();
    const documented = codesInDocs();
    assert.ok(used.size > 20, 'the scan finds the codes');
    const undocumented = [...used].filter(([code]) => !documented.has(code)).map(([code, file]) => `${code} (${file})`);
    const unused = [...documented.keys()].filter((code) => !used.has(code));
    assert.deepEqual(undocumented, [], 'used in src/ but missing from docs/errors.md');
    assert.deepEqual(unused, [], 'listed in docs/errors.md but used nowhere in src/');
  });

  it('gives every documented code a status column, a meaning and what to do', () => {
    for (const [code, row] of codesInDocs()) {
      assert.match(row.status, /^(?:—|\d{3}(?:, \d{3})*)$/, `${code}: status`);
      assert.ok(row.meaning.length > 10, `${code}: meaning`);
      assert.ok(row.action.length > 3, `${code}: what to do`);
    }
  });
});

describe('WardenError', () => {
  it('carries its code, status and whether the message is for the operator', () => {
    const error = new WardenError('WARDEN_ERR_CONFIG_INVALID', 'config.yaml:3: bad', { statusCode: 400 });
    assert.deepEqual([error.code, error.statusCode, error.expose, error.message], ['WARDEN_ERR_CONFIG_INVALID', 400, true, 'config.yaml:3: bad']);
    assert.ok(isOperatorError(error));
    const internal = new WardenError(INTERNAL_ERROR.code, 'detail for the log', { expose: false });
    assert.equal(isOperatorError(internal), false);
    assert.equal(isOperatorError(new Error('plain')), false);
  });

  it('names a subclass after itself', async () => {
    const { ConfigError } = await import('../../src/config/load.js');
    const error = new ConfigError('bad');
    assert.deepEqual([error.name, error.code, error instanceof WardenError], ['ConfigError', 'WARDEN_ERR_CONFIG_INVALID', true]);
  });
});
