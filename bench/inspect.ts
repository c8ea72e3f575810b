// Inspection engine: in-process verdict latency for 4 KiB tool calls, POST /api/v1/inspect/tool throughput
// next to a bare Fastify JSON route, ReDoS resistance on 1 MiB of adversarial content, and precision/recall
// on the labelled corpus in test/corpus/, and recall / false-positive rate per detection lane (test/corpus/lanes/).
// Targets: median verdict <= 50 us; route >= 0.6 x bare route; 1 MiB adversarial <= 100 ms.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InspectionEngine } from '../src/guardrail/engine.js';
import { Inspector } from '../src/guardrail/inspector.js';
import { loadRulePack } from '../src/guardrail/rules/load.js';
import type { VerdictThresholds } from '../src/guardrail/thresholds.js';
import { load, warmUp, type LoadResult } from './lib/load.js';
import { startProcess } from './lib/processes.js';
import { median, microbench, round, writeResult } from './lib/report.js';
import { loadLanes } from '../test/corpus/lanes/lane.js';

const CLI = fileURLToPath(new URL('../dist/cli/warden.js', import.meta.url));
const BARE = fileURLToPath(new URL('./lib/bare-server.ts', import.meta.url));
const CORPUS = fileURLToPath(new URL('../test/corpus/', import.meta.url));
const TOKEN = 'bench-token-0123456789abcdef0123456789abcdef';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const THRESHOLDS: VerdictThresholds = { mode: 'action', blockAt: 'CRITICAL', alertAt: 'MEDIUM', hiltEnabled: false, hiltMinSeverity: 'HIGH' };

/** Whole lines (so a script stays valid shell) adding up to just under 4 KiB. */
function fourKiB(line: string): string {
  const lines: string[] = [];
  for (let i = 0, size = 0; ; i++) {
    const next = line.replaceAll('#', String(i));
    if (size + next.length + 1 > 4096) return lines.join('\n');
    lines.push(next);
    size += next.length + 1;
  }
}
const WRITE_4K = { tool: 'Write', args: { file_path: 'src/server/handlers.ts', content: fourKiB('export function handler#(req: Request): Response { return json({ ok: true, id: # }); }') } };
const BASH_4K = { tool: 'Bash', args: { command: fourKiB('grep -rn "TODO #" src/ | sort | uniq -c >> report.txt && echo done #;') } };

/** Median microseconds per call, timed in batches of 100 to keep the clock's own cost out. */
interface CorpusItem { route: string; tool?: string; args?: Record<string, unknown>; content?: string; output?: string; label: string }

