// The hook as the agent feels it: the exact command `warden setup claudecode` installs, run the way an agent runs
// it (`sh -c '<command>'`) with a recorded PreToolUse payload on stdin, against a real running gateway, timed from
// spawn until the answer is printed and the process has exited. Beside it, in the same run and the same harness:
// the Node command setup installed before (and still installs where there is no curl), and two floors,
// `node -e 0` and a bare `curl` to /health. Target: installed command <= 15 ms median, <= 25 ms p90.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hookCommand } from '../src/connectors/setup/hook-command.js';
import { startProcess } from './lib/processes.js';
import { median, round, writeResult } from './lib/report.js';

const CLI = fileURLToPath(new URL('../dist/cli/warden.js', import.meta.url));
const PAYLOAD = readFileSync(fileURLToPath(new URL('../test/connectors/payloads/claudecode/pre-tool-use-bash.json', import.meta.url)), 'utf8');
const RUNS = Number(process.env.BENCH_HOOK_RUNS ?? 200);
const WARM_UP = 10;

/** Milliseconds from spawning `sh -c command` to its exit with all output read; throws on an unexpected exit code. */
function timed(command: string, input: string | undefined, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const proc = spawn('/bin/sh', ['-c', command], { env, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    let output = '';
    proc.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    proc.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    if (input !== undefined) proc.stdin!.end(input);
    proc.on('error', reject);
    proc.on('close', (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`${command}: exit ${code}: ${output}`))));
  });
}

const p90 = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.9) - 1]!;

export async function run(): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'warden-bench-hook-'));
  const user = mkdtempSync(join(tmpdir(), 'warden-bench-user-'));
  writeFileSync(join(home, 'config.yaml'), 'config_version: 9\ngateway:\n  api_port: 0\n  log_level: warn\nguardrail:\n  port: 0\n');
  const env: NodeJS.ProcessEnv = { ...process.env, WARDEN_HOME: home, HOME: user };
  delete env.WARDEN_GATEWAY_TOKEN;
  const gateway = await startProcess([CLI, 'start'], env, /^ready sidecar=(\S+) proxy=(\S+)$/m);
  try {
    const setup = spawnSync(process.execPath, [CLI, 'setup', 'claudecode'], { env, encoding: 'utf8' });
    if (setup.status !== 0) throw new Error(`warden setup claudecode failed: ${setup.stderr}`);
    const settings = JSON.parse(readFileSync(join(user, '.claude', 'settings.json'), 'utf8')) as { hooks: Record<string, { hooks: { command: string }[] }[]> };
    const installed = settings.hooks.PreToolUse!.flatMap((g) => g.hooks).map((h) => h.command).find((c) => c.includes('warden-hook'))!;
    // Setup's SIGHUP rebinds the ephemeral listeners; the running gateway's address is in gateway.json.
    const { sidecar } = JSON.parse(readFileSync(join(home, 'gateway.json'), 'utf8')) as { sidecar: string };
    const commands: Record<string, { command: string; input?: string }> = {
      installed: { command: installed, input: PAYLOAD },
      node_command: { command: hookCommand({ connector: 'claudecode', home, failMode: 'closed' }, 'PreToolUse'), input: PAYLOAD },
      node_e0: { command: `${process.execPath} -e 0` },
      curl_health: { command: `curl -s -o /dev/null ${sidecar}/health` },
    };
    const times: Record<string, number[]> = Object.fromEntries(Object.keys(commands).map((name) => [name, []]));
    // Interleaved: a slow spell on the shared machine hits every command alike.
    for (let i = 0; i < WARM_UP + RUNS; i++) {
      for (const [name, { command, input }] of Object.entries(commands)) {
        const ms = await timed(command, input, env);
        if (i >= WARM_UP) times[name]!.push(ms);
      }
    }
    const med = (name: string) => round(median(times[name]!), 2);
    const tail = (name: string) => round(p90(times[name]!), 2);
    const file = writeResult({
      name: 'hook',
      metrics: {
        installed_median_ms: med('installed'), installed_p90_ms: tail('installed'),
        node_command_median_ms: med('node_command'), node_command_p90_ms: tail('node_command'),
      },
      baseline: {
        node_e0_median_ms: med('node_e0'), node_e0_p90_ms: tail('node_e0'),
        curl_health_median_ms: med('curl_health'), curl_health_p90_ms: tail('curl_health'),
      },
      ratio: {
        installed_vs_node_command: round(median(times.installed!) / median(times.node_command!)),
        installed_vs_curl_health: round(median(times.installed!) / median(times.curl_health!)),
      },
      notes: [
        `installed command: ${installed}`,
        `${RUNS} runs each after ${WARM_UP} warm-up runs, interleaved; each spawned as sh -c '<command>' from Node, as agents run hooks`,
        'target: installed command <= 15 ms median, <= 25 ms p90',
      ],
    });
    process.stdout.write(`wrote ${file}\n`);
  } finally {
    await gateway.stop();
    rmSync(home, { recursive: true, force: true });
    rmSync(user, { recursive: true, force: true });
  }
}

