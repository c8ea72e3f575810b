import type { Command } from 'commander';

interface StatusBody {
  status: string;
  version: string;
  uptime_ms: number;
  subsystems: Record<string, { state: string; last_error?: string }>;
  runtime: { pid: number; data_dir: string };
  provenance: { config_path: string; config_sha256: string };
  connector_modes: { connector: string; mode: string; policy_mode: string; hook_fail_mode: string; enabled: boolean }[];
}

function formatStatus(s: StatusBody, url: string): string {
  const lines = [
    `Warden ${s.version}: ${s.status} (pid ${s.runtime.pid}, up ${formatDuration(s.uptime_ms)})`,
    `  sidecar     ${url}`,
    `  data dir    ${s.runtime.data_dir}`,
    `  config      ${s.provenance.config_path} (sha256 ${s.provenance.config_sha256.slice(0, 12)})`,
    '  subsystems',
    ...Object.entries(s.subsystems).map(
      ([name, sub]) => `    ${name.padEnd(16)} ${sub.state}${sub.last_error ? `: ${sub.last_error}` : ''}`,
    ),
    '  connectors',
    ...s.connector_modes.map(
      (c) => `    ${c.connector.padEnd(16)} ${c.mode}, ${c.policy_mode}, hooks fail ${c.hook_fail_mode}${c.enabled ? '' : ', guardrail disabled'}`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}

function formatDuration(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
}

export function registerStatus(program: Command): void {
  program
    .command('status')
    .description('show the running gateway: subsystems, connectors, data directory')
    .option('--json', 'print the raw /status answer')
    .action(async (options: { json?: boolean }) => {
      const { describeFetchError, getJson, localGateway } = await import('../local-gateway.js');
      const gateway = localGateway();
      let body: StatusBody;
      try {
        body = (await getJson(gateway, '/status')) as StatusBody;
      } catch (err) {
        process.stderr.write(`warden: gateway not reachable at ${gateway.url}: ${describeFetchError(err)}\n`);
        process.exitCode = 1;
        return;
      }
      process.stdout.write(options.json ? `${JSON.stringify(body, null, 2)}\n` : formatStatus(body, gateway.url));
    });
}
