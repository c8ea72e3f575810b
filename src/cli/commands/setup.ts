import { Option, type Command } from 'commander';

export function registerSetup(program: Command): void {
  const setup = program
    .command('setup')
    .description("install Warden's hook into an AI agent's own hook configuration, and maintain local credentials")
    .argument('[connector]', 'hook connector (agent) to set up, e.g. claudecode, codex, cursor (see --list)')
    .option('--list', 'one row per hook connector: whether its hook is installed, and the agent config file it edits')
    .addOption(new Option('--fail-mode <mode>', "what the hook does when Warden cannot be asked (default: config.yaml's guardrail.hook_fail_mode, else closed)").choices(['closed', 'open']))
    .option('--undo', "remove Warden's entries from the agent's configuration, and the connector's hook token and settings")
    .option('--telemetry', "also point the agent's own OpenTelemetry export at Warden's OTLP receiver (claudecode and codex get a scoped OTLP token; see docs/telemetry.md)")
    .addHelpText('after', `
\`warden setup <connector>\` writes:
  $WARDEN_HOME/hooks/<connector>.token  the connector's hook token (0600); it opens only that connector's hook route
  $WARDEN_HOME/hooks/<connector>.json   the hook script's settings: sidecar URL, fail mode, token file
  $WARDEN_HOME/hooks/<connector>.curlrc  the sh hook command's settings and token header (0600), where it is used
  the agent's own hook configuration    one entry per hook event, each running hooks/warden-hook.sh with /bin/sh
                                        where curl >= 7.68 is found, else hooks/warden-hook.mjs with this Node
                                        (\`warden setup --list\` names each agent's file); before it changes that
                                        file, Warden copies it to <file>.warden-backup-<time> (0600)
Running it again replaces Warden's entries, never duplicates them. A running gateway is sent SIGHUP so it loads
the new token. --undo removes exactly Warden's entries, the token and the settings file; backups stay.
Fail modes: when the gateway is down, times out, fails (5xx) or refuses the call (4xx), "closed" answers the
agent's own block on events that can stop an action, "open" lets the action proceed; each such decision is a
line in $WARDEN_HOME/hook-failures.jsonl. See docs/hooks.md.`)
    .action(async (connector: string | undefined, options: { list?: boolean; failMode?: 'closed' | 'open'; undo?: boolean; telemetry?: boolean }) => {
      if (options.list) return listHooks();
      if (!connector) {
        setup.outputHelp({ error: true });
        process.exitCode = 1;
        return;
      }
      // A SetupError is an operator error: cli/warden.ts prints it as one line and exits 1.
      await (options.undo ? undoHooks(connector) : installHooks(connector, options.failMode, options.telemetry ?? false));
    });
  setup
    .command('rotate-token')
    .description('replace the locally managed gateway token (WARDEN_GATEWAY_TOKEN in $WARDEN_HOME/.env) and restart a running gateway')
    .option('--yes', 'confirm: clients holding the old token stop working')
    .action(async (options: { yes?: boolean }) => {
      const { generateToken, TOKEN_VARIABLE, writeDotenvVariable } = await import('../../config/token.js');
      const { localGateway } = await import('../local-gateway.js');
      const { reloadGateway } = await import('../../gateway/reload.js');
      const { settings } = localGateway();
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
      const token = generateToken();
      writeDotenvVariable(settings.paths.dotenv, TOKEN_VARIABLE, token);
      process.stdout.write(`new gateway token written to ${settings.paths.dotenv}\n`);
      const acceptsNewToken = async (sidecar: string) =>
        (await fetch(`${sidecar}/status`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(1000) })).ok;
      const reload = await reloadGateway(settings.paths.pidFile, acceptsNewToken);
      if (reload.pid === undefined) process.stdout.write('no running gateway; the new token applies at its next start\n');
      else if (reload.accepted) process.stdout.write(`gateway (pid ${reload.pid}) restarted with the new token\n`);
      else {
        process.stderr.write(`warden: gateway (pid ${reload.pid}) did not come back with the new token within 10 s\n`);
        process.exitCode = 1;
      }
    });
}

