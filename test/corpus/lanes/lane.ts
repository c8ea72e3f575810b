// What every detection lane reports: labelled cases written in this repository (test/corpus/), scored
// against the default rule pack as a user runs it. Each lane module in this folder exports `lane`; the
// regression test (test/guardrail/corpus-lanes.test.ts) and `npm run bench -- inspect` load them all.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { InspectionEngine } from '../../../src/guardrail/engine.js';
import { Inspector } from '../../../src/guardrail/inspector.js';
import { loadRulePack } from '../../../src/guardrail/rules/load.js';
import type { VerdictThresholds } from '../../../src/guardrail/thresholds.js';

/** The default pack's thresholds (DESIGN.md section 4): block at CRITICAL, alert at MEDIUM, no HILT. */
export const DEFAULT_THRESHOLDS: VerdictThresholds = { mode: 'action', blockAt: 'CRITICAL', alertAt: 'MEDIUM', hiltEnabled: false, hiltMinSeverity: 'HIGH' };

export function defaultInspector(pack = 'default'): Inspector {
  return new Inspector(new InspectionEngine(loadRulePack(pack)), DEFAULT_THRESHOLDS);
}

export interface LaneCase {
  id: string;
  /** true: the lane must catch it (block or flag, as the lane says); false: a look-alike that must pass. */
  positive: boolean;
}

export interface LaneScore {
  lane: string;
  /** What counts as caught, e.g. "blocked under the default pack". */
  caught: string;
  positives: number;
  negatives: number;
  tp: number;
  fp: number;
  recall: number;
  falsePositiveRate: number;
  precision: number;
  /** Ids of positives not caught and negatives caught, for whoever improves the lane. */
  missed: string[];
  falseAlarms: string[];
}

export interface Lane {
  name: string;
  score(inspector: Inspector): LaneScore;
}

/** JSON Lines from test/corpus/ (blank lines skipped). */
export function readCases<T>(file: string): T[] {
  const path = fileURLToPath(new URL(`../${file}`, import.meta.url));
  return readFileSync(path, 'utf8').split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as T);
}

/** Scores `cases` with `caughtBy` deciding, for each, whether the lane caught it. */
export function scoreCases<T extends LaneCase>(lane: string, caught: string, cases: T[], caughtBy: (c: T) => boolean): LaneScore {
  let tp = 0, fp = 0, positives = 0, negatives = 0;
  const missed: string[] = [];
  const falseAlarms: string[] = [];
  for (const c of cases) {
    const hit = caughtBy(c);
    if (c.positive) {
      positives++;
      if (hit) tp++;
      else missed.push(c.id);
    } else {
      negatives++;
      if (hit) {
        fp++;
        falseAlarms.push(c.id);
      }
    }
  }
  return {
    lane, caught, positives, negatives, tp, fp,
    recall: positives === 0 ? 0 : tp / positives,
    falsePositiveRate: negatives === 0 ? 0 : fp / negatives,
    precision: tp + fp === 0 ? 0 : tp / (tp + fp),
    missed, falseAlarms,
  };
}

/** Every lane module in this folder, by file name. */
export async function loadLanes(): Promise<Lane[]> {
  const dir = fileURLToPath(new URL('.', import.meta.url));
  const files = readdirSync(dir).filter((f) => f.endsWith('.ts') && f !== 'lane.ts').sort();
  return Promise.all(files.map(async (f) => ((await import(pathToFileURL(`${dir}${f}`).href)) as { lane: Lane }).lane));
}