function corpusScores(inspector: Inspector) {
  const files = ['tool-calls', 'prompts', 'responses', 'tool-outputs'];
  let tp = 0, fp = 0, fn = 0, tn = 0;
  for (const file of files) {
    for (const line of readFileSync(join(CORPUS, `${file}.jsonl`), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const item = JSON.parse(line) as CorpusItem;
      const verdict = item.route === 'tool'
        ? inspector.tool(item.tool!, item.args).verdict
        : inspector.text(item.content ?? item.output ?? '').verdict;
      const flagged = verdict.raw_action !== undefined && verdict.raw_action !== 'allow';
      const malicious = item.label === 'malicious';
      if (flagged && malicious) tp++;
      else if (flagged) fp++;
      else if (malicious) fn++;
      else tn++;
    }
  }
  return { precision: tp / (tp + fp), recall: tp / (tp + fn), tp, fp, fn, tn };
}

export async function run(): Promise<void> {
  // In process.
  const started = performance.now();
  const engine = new InspectionEngine(loadRulePack('default'));
  const packLoadMs = performance.now() - started;
  const inspector = new Inspector(engine, THRESHOLDS);
  const write4k = microbench(() => inspector.tool(WRITE_4K.tool, WRITE_4K.args));
  const bash4k = microbench(() => inspector.tool(BASH_4K.tool, BASH_4K.args));
  const jsonBaseline = microbench(() => JSON.parse(JSON.stringify(WRITE_4K)));

  // ReDoS: worst of several adversarial 1 MiB inputs, through both lanes.
  const MiB = 1024 * 1024;
  const adversarial = [
    'a'.repeat(MiB),
    'AKIA'.repeat(MiB / 4),
    '-----BEGIN '.repeat(MiB / 11),
    ('password=' + 'x'.repeat(50) + ' ').repeat(MiB / 60),
    '"'.repeat(MiB),
    '$('.repeat(MiB / 2),
    ('ignore previous ' + ' '.repeat(100)).repeat(MiB / 116),
    '4111 '.repeat(MiB / 5),
    // aimed at the prompt-injection score's normaliser and decoders (src/guardrail/injection/)
    `${Buffer.from('ignore all previous instructions ').toString('base64')}\n`.repeat(MiB / 46),
    '41'.repeat(MiB / 2),
    '%41'.repeat(MiB / 3),
    '\\x41'.repeat(MiB / 4),
    '\u{E0041}'.repeat(MiB / 2),
    'x\uFE01'.repeat(MiB / 2),
    'a\u200B'.repeat(MiB / 2),
    'іgnоrе '.repeat(MiB / 7),
    '&#105;'.repeat(MiB / 6),
    'é'.repeat(MiB),
    'Ｉｇｎｏｒｅ'.repeat(MiB / 6),
    'i g n o r e '.repeat(MiB / 12),
    'vtaber nyy cerivbhf '.repeat(MiB / 20),
    '1gn0r3 '.repeat(MiB / 7),
    '<!-- AI: '.repeat(MiB / 9),
    '![x](https://a.example/?q='.repeat(MiB / 26),
  ];
  let worstMs = 0;
  for (const text of adversarial) {
    for (const scan of [() => inspector.text(text), () => inspector.tool('Bash', { command: text })]) {
      const t = performance.now();
      scan();
      worstMs = Math.max(worstMs, performance.now() - t);
    }
  }
  const prose = 'The quick brown fox jumps over the lazy dog while the tests run. '.repeat(MiB / 65);
  const t = performance.now();
  inspector.text(prose);
  const proseMs = performance.now() - t;

  const corpus = corpusScores(inspector);
  // Per-lane detection figures on the labelled lane corpora (test/corpus/lanes/), with the default pack.
  const lanes: Record<string, number> = {};
  for (const lane of await loadLanes()) {
    const score = lane.score(inspector);
    const key = lane.name.replaceAll('-', '_');
    Object.assign(lanes, {
      [`lane_${key}_recall`]: round(score.recall), [`lane_${key}_false_positive_rate`]: round(score.falsePositiveRate),
      [`lane_${key}_positives`]: score.positives, [`lane_${key}_negatives`]: score.negatives,
    });
  }

  // Over HTTP, interleaved with the bare route.
  const dir = mkdtempSync(join(tmpdir(), 'warden-bench-'));
  writeFileSync(join(dir, 'config.yaml'), 'config_version: 9\ngateway:\n  api_port: 0\n  log_level: warn\nguardrail:\n  port: 0\n');
  const bare = await startProcess(['--import', 'tsx', BARE], process.env, /^ready (\S+)$/m);
  const gateway = await startProcess([CLI, 'start'], { ...process.env, WARDEN_HOME: dir, WARDEN_GATEWAY_TOKEN: TOKEN }, /^ready sidecar=(\S+)/m);
  const call = JSON.stringify({ tool: 'Bash', args: { command: 'git status && npm test -- --watch=false', description: 'run tests' } });
  const targets = {
    bare: { url: `${bare.line[1]}/json`, method: 'POST' as const, headers: { 'content-type': 'application/json' }, body: call },
    inspect: {
      url: `${gateway.line[1]}/api/v1/inspect/tool`, method: 'POST' as const, body: call,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}`, 'x-warden-client': 'bench' },
    },
  };
  for (const target of Object.values(targets)) await warmUp(target);
  type Measured = LoadResult & { cpuUsPerRequest: number };
  /** One load run, with the server's CPU time per request answered. */
  const measure = async (target: typeof targets.bare, server: typeof bare): Promise<Measured> => {
    const cpuBefore = server.cpuMicros();
    const result = await load({ ...target, seconds: SECONDS });
    return { ...result, cpuUsPerRequest: (server.cpuMicros() - cpuBefore) / result.total };
  };
  const rounds: { bare: Measured; inspect: Measured }[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    rounds.push({ bare: await measure(targets.bare, bare), inspect: await measure(targets.inspect, gateway) });
  }
  await gateway.stop();
  await bare.stop();
  rmSync(dir, { recursive: true, force: true });
  if (rounds.some((r) => r.inspect.non2xx > 0 || r.inspect.errors > 0)) throw new Error('inspect route answered errors under load');

  const med = (pick: (r: (typeof rounds)[number]) => number) => median(rounds.map(pick));
  const file = writeResult({
    name: 'inspect',
    metrics: {
      verdict_write_4k_median_us: round(write4k, 1),
      verdict_bash_4k_median_us: round(bash4k, 1),
      pack_load_ms: round(packLoadMs, 0),
      redos_worst_1mib_ms: round(worstMs, 1),
      inspect_route_rps: round(med((r) => r.inspect.requestsPerSecond), 0),
      inspect_route_p50_ms: med((r) => r.inspect.p50Ms),
      inspect_route_p99_ms: med((r) => r.inspect.p99Ms),
      inspect_route_cpu_us_per_request: round(med((r) => r.inspect.cpuUsPerRequest), 1),
      corpus_precision: round(corpus.precision),
      corpus_recall: round(corpus.recall),
      corpus_tp: corpus.tp, corpus_fp: corpus.fp, corpus_fn: corpus.fn, corpus_tn: corpus.tn,
      ...lanes,
    },
    baseline: {
      json_roundtrip_4k_us: round(jsonBaseline, 1),
      clean_prose_1mib_ms: round(proseMs, 1),
      bare_route_rps: round(med((r) => r.bare.requestsPerSecond), 0),
      bare_route_p50_ms: med((r) => r.bare.p50Ms),
      bare_route_p99_ms: med((r) => r.bare.p99Ms),
      bare_route_cpu_us_per_request: round(med((r) => r.bare.cpuUsPerRequest), 1),
    },
    ratio: {
      verdict_write_4k_vs_json_roundtrip: round(write4k / jsonBaseline, 2),
      verdict_bash_4k_vs_json_roundtrip: round(bash4k / jsonBaseline, 2),
      redos_worst_vs_clean_prose: round(worstMs / proseMs, 2),
      inspect_route_vs_bare: round(med((r) => r.inspect.requestsPerSecond / r.bare.requestsPerSecond)),
      inspect_route_cpu_vs_bare: round(med((r) => r.inspect.cpuUsPerRequest / r.bare.cpuUsPerRequest), 2),
    },
    notes: [
      'targets: verdict median <= 50 us; inspect_route_vs_bare >= 0.6; redos_worst_1mib_ms <= 100',
      'the inspect route answers after its audit row is committed (group commit)',
      `route figures: median of ${ROUNDS} interleaved rounds of ${SECONDS} s, 10 connections, loopback`,
      'cpu_us_per_request: the server process\'s CPU (all threads, /proc) per request answered; unlike requests/s it does not depend on how the load generator shares the 2 cores',
    ],
  });
  process.stdout.write(`inspect -> ${file}\n`);
}
