// Benchmark results: every benchmark measures a baseline in the same run and reports the ratio, because
// absolute timings on a shared machine mean little.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';

export interface BenchResult {
  name: string;
  metrics: Record<string, number>;
  baseline: Record<string, number>;
  ratio: Record<string, number>;
  notes?: string[];
}

export function writeResult(result: BenchResult): string {
  const dir = fileURLToPath(new URL('../results/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  const file = `${dir}${result.name}.json`;
  const body = {
    name: result.name,
    date: new Date().toISOString(),
    node: process.version,
    machine: { cpus: cpus().length, cpu_model: cpus()[0]?.model ?? 'unknown', mem: totalmem() },
    metrics: result.metrics,
    baseline: result.baseline,
    ratio: result.ratio,
    ...(result.notes ? { notes: result.notes } : {}),
  };
  writeFileSync(file, `${JSON.stringify(body, null, 2)}\n`);
  return file;
}

export const round = (n: number, digits = 3): number => Number(n.toFixed(digits));

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Median microseconds per call of `fn`, timed in batches to keep the clock's own cost out, after a warm-up.
 * `fn` is given the call's index within its batch (to rotate over a set of inputs).
 */
export function microbench(fn: (i: number) => unknown, { warmUp = 500, perBatch = 100, batches = 200 } = {}): number {
  for (let i = 0; i < warmUp; i++) fn(i);
  const perCall: number[] = [];
  for (let b = 0; b < batches; b++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < perBatch; i++) fn(i);
    perCall.push(Number(process.hrtime.bigint() - start) / perBatch / 1000);
  }
  return median(perCall);
}
