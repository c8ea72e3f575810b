// Limits tables: code reads each limit as a plain number, and the rows the docs are generated from carry the
// same values, a unit and an explanation.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defineLimits, LIMIT_TABLE } from '../../src/util/limit-table.js';

test('a limits table gives numbers to code and documented rows to the docs', () => {
  const limits = defineLimits('Example', 'src/example/limits.ts', {
    bodyBytes: { value: 2048, unit: 'bytes', what: 'A body.' },
    waitMs: { value: 500, unit: 'ms', what: 'A wait.' },
  });
  assert.equal(limits.bodyBytes, 2048);
  assert.equal(limits.waitMs, 500);
  assert.deepEqual(Object.keys(limits), ['bodyBytes', 'waitMs'], 'the rows are not a limit');
  assert.deepEqual(limits[LIMIT_TABLE], {
    subsystem: 'Example',
    source: 'src/example/limits.ts',
    rows: [
      { name: 'bodyBytes', value: 2048, unit: 'bytes', what: 'A body.' },
      { name: 'waitMs', value: 500, unit: 'ms', what: 'A wait.' },
    ],
  });
  assert.ok(Object.isFrozen(limits));
});
