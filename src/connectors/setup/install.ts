// `warden setup <connector>`: the connector's hook token, the hook script's settings file, and Warden's entries in
// the agent's own hook configuration; `--undo` takes all three away again. The settings file also carries what the
// hook script needs to fail closed in the agent's own words (its gate events and refusal), derived from the agent's
// definition here, so the dependency-free script keeps no copy of any agent.
import { existsSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { connectAddress, httpUrl, sidecarBindAddress } from '../../config/bind.js';
import { wardenPaths, type WardenPaths } from '../../config/home.js';
import { loadConfigFile } from '../../config/load.js';
import { writeFileAtomic } from '../../util/atomic-write.js';
import { HookTokens } from '../hook-tokens.js';
import { gateEvents, installedEvents, type HookAgent, type SetupTarget } from '../definition.js';
import type { NativeHookAnswer } from '../hook-event.js';
import { findConnector, findHookAgent, HOOK_AGENTS } from '../registry.js';
import { AgentConfigError, applyConfigChange, readConfigText, type FileChange } from './config-file.js';
import { WardenError } from '../../errors.js';
import { detectShellRunner, type ShellRunner } from './hook-command.js';
import { hookCurlrc } from './hook-curlrc.js';

/** An operator error `warden setup` reports in one line. */
export class SetupError extends WardenError {
  constructor(message: string) {
    super('WARDEN_ERR_SETUP_FAILED', message);
  }
}

export type FailMode = 'closed' | 'open';

/** Where the reason goes in the refusal written to the settings; hooks/warden-hook.mjs replaces the same string. */
export const REFUSAL_REASON_MARKER = '{{reason}}';

/** What the hook script answers when it cannot ask Warden and hooks fail closed, from the agent's definition. */
export interface FailClosed {
  /** The events whose refusal stops something; on the others a closed failure passes with a warning. */
  gates: string[];
  /** The agent's own refusal, with REFUSAL_REASON_MARKER in each string where the script puts its reason. */
  refusal: NativeHookAnswer;
}

export function failClosedOf(agent: Pick<HookAgent, 'events' | 'refusal'>): FailClosed {
  return { gates: gateEvents(agent), refusal: agent.refusal(REFUSAL_REASON_MARKER) };
}

/** $WARDEN_HOME/hooks/<connector>.json, read by the hook script (hooks/warden-hook.mjs). */
export interface HookSettings {
  connector: string;
  /** Omitted when config.yaml names no fixed port: the script then reads the running gateway's gateway.json. */
  sidecar?: string;
  /** A sandbox's hook ingress socket (the hook script connects there; `sidecar` then names only the URL's origin). */
  socket?: string;
  fail_mode: FailMode;
  token_file: string;
  fail_closed: FailClosed;
}

export function hookConnectorNames(): string[] {
  return HOOK_AGENTS.map((a) => a.name);
}

/** One agent's setup: its configuration file's target, the events its definition installs, its fail-closed answer. */
export interface AgentSetup extends SetupTarget {
  connector: string;
  events: readonly string[];
  failClosed: FailClosed;
}

export function agentFor(connector: string): AgentSetup {
  const agent = findHookAgent(connector);
  if (!agent && findConnector(connector)) {
    throw new SetupError(`${connector} is a proxy connector: it has no hooks (its LLM traffic goes through the guardrail proxy)`);
  }
  if (!agent) throw new SetupError(`unknown connector "${connector}"; hook connectors: ${hookConnectorNames().join(', ')}`);
  return { ...agent.setup, connector, events: installedEvents(agent), failClosed: failClosedOf(agent) };
}

/** The settings file's content for one agent. */
export function hookSettings(agent: AgentSetup, values: { sidecar?: string; failMode: FailMode; tokenFile: string }): HookSettings {
  return {
    connector: agent.connector,
    ...(values.sidecar ? { sidecar: values.sidecar } : {}),
    fail_mode: values.failMode,
    token_file: values.tokenFile,
    fail_closed: agent.failClosed,
  };
}

function agentConfigPath(agent: AgentSetup, userHome: string): string {
  return join(userHome, agent.file);
}

/** `~/…` for paths in the user's home directory, for output. */
export function displayPath(path: string, userHome = homedir()): string {
  return path.startsWith(`${userHome}/`) ? `~${path.slice(userHome.length)}` : path;
}

/** Runs an agent-config edit; a file Warden cannot parse or change is named and left as it is. */
function editing<T>(path: string, edit: () => T): T {
  try {
    return edit();
  } catch (err) {
    if (err instanceof AgentConfigError) throw new SetupError(`${path}: ${err.message}; the file was left unchanged`);
    throw err;
  }
}

/** Defaults from config.yaml when there is one: its hook fail mode and, unless the port is ephemeral, its sidecar. */
function configDefaults(paths: WardenPaths): { failMode: FailMode; sidecar?: string } {
  if (!existsSync(paths.config)) return { failMode: 'closed' };
  const { config } = loadConfigFile(paths.config);
  const port = config.gateway.api_port;
  const sidecar = port === 0 ? undefined : httpUrl(connectAddress(sidecarBindAddress(config)), port);
  return { failMode: config.guardrail.hook_fail_mode, sidecar };
}

export interface InstallResult {
  agent: AgentSetup;
  tokenFile: string;
  settingsFile: string;
  settings: HookSettings;
  token: string;
  config: FileChange;
  notes: string[];
  /** The sh command's programs when it was installed (its settings in `curlrc`); undefined: the Node command. */
  shell: ShellRunner | undefined;
  curlrc: string;
}

export function installHooks(connector: string, options: { failMode?: FailMode } = {}): InstallResult {
  const agent = agentFor(connector);
  const paths = wardenPaths();
  const defaults = configDefaults(paths);
  const tokenFile = join(paths.hooksDir, `${connector}.token`);
  const settings = hookSettings(agent, { sidecar: defaults.sidecar, failMode: options.failMode ?? defaults.failMode, tokenFile });
  const configPath = agentConfigPath(agent, homedir());
  const before = editing(configPath, () => readConfigText(configPath));
  const shell = detectShellRunner();
  const target = { connector, home: paths.home, failMode: settings.fail_mode, shell };
  // Work out the agent file's change first, so a file we must refuse leaves no token or settings behind.
  const after = editing(configPath, () => agent.install(before, agent.events, target));
  const token = HookTokens.issue(paths.hooksDir, connector);
  const settingsFile = join(paths.hooksDir, `${connector}.json`);
  writeFileAtomic(settingsFile, `${JSON.stringify(settings, null, 2)}\n`, 0o600);
  const curlrc = join(paths.hooksDir, `${connector}.curlrc`);
  if (shell) writeFileAtomic(curlrc, hookCurlrc(settings, token, shell), 0o600);
  else rmSync(curlrc, { force: true });
  const config = applyConfigChange(configPath, before, after);
  return { agent, tokenFile, settingsFile, settings, token, config, notes: agent.notes?.(after) ?? [], shell, curlrc };
}

export function uninstallHooks(connector: string): { config: FileChange; removed: string[] } {
  const agent = agentFor(connector);
  const paths = wardenPaths();
  const configPath = agentConfigPath(agent, homedir());
  const before = editing(configPath, () => readConfigText(configPath));
  const after = before === undefined ? undefined : editing(configPath, () => agent.remove(before));
  const config = after === undefined ? { path: configPath, changed: false } : applyConfigChange(configPath, before, after);
  const removed = [`${connector}.token`, `${connector}.json`, `${connector}.curlrc`].map((f) => join(paths.hooksDir, f)).filter((f) => existsSync(f));
  for (const file of removed) rmSync(file, { force: true });
  return { config, removed };
}

export interface HookStatus {
  connector: string;
  state: 'installed' | 'not installed' | 'unreadable';
  file: string;
}

export function hookStatus(): HookStatus[] {
  return hookConnectorNames().map((connector) => {
    const agent = agentFor(connector);
    const file = agentConfigPath(agent, homedir());
    let state: HookStatus['state'];
    try {
      const text = readConfigText(file);
      state = text !== undefined && agent.installed(text) ? 'installed' : 'not installed';
    } catch {
      state = 'unreadable';
    }
    return { connector, state, file };
  });
}