async function installHooks(connector: string, failMode: 'closed' | 'open' | undefined, telemetry: boolean): Promise<void> {
  const { displayPath, installHooks: install } = await import('../../connectors/setup/install.js');
  const { reloadForHookToken } = await import('../../connectors/setup/reload.js');
  const { wardenPaths } = await import('../../config/home.js');
  // A telemetry setup that would be refused stops before the hooks are installed, so nothing is half done.
  if (telemetry) (await import('../../connectors/setup/telemetry.js')).checkTelemetry(connector);
  const result = install(connector, { failMode });
  const file = displayPath(result.config.path);
  const say = (line: string) => process.stdout.write(`${connector}: ${line}\n`);
  if (result.config.changed) {
    const backup = result.config.backup ? ` (previous file kept as ${displayPath(result.config.backup)})` : '';
    say(`hook installed in ${file} for ${result.agent.events.length} events: ${result.agent.events.join(', ')}${backup}`);
  } else {
    say(`hook already installed in ${file} (unchanged)`);
  }
  say(`hook token written to ${result.tokenFile}`);
  const sidecar = result.settings.sidecar ?? "the running gateway's address (gateway.json)";
  say(`hook script settings written to ${result.settingsFile}: fail mode ${result.settings.fail_mode}, sidecar ${sidecar}`);
  say(result.shell
    ? `hook command: ${result.shell.sh} hooks/warden-hook.sh, asking with ${result.shell.curl}; its settings written to ${result.curlrc}`
    : `hook command: ${process.execPath} hooks/warden-hook.mjs (no curl >= 7.68 on PATH, or Windows)`);
  for (const note of result.notes) say(`note: ${note}`);
  if (telemetry) await installTelemetry(connector, say);
  const reload = await reloadForHookToken(wardenPaths().pidFile, connector, result.token);
  if (reload.pid === undefined) say('no running gateway; it reads the hook token when it starts');
  else if (reload.accepted) say(`gateway (pid ${reload.pid}) reloaded (SIGHUP) and accepts the new hook token`);
  else {
    process.stderr.write(`warden: gateway (pid ${reload.pid}) was sent SIGHUP but did not accept the new ${connector} hook token within 10 s\n`);
    process.exitCode = 1;
  }
}

async function installTelemetry(connector: string, say: (line: string) => void): Promise<void> {
  const { displayPath } = await import('../../connectors/setup/install.js');
  const { installTelemetry: install } = await import('../../connectors/setup/telemetry.js');
  const result = install(connector);
  const file = displayPath(result.config.path);
  const backup = result.config.backup ? ` (previous file kept as ${displayPath(result.config.backup)})` : '';
  say(`${result.config.changed ? 'OpenTelemetry export written to' : 'OpenTelemetry export already set in'} ${file}: OTLP to ${result.endpoint}${backup}`);
  if (result.credentialsFile) say(`scoped OTLP token issued (its hash kept in ${result.credentialsFile})`);
  for (const note of result.notes) say(`note: ${note}`);
}

async function undoHooks(connector: string): Promise<void> {
  const { displayPath, uninstallHooks } = await import('../../connectors/setup/install.js');
  const { reloadForHookToken } = await import('../../connectors/setup/reload.js');
  const { wardenPaths } = await import('../../config/home.js');
  const { config, removed } = uninstallHooks(connector);
  const say = (line: string) => process.stdout.write(`${connector}: ${line}\n`);
  const file = displayPath(config.path);
  if (!config.changed) say(`no Warden hook in ${file}`);
  else {
    const backup = config.backup ? ` (previous file kept as ${displayPath(config.backup)})` : '';
    say(`${config.deleted ? `removed ${file}, which held only Warden's hook` : `Warden's hook removed from ${file}`}${backup}`);
  }
  say(removed.length > 0 ? `removed ${removed.join(', ')}` : 'no hook token or settings to remove');
  const { ScopedCredentials } = await import('../../telemetry/otlp/credentials.js');
  if (ScopedCredentials.revoke(wardenPaths().home, connector)) {
    say("scoped OTLP token revoked; the agent's own OpenTelemetry settings still point at Warden: remove them from its settings file");
  }
  const reload = await reloadForHookToken(wardenPaths().pidFile, connector);
  if (reload.pid !== undefined) say(`gateway (pid ${reload.pid}) sent SIGHUP so it drops the hook token`);
}

async function listHooks(): Promise<void> {
  const { displayPath, hookStatus } = await import('../../connectors/setup/install.js');
  const rows = hookStatus().map((r) => [r.connector, r.state, displayPath(r.file)]);
  const table = [['CONNECTOR', 'HOOK', 'AGENT CONFIG FILE'], ...rows];
  const widths = [0, 1].map((i) => Math.max(...table.map((r) => r[i]!.length)) + 2);
  process.stdout.write(table.map((r) => `${r[0]!.padEnd(widths[0]!)}${r[1]!.padEnd(widths[1]!)}${r[2]}`).join('\n') + '\n');
}
