// Detection regression guard: every lane in test/corpus/lanes/ is scored against the default pack, and the
// test fails when a lane's recall drops below its floor or its false-positive rate rises above its ceiling
// (test/corpus/floors.json). The figures themselves are printed by `npm run bench -- inspect`.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { defaultInspector, loadLanes } from '../corpus/lanes/lane.js';

const FLOORS = JSON.parse(readFileSync(fileURLToPath(new URL('../corpus/floors.json', import.meta.url)), 'utf8')) as {
  lanes: Record<string, { min_recall: number; max_false_positive_rate: number; min_positives: number; min_negatives: number }>;
};

describe('detection lanes hold their floors', async () => {
  const lanes = await loadLanes();
  const inspector = defaultInspector();
  it('every lane has a floor, and every floor a lane', () => {
    assert.deepEqual(lanes.map((l) => l.name).sort(), Object.keys(FLOORS.lanes).sort());
  });
  for (const lane of lanes) {
    it(`${lane.name}`, () => {
      const floor = FLOORS.lanes[lane.name];
      assert.ok(floor, `no floor for lane ${lane.name}`);
      const score = lane.score(inspector);
      const summary = `${lane.name}: recall ${score.recall.toFixed(3)} (${score.tp}/${score.positives}), false positives ${score.falsePositiveRate.toFixed(3)} (${score.fp}/${score.negatives}); missed ${score.missed.slice(0, 20).join(', ')}; false alarms ${score.falseAlarms.slice(0, 20).join(', ')}`;
      assert.ok(score.positives >= floor.min_positives, `${summary}: fewer positive cases than the floor's ${floor.min_positives}`);
      assert.ok(score.negatives >= floor.min_negatives, `${summary}: fewer negative cases than the floor's ${floor.min_negatives}`);
      assert.ok(score.recall >= floor.min_recall, `${summary}: recall under the floor ${floor.min_recall}`);
      assert.ok(score.falsePositiveRate <= floor.max_false_positive_rate, `${summary}: false positives over the ceiling ${floor.max_false_positive_rate}`);
    });
  }
});
