// Sidecar baseline: GET /health and authenticated POST /audit/event against a bare Fastify JSON route in the
// same run, plus cold start to the `ready` line against a bare `node -e` start.
// Target: authenticated POST >= 0.7 x the bare POST route; cold start <= 1 s.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load, warmUp, type LoadResult } from './lib/load.js';
import { startProcess } from './lib/processes.js';
import { median, round, writeResult } from './lib/report.js';

const CLI = fileURLToPath(new URL('../dist/cli/warden.js', import.meta.url));
const BARE = fileURLToPath(new URL('./lib/bare-server.ts', import.meta.url));
const TOKEN = 'bench-token-0123456789abcdef0123456789abcdef';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

function tempHome(): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = mkdtempSync(join(tmpdir(), 'warden-bench-'));
  writeFileSync(join(dir, 'config.yaml'), 'config_version: 9\ngateway:\n  api_port: 0\n  log_level: warn\nguardrail:\n  port: 0\n');
  return { dir, env: { ...process.env, WARDEN_HOME: dir, WARDEN_GATEWAY_TOKEN: TOKEN } };
}

async function measure(target: { url: string; method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string }): Promise<LoadResult> {
  const result = await load({ ...target, seconds: SECONDS });
  if (result.errors > 0 || result.non2xx > 0) throw new Error(`${target.url}: ${result.errors} errors, ${result.non2xx} non-2xx answers`);
  return result;
}

export async function run(): Promise<void> {
  const event = JSON.stringify({
    action: 'bench-event', severity: 'MEDIUM', target: 'Bash', connector: 'claudecode', session_id: 'bench-session',
    structured: { rule_ids: ['CMD-EXAMPLE'], tool: 'Bash' }, details: 'x'.repeat(200),
  });
  const json = { 'content-type': 'application/json' };
  const home = tempHome();
  const bare = await startProcess(['--import', 'tsx', BARE], process.env, /^ready (\S+)$/m);
  const gateway = await startProcess([CLI, 'start'], home.env, /^ready sidecar=(\S+) proxy=(\S+)$/m);
  const targets = {
    bare_get: { url: `${bare.line[1]}/json` },
    health: { url: `${gateway.line[1]}/health` },
    bare_post: { url: `${bare.line[1]}/json`, method: 'POST' as const, headers: json, body: event },
    audit_post: {
      url: `${gateway.line[1]}/audit/event`, method: 'POST' as const, body: event,
      headers: { ...json, authorization: `Bearer ${TOKEN}`, 'x-warden-client': 'bench' },
    },
  };
  // Interleaved rounds, one target loaded at a time: a slow spell on the shared machine then hits every
  // target of that round alike, and the median of the per-round ratios is what we report.
  for (const target of Object.values(targets)) await warmUp(target);
  const rounds: Record<keyof typeof targets, LoadResult>[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const results = {} as Record<keyof typeof targets, LoadResult>;
    for (const [name, target] of Object.entries(targets) as [keyof typeof targets, (typeof targets)[keyof typeof targets]][]) {
      results[name] = await measure(target);
    }
    rounds.push(results);
  }
  await gateway.stop();
  await bare.stop();
  rmSync(home.dir, { recursive: true, force: true });

  // Cold start: a fresh process with an existing data dir, five times; baseline is `node -e ""`.
  const starts: number[] = [];
  for (let i = 0; i < 5; i++) {
    const h = tempHome();
    const g = await startProcess([CLI, 'start'], h.env, /^ready /m);
    starts.push(g.startMs);
    await g.stop();
    rmSync(h.dir, { recursive: true, force: true });
  }
  const nodeStarts: number[] = [];
  for (let i = 0; i < 5; i++) {
    const began = performance.now();
    spawnSync(process.execPath, ['-e', '']);
    nodeStarts.push(performance.now() - began);
  }

  const med = (pick: (r: Record<keyof typeof targets, LoadResult>) => number) => median(rounds.map(pick));
  const file = writeResult({
    name: 'sidecar-baseline',
    metrics: {
      health_rps: round(med((r) => r.health.requestsPerSecond), 0),
      health_p99_ms: med((r) => r.health.p99Ms),
      audit_post_rps: round(med((r) => r.audit_post.requestsPerSecond), 0),
      audit_post_p99_ms: med((r) => r.audit_post.p99Ms),
      cold_start_ms: round(median(starts), 1),
    },
    baseline: {
      bare_get_rps: round(med((r) => r.bare_get.requestsPerSecond), 0),
      bare_get_p99_ms: med((r) => r.bare_get.p99Ms),
      bare_post_rps: round(med((r) => r.bare_post.requestsPerSecond), 0),
      bare_post_p99_ms: med((r) => r.bare_post.p99Ms),
      node_start_ms: round(median(nodeStarts), 1),
    },
    ratio: {
      health_vs_bare_get: round(med((r) => r.health.requestsPerSecond / r.bare_get.requestsPerSecond)),
      audit_post_vs_bare_post: round(med((r) => r.audit_post.requestsPerSecond / r.bare_post.requestsPerSecond)),
      cold_start_vs_node_start: round(median(starts) / median(nodeStarts), 2),
    },
    notes: [
      `median of ${ROUNDS} interleaved rounds of ${SECONDS} s per target, 10 connections, loopback`,
      'target: audit_post_vs_bare_post >= 0.7; cold_start_ms <= 1000',
    ],
  });
  process.stdout.write(`sidecar-baseline -> ${file}\n`);
}
