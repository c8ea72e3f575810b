import { createWriteStream, existsSync } from 'node:fs';
import { once } from 'node:events';
import { InvalidArgumentError, type Command } from 'commander';

function positiveInteger(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError('must be a positive integer');
  return n;
}

export function registerAudit(program: Command): void {
  const audit = program.command('audit').description('read the audit trail');
  audit
    .command('export')
    .description('write audit events as JSON Lines, oldest first')
    .option('-o, --output <file>', 'write to FILE instead of standard output')
    .option('--limit <n>', 'only the newest N events', positiveInteger)
    .action(async (options: { output?: string; limit?: number }) => {
      const { AuditReader } = await import('../../audit/reader.js');
      const { wardenPaths } = await import('../../config/home.js');
      const { auditDb } = wardenPaths();
      if (!existsSync(auditDb)) {
        process.stderr.write(`warden: no audit database at ${auditDb} (has the gateway run yet?)\n`);
        process.exitCode = 1;
        return;
      }
      const store = new AuditReader(auditDb);
      const out = options.output ? createWriteStream(options.output, { mode: 0o600 }) : process.stdout;
      let count = 0;
      try {
        for (const event of store.events({ limit: options.limit })) {
          if (!out.write(`${JSON.stringify(event)}\n`)) await once(out, 'drain');
          count++;
        }
      } finally {
        store.close();
      }
      if (options.output) {
        await new Promise<void>((resolve, reject) => (out as NodeJS.WritableStream).end(() => resolve()).on('error', reject));
        process.stderr.write(`exported ${count} events to ${options.output}\n`);
      }
    });
  audit
    .command('timeline')
    .description('print what every source recorded about one agent session, in time order: hook and inspect verdicts, proxy calls, egress, and the agent\'s OTLP events; then the tool calls that ran with no hook verdict or after a block')
    .requiredOption('--session <id>', 'the agent session id')
    .action(async (options: { session: string }) => {
      const { openLedgerReadOnly, printTimeline } = await import('../audit-timeline.js');
      const ledger = openLedgerReadOnly();
      if (!ledger) {
        process.exitCode = 1;
        return;
      }
      try {
        printTimeline(ledger.ledger, options.session, (line) => process.stdout.write(`${line}\n`));
      } finally {
        ledger.close();
      }
    });
}
