// The hook script runs without dependencies, so it states its limits itself; they must equal the hook limits
// table (src/connectors/limits.ts) that the docs are generated from.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { HOOK_LIMITS } from '../../src/connectors/limits.js';

const SCRIPT = readFileSync(new URL('../../hooks/warden-hook.mjs', import.meta.url), 'utf8');

/** The value of a top-level `const NAME = <number expression>;` in the script. */
function scriptConstant(name: string): number {
  const match = new RegExp(`^const ${name} = ([0-9_ *]+);$`, 'm').exec(SCRIPT);
  assert.ok(match, `hooks/warden-hook.mjs has no numeric const ${name}`);
  return match[1]!.split('*').reduce((product, factor) => product * Number(factor.trim().replace(/_/g, '')), 1);
}

test('hooks/warden-hook.mjs uses the limits of the hook limits table', () => {
  assert.equal(scriptConstant('MAX_EVENT_BYTES'), HOOK_LIMITS.maxEventBytes);
  assert.equal(scriptConstant('MAX_ANSWER_BYTES'), HOOK_LIMITS.maxAnswerBytes);
  assert.equal(scriptConstant('CONNECT_TIMEOUT_MS'), HOOK_LIMITS.connectTimeoutMs);
  assert.equal(scriptConstant('TOTAL_TIMEOUT_MS'), HOOK_LIMITS.totalTimeoutMs);
});
