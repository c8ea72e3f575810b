// `warden setup <connector> --telemetry`: point the agent's own OpenTelemetry export at Warden's OTLP receiver, as
// its definition's `otelSetup` says (the file, the settings, whether it gets a scoped OTLP token). The agent's file
// is worked out first with a stand-in token, so a file Warden must refuse leaves no token behind; then the scoped
// token is issued (its hash kept in $WARDEN_HOME) and the file written (backed up first, as for the hooks).
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { connectAddress, httpUrl, sidecarBindAddress } from '../../config/bind.js';
import { wardenPaths, type WardenPaths } from '../../config/home.js';
import { loadConfigFile } from '../../config/load.js';
import { WardenError } from '../../errors.js';
import { runningGateway } from '../../gateway/process-record.js';
import { credentialsPath, ScopedCredentials } from '../../telemetry/otlp/credentials.js';
import { findHookAgent } from '../registry.js';
import { AgentConfigError, applyConfigChange, readConfigText, type FileChange } from './config-file.js';
import { SetupError } from './install.js';

export interface TelemetryInstallResult {
  endpoint: string;
  config: FileChange;
  /** Where the scoped token's hash is kept, when one was issued. */
  credentialsFile?: string;
  notes: readonly string[];
}

/** The sidecar's base URL: config.yaml's port, else the running gateway's, else the default. */
function sidecarEndpoint(paths: WardenPaths): string {
  if (existsSync(paths.config)) {
    const { config } = loadConfigFile(paths.config);
    if (config.gateway.api_port !== 0) return httpUrl(connectAddress(sidecarBindAddress(config)), config.gateway.api_port);
  }
  const running = runningGateway(paths.pidFile)?.sidecar;
  if (running) return running;
  throw new SetupError('gateway.api_port is 0 (any free port) and no gateway is running: start the gateway or set a fixed port first');
}

function plan(connector: string, userHome: string) {
  const otel = findHookAgent(connector)?.otelSetup;
  if (!otel) throw new WardenError('WARDEN_ERR_SETUP_TELEMETRY', `${connector} has no OpenTelemetry export Warden can set up (claudecode, codex, geminicli)`);
  const paths = wardenPaths();
  const endpoint = sidecarEndpoint(paths);
  const file = join(userHome, otel.file);
  const edit = (token: string | undefined) => {
    try {
      const before = readConfigText(file);
      return { before, after: otel.install(before, { endpoint, source: connector, token }) };
    } catch (err) {
      if (err instanceof AgentConfigError) throw new SetupError(`${file}: ${err.message}; the file was left unchanged`);
      throw err;
    }
  };
  return { otel, paths, endpoint, file, edit };
}

/** Throws what installTelemetry would refuse with, changing nothing: run before the hooks are installed. */
export function checkTelemetry(connector: string, userHome = homedir()): void {
  plan(connector, userHome).edit('wot_stand-in');
}

export function installTelemetry(connector: string, userHome = homedir()): TelemetryInstallResult {
  const { otel, paths, endpoint, file, edit } = plan(connector, userHome);
  if (otel.scoped) edit('wot_stand-in'); // refuse before a token exists
  const token = otel.scoped ? ScopedCredentials.issue(paths.home, connector) : undefined;
  const { before, after } = edit(token);
  const config = applyConfigChange(file, before, after);
  return { endpoint, config, credentialsFile: token ? credentialsPath(paths.home) : undefined, notes: otel.notes ?? [] };
}
