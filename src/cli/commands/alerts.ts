// `warden alerts`: the running gateway's newest alerts with their dispositions, and `--ack ID` to acknowledge one
// (POST /api/v1/alerts/disposition with apply: the gateway owns audit.db and records who acknowledged it).
import { InvalidArgumentError, type Command } from 'commander';

interface Alert {
  id: string;
  timestamp: string;
  severity: string;
  action: string;
  target?: string;
  connector?: string;
  disposition?: { status: string; note: string; actor?: string };
}

function limitOf(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > 500) throw new InvalidArgumentError('must be an integer from 1 to 500');
  return n;
}

function formatAlerts(alerts: Alert[]): string {
  if (alerts.length === 0) return 'no alerts\n';
  const lines = alerts.map((a) => [
    a.timestamp.replace(/\.\d+Z$/, 'Z'), a.severity.padEnd(8), (a.disposition?.status ?? 'open').padEnd(14), a.action,
    a.target ? ` ${a.target.length > 60 ? `${a.target.slice(0, 57)}...` : a.target}` : '', `  [${a.id}]`,
  ].join(' '));
  return `${lines.join('\n')}\n`;
}

export function registerAlerts(program: Command): void {
  program
    .command('alerts')
    .description('list the newest alerts of the running gateway, or acknowledge one')
    .option('--ack <id>', 'acknowledge the alert with this id (recorded in the audit trail)')
    .option('--note <text>', 'why, with --ack')
    .option('--limit <n>', 'how many alerts to list (1-500, default 50)', limitOf)
    .option('--json', 'print the raw answer')
    .action(async (options: { ack?: string; note?: string; limit?: number; json?: boolean }) => {
      const { describeFetchError, getJson, localGateway, postJson } = await import('../local-gateway.js');
      const gateway = localGateway();
      try {
        if (options.ack === undefined) {
          const body = (await getJson(gateway, `/alerts${options.limit ? `?limit=${options.limit}` : ''}`)) as { alerts: Alert[] };
          process.stdout.write(options.json ? `${JSON.stringify(body, null, 2)}\n` : formatAlerts(body.alerts));
          return;
        }
        const { ok, status, body } = await postJson<{ error: string; code: string; changes: unknown[]; not_found: string[] }>(gateway, '/api/v1/alerts/disposition', {
          alert_ids: [options.ack],
          disposition: 'acknowledged',
          note: options.note ?? '',
          apply: true,
        });
        if (!ok) {
          process.stderr.write(`warden: acknowledgement refused: ${body.error ?? `HTTP ${status}`}${body.code ? ` (${body.code})` : ''}\n`);
          process.exitCode = 1;
        } else if (options.json) {
          process.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
        } else if (body.not_found?.length) {
          process.stderr.write(`warden: no alert with id ${options.ack}\n`);
          process.exitCode = 1;
        } else {
          process.stdout.write(body.changes?.length ? `acknowledged alert ${options.ack}\n` : `alert ${options.ack} was already acknowledged\n`);
        }
      } catch (err) {
        process.stderr.write(`warden: gateway not reachable at ${gateway.url}: ${describeFetchError(err)}\n`);
        process.exitCode = 1;
      }
    });
}
