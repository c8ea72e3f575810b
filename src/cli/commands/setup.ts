import type { Command } from 'commander';

export function registerSetup(program: Command): void {
  const setup = program.command('setup').description('install and maintain local credentials and agent hooks');
  setup
    .command('rotate-token')
    .description('replace the locally managed gateway token (WARDEN_GATEWAY_TOKEN in $WARDEN_HOME/.env) and restart a running gateway')
    .option('--yes', 'confirm: clients holding the old token stop working')
    .action(async (options: { yes?: boolean }) => {
      const { generateToken, TOKEN_VARIABLE, writeDotenvVariable } = await import('../../config/token.js');
      const { localGateway } = await import('../local-gateway.js');
      const { settings, process: running } = localGateway();
      if (settings.token && !settings.token.locallyManaged) {
        process.stderr.write(`warden: the gateway token comes from ${settings.token.source}, not from .env; change it there\n`);
        process.exitCode = 1;
        return;
      }
      if (!options.yes) {
        process.stderr.write('warden: this replaces the gateway token and restarts the gateway; run again with --yes\n');
        process.exitCode = 1;
        return;
      }
      writeDotenvVariable(settings.paths.dotenv, TOKEN_VARIABLE, generateToken());
      process.stdout.write(`new gateway token written to ${settings.paths.dotenv}\n`);
      if (!running) {
        process.stdout.write('no running gateway; the new token applies at its next start\n');
        return;
      }
      // SIGHUP makes the gateway reload config and token and rebind its listeners (see `warden start --help`).
      process.kill(running.pid, 'SIGHUP');
      if (await waitForNewToken()) {
        process.stdout.write(`gateway (pid ${running.pid}) restarted with the new token\n`);
      } else {
        process.stderr.write(`warden: gateway (pid ${running.pid}) did not come back with the new token within 10 s\n`);
        process.exitCode = 1;
      }
    });
}

async function waitForNewToken(): Promise<boolean> {
  const { localGateway } = await import('../local-gateway.js');
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    try {
      const gateway = localGateway(); // re-read: the restarted gateway records its new address
      const response = await fetch(`${gateway.url}/status`, { headers: gateway.headers, signal: AbortSignal.timeout(1000) });
      if (response.ok) return true;
    } catch {
      // the listener is between close and listen
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}
