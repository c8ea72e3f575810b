// The lifecycle commands of the config_version 8 → 9 migration (spec document 1, "Configuration migration"):
// `warden migrate [--check]` (all steps), `warden config migrate [--dry-run] [--ack] [--json]` (the version 9
// step; under `warden-gateway` it also lists removed keys and audit entries moved), `warden upgrade <release>`
// and `warden rollback`. The migration itself is src/migration; `deps` lets tests run these commands with a
// migration of their own.
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import type { MigrationDeps, RunOptions } from '../../migration/index.js';

interface ConfigMigrateOptions { dryRun?: boolean; ack?: boolean; json?: boolean }

/** The package folder this CLI runs from (dist/cli/commands/ → the package root), what `upgrade` replaces. */
const INSTALL_DIR = fileURLToPath(new URL('../../../', import.meta.url));

async function run(deps: MigrationDeps | undefined, options: RunOptions) {
  const { wardenPaths } = await import('../../config/home.js');
  const { migrationDeps } = await import('../../migration/index.js');
  const { runMigration } = await import('../../migration/run.js');
  const { home } = wardenPaths(process.env);
  return { home, outcome: await runMigration(migrationDeps(deps), home, options) };
}

/** What tests replace: the migration, and where the output goes (standard output by default). */
export interface MigrateCommandOptions {
  deps?: MigrationDeps;
  write?: (text: string) => void;
}

export function registerMigrate(program: Command, { deps, write = (text) => process.stdout.write(text) }: MigrateCommandOptions = {}): void {
  const gatewayForm = program.name() === 'warden-gateway';
  const print = (lines: string[]) => write(lines.map((line) => `${line}\n`).join(''));

  program
    .command('migrate')
    .description('migrate $WARDEN_HOME to the current config_version (all steps); --check lists them and changes nothing')
    .option('--check', 'list the pending steps without changing anything')
    .action(async (options: { check?: boolean }) => {
      const { describeOutcome, pendingSteps } = await import('../migration-report.js');
      const { home, outcome } = await run(deps, { dryRun: Boolean(options.check) });
      if (!options.check) {
        print(describeOutcome(outcome, { home, gatewayForm }));
        return;
      }
      const steps = pendingSteps(outcome);
      print(steps.length === 0 ? describeOutcome(outcome, { home, gatewayForm }) : ['pending steps (nothing changed):', ...steps]);
    });

  const config = program.command('config').description('the configuration file');
  config
    .command('migrate')
    .description(gatewayForm
      ? 'migrate config.yaml from config_version 8 to 9, listing removed keys and audit entries moved'
      : 'migrate config.yaml from config_version 8 to 9')
    .option('--dry-run', 'show what would change and write nothing')
    .option('--ack', 'mark the migration record as read (also after the migration)')
    .option('--json', 'print the whole migration record as JSON')
    .action(async (options: ConfigMigrateOptions) => {
      const { describeOutcome } = await import('../migration-report.js');
      const { home, outcome } = await run(deps, { dryRun: Boolean(options.dryRun), ack: Boolean(options.ack), v9StepOnly: true });
      if (!options.json) {
        print(describeOutcome(outcome, { home, gatewayForm }));
        return;
      }
      const record = outcome.status === 'planned' || outcome.status === 'migrated' ? outcome.plan.record
        : outcome.status === 'nothing-to-do' ? outcome.record : undefined;
      write(`${JSON.stringify(record ?? { status: outcome.status }, null, 2)}\n`);
    });

  program
    .command('upgrade <release>')
    .description('install a new Warden release (a folder or `npm pack` tarball) and migrate with it; the previous install and data are restored on failure')
    .option('--install-dir <folder>', 'the installed package to replace (default: the one running this command)')
    .action(async (release: string, options: { installDir?: string }) => {
      const { wardenPaths } = await import('../../config/home.js');
      const { runningGateway } = await import('../../gateway/process-record.js');
      const { upgrade } = await import('../../migration/upgrade.js');
      const paths = wardenPaths(process.env);
      const result = await upgrade({
        home: paths.home, installDir: options.installDir ?? INSTALL_DIR, release, gatewayRunning: runningGateway(paths.pidFile) !== undefined,
      });
      write(result.migrateOutput);
      print([`upgraded ${result.from} -> ${result.to}; \`warden rollback\` restores ${result.from} and its data`]);
    });

  program
    .command('rollback')
    .description('restore the install and the data kept by the last `warden upgrade`, together')
    .option('--install-dir <folder>', 'the installed package to restore (default: the one running this command)')
    .action(async (options: { installDir?: string }) => {
      const { wardenPaths } = await import('../../config/home.js');
      const { runningGateway } = await import('../../gateway/process-record.js');
      const { rollback } = await import('../../migration/upgrade.js');
      const paths = wardenPaths(process.env);
      const restored = rollback(paths.home, options.installDir ?? INSTALL_DIR, runningGateway(paths.pidFile) !== undefined);
      print([`restored ${restored.version} and its data as of ${restored.createdAt}`]);
    });
}
