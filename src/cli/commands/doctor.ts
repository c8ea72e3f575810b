import type { Command } from 'commander';
import type { Outcome } from '../doctor-checks.js';

export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .description('check config, token, ports and database, one row per check')
    .action(async () => {
      const { runChecks } = await import('../doctor-checks.js');
      const checks = await runChecks(process.env);
      const label: Record<Outcome, string> = { ok: 'OK  ', warn: 'WARN', fail: 'FAIL' };
      for (const c of checks) process.stdout.write(`${label[c.outcome]}  ${c.name.padEnd(14)} ${c.detail}\n`);
      if (checks.some((c) => c.outcome === 'fail')) process.exitCode = 1;
    });
}
