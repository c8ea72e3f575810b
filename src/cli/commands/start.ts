import type { Command } from 'commander';

export function registerStart(program: Command): void {
  program
    .command('start')
    .description('run the gateway in the foreground (sidecar API and guardrail proxy)')
    .addHelpText('after', `
Reads $WARDEN_HOME/config.yaml (default ~/.warden), creating it on first start, and prints
"ready sidecar=URL proxy=URL" once both listeners accept connections.
Signals: SIGTERM/SIGINT stop gracefully; SIGHUP reloads config and token and restarts the listeners.`)
    .action(async () => {
      const { startGateway } = await import('../../gateway/runtime.js');
      const { stopOnSignals } = await import('../stop-on-signals.js');
      // Routes may ask for a shutdown (POST /api/v1/admin/shutdown) or a restart (a connector change): the same as
      // SIGTERM and SIGHUP. Neither can arrive before the listeners, and so these handlers, exist.
      let stop: () => void = () => {};
      let restart: () => void = () => {};
      const gateway = await startGateway(process.env, { onShutdownRequest: () => stop(), onRestartRequest: () => restart() });
      // Signals are handled before `ready` is printed: a script may send SIGTERM as soon as it reads it.
      stop = stopOnSignals(() => gateway.stop());
      restart = () => {
        void gateway.restart().then(
          () => process.stdout.write(`ready sidecar=${gateway.sidecarUrl} proxy=${gateway.proxyUrl}\n`),
          (err: Error) => {
            process.stderr.write(`warden: restart failed: ${err.message}\n`);
            process.exit(1);
          },
        );
      };
      process.on('SIGHUP', () => restart());
      process.stdout.write(`ready sidecar=${gateway.sidecarUrl} proxy=${gateway.proxyUrl}\n`);
    });
}
