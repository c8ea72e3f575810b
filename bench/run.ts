// `npm run bench [-- NAME ...]`: run every benchmark in bench/ (or the named ones) one after another and print
// each result file. Benchmarks run sequentially so they do not compete for the machine's two cores.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const available = readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts')
  .map((f) => f.slice(0, -3))
  .sort();
const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !available.includes(w));
if (unknown.length > 0) {
  process.stderr.write(`unknown benchmark(s): ${unknown.join(', ')}; available: ${available.join(', ')}\n`);
  process.exit(2);
}

for (const name of wanted.length > 0 ? wanted : available) {
  process.stdout.write(`\n== ${name}\n`);
  const module = (await import(pathToFileURL(`${dir}${name}.ts`).href)) as { run: () => Promise<void> };
  await module.run();
  const result = JSON.parse(readFileSync(`${dir}results/${name}.json`, 'utf8')) as Record<string, unknown>;
  process.stdout.write(`${JSON.stringify({ metrics: result.metrics, baseline: result.baseline, ratio: result.ratio }, null, 2)}\n`);
}
