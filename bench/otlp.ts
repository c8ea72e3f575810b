// OTLP ingest: log records per second through the sidecar's receiver (protobuf, 1,000 Claude Code events a request,
// scoped-token auth, normalising, one SQLite transaction a request), next to the same bodies posted to a bare
// Fastify route that only decodes them (bench/lib/bare-otlp.ts), in the same run.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { ScopedCredentials } from '../src/telemetry/otlp/credentials.js';
import { OTLP_MESSAGES } from '../src/telemetry/otlp/proto.js';
import { startProcess } from './lib/processes.js';
import { round, writeResult } from './lib/report.js';

const CLI = fileURLToPath(new URL('../dist/cli/warden.js', import.meta.url));
const BARE = fileURLToPath(new URL('./lib/bare-otlp.ts', import.meta.url));
const RECORDS_PER_REQUEST = 1000;
const SECONDS = Number(process.env.BENCH_OTLP_SECONDS ?? 5);
const CONNECTIONS = 4;

/** One ExportLogsServiceRequest of Claude Code tool_result events, as its exporter would send them. */
function logsBody(): Buffer {
  const attr = (key: string, value: string) => ({ key, value: { stringValue: value } });
  const now = BigInt(Date.now()) * 1_000_000n;
  const logRecords = Array.from({ length: RECORDS_PER_REQUEST }, (_, i) => ({
    timeUnixNano: String(now + BigInt(i)),
    body: { stringValue: 'claude_code.tool_result' },
    attributes: [
      attr('event.name', 'tool_result'), attr('session.id', `bench-session-${i % 10}`), attr('tool_name', 'Bash'),
      attr('success', 'true'), attr('decision', 'accept'), attr('tool_use_id', `toolu_${i}`), attr('duration_ms', '12'),
      attr('tool_parameters', '{"bash_command":"ls"}'),
    ],
  }));
  const { request } = OTLP_MESSAGES.logs;
  return Buffer.from(request.encode(request.fromObject({
    resourceLogs: [{ resource: { attributes: [attr('service.name', 'claude-code')] }, scopeLogs: [{ logRecords }] }],
  })).finish());
}

async function recordsPerSecond(url: string, headers: Record<string, string>, body: Buffer): Promise<{ perSecond: number; non2xx: number; errors: number }> {
  const result = await autocannon({ url, method: 'POST', headers, body, duration: SECONDS, connections: CONNECTIONS });
  return { perSecond: (result.requests.total / SECONDS) * RECORDS_PER_REQUEST, non2xx: result.non2xx, errors: result.errors + result.timeouts };
}

export async function run(): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'warden-bench-otlp-'));
  writeFileSync(join(home, 'config.yaml'), 'config_version: 9\ngateway:\n  api_port: 0\n  log_level: warn\nguardrail:\n  port: 0\n');
  const token = ScopedCredentials.issue(home, 'claudecode');
  const gateway = await startProcess([CLI, 'start'], { ...process.env, WARDEN_HOME: home }, /^ready sidecar=(\S+)/m);
  const bare = await startProcess(['--import', 'tsx', BARE], process.env, /^ready (\S+)$/m);
  try {
    const body = logsBody();
    const headers = { 'content-type': 'application/x-protobuf' };
    const baseline = await recordsPerSecond(`${bare.line[1]}/v1/logs`, headers, body);
    const warden = await recordsPerSecond(`${gateway.line[1]}/v1/logs`, {
      ...headers, authorization: `Bearer ${token}`, 'x-warden-source': 'claudecode', 'x-warden-client': 'bench',
    }, body);
    if (warden.non2xx > 0 || warden.errors > 0) throw new Error(`receiver answered ${warden.non2xx} non-2xx and ${warden.errors} errors`);
    const file = writeResult({
      name: 'otlp',
      metrics: { records_per_second: round(warden.perSecond), request_bytes: body.length, records_per_request: RECORDS_PER_REQUEST },
      baseline: { decode_only_records_per_second: round(baseline.perSecond) },
      ratio: { receiver_vs_decode_only: round(warden.perSecond / baseline.perSecond, 3) },
      notes: [`${CONNECTIONS} connections, ${SECONDS} s each; the receiver authenticates, normalises and commits every record to telemetry.db`],
    });
    process.stdout.write(`wrote ${file}\n`);
  } finally {
    await gateway.stop();
    await bare.stop();
    rmSync(home, { recursive: true, force: true });
  }
}
