// The labelled skill corpus (test/corpus/skills/): the scanner's verdicts against the labels. Fails below 90%
// accuracy; prints accuracy, and the misses so a rule change's effect is visible.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { scanSkill } from '../../src/scanners/scan.js';

const CORPUS = fileURLToPath(new URL('../corpus/skills/', import.meta.url));

test('verdict accuracy on the labelled corpus is at least 90%', async () => {
  const names = readdirSync(CORPUS, { withFileTypes: true }).filter((d) => d.isDirectory() && existsSync(join(CORPUS, d.name, 'expected.json'))).map((d) => d.name);
  assert.ok(names.length >= 40, `the corpus has ${names.length} skills`);
  const misses: string[] = [];
  let categoryHits = 0;
  let categoryTotal = 0;
  for (const name of names) {
    const expected = JSON.parse(readFileSync(join(CORPUS, name, 'expected.json'), 'utf8')) as { safe: boolean; categories: string[] };
    const result = await scanSkill(join(CORPUS, name), { use_behavioral: true, use_trigger: true, lenient: true }, { env: {} });
    if (result.is_safe !== expected.safe) misses.push(`${name}: expected ${expected.safe ? 'safe' : 'unsafe'}, got ${result.is_safe ? 'safe' : `unsafe (${result.findings.filter((f) => f.severity === 'HIGH' || f.severity === 'CRITICAL').map((f) => f.rule_id).join(', ')})`}`);
    for (const category of expected.categories) {
      categoryTotal++;
      if (result.findings.some((f) => f.category === category)) categoryHits++;
    }
  }
  const accuracy = (names.length - misses.length) / names.length;
  process.stdout.write(`# corpus: ${names.length} skills, verdict accuracy ${(accuracy * 100).toFixed(1)}%, expected categories found ${categoryHits}/${categoryTotal}\n`);
  for (const miss of misses) process.stdout.write(`#   miss ${miss}\n`);
  assert.ok(accuracy >= 0.9, `accuracy ${(accuracy * 100).toFixed(1)}% is below 90%:\n${misses.join('\n')}`);
});
