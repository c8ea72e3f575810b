// Where and how each hook connector's agent is told to run Warden's hook script: the agent's own user-level
// configuration file (resolved from the user's home directory) and the format it takes. Sources per agent are in
// docs/hooks.md; Omnigent's and Antigravity's entries are documented best guesses.
import { join } from 'node:path';
import { findConnector } from '../registry.js';
import type { HookTarget } from './hook-command.js';
import { codexConfigInstalled, foreignCodexNotify, installCodexConfig, removeCodexConfig } from './codex-toml.js';
import { hermesConfigInstalled, installHermesConfig, removeHermesConfig } from './hermes-yaml.js';
import { installJsonHooks, jsonHooksInstalled, removeJsonHooks, type JsonHookLayout } from './json-hooks.js';
import { installOpencodePlugin, opencodePluginInstalled, removeOpencodePlugin } from './opencode-plugin.js';

export interface AgentHooks {
  connector: string;
  /** The agent configuration file, relative to the user's home directory. */
  file: string;
  /** The native events hooked: the registry's hook_events unless the agent's own names differ. */
  events: readonly string[];
  /** New file text with our hooks (text undefined: no file yet). Throws AgentConfigError. */
  install(text: string | undefined, events: readonly string[], target: HookTarget): string;
  /** The text without our entries; null to delete the file (it held nothing else). */
  remove(text: string): string | null;
  installed(text: string): boolean;
  /** What the user still has to do or know, given the installed file's text. */
  notes?(text: string): string[];
}

const command = (cmd: string): Record<string, unknown> => ({ type: 'command', command: cmd });
const registryEvents = (connector: string): readonly string[] => findConnector(connector)?.hook_events ?? [];

function json(connector: string, file: string, layout: JsonHookLayout, extra: Partial<AgentHooks> = {}): AgentHooks {
  return {
    connector,
    file,
    events: registryEvents(connector),
    install: (text, events, target) => installJsonHooks(layout, text, events, target),
    remove: (text) => removeJsonHooks(layout, text),
    installed: (text) => jsonHooksInstalled(layout, text),
    ...extra,
  };
}

const BEST_GUESS = (agent: string) =>
  `${agent} documents no hook file format Warden could verify; this is a best guess (see docs/hooks.md): check that the hooks fire.`;

const AGENTS: readonly AgentHooks[] = [
  json('claudecode', '.claude/settings.json', { shape: 'nested', container: 'hooks', matcher: '*', entry: command }),
  {
    connector: 'codex',
    file: '.codex/config.toml',
    events: registryEvents('codex'),
    install: installCodexConfig,
    remove: removeCodexConfig,
    installed: codexConfigInstalled,
    notes: (text) => [
      'Codex runs new hooks only once you trust them: open /hooks in Codex and review them.',
      ...(foreignCodexNotify(text) ? ['config.toml already sets notify to another program, so Warden\'s notify was not installed (the hooks were).'] : []),
    ],
  },
  json('cursor', '.cursor/hooks.json', { shape: 'flat', container: 'hooks', rootDefaults: { version: 1 }, entry: (cmd) => ({ command: cmd }) }),
  json('windsurf', '.codeium/windsurf/hooks.json', { shape: 'flat', container: 'hooks', entry: (cmd) => ({ command: cmd, show_output: true }) }),
  json('geminicli', '.gemini/settings.json', { shape: 'nested', container: 'hooks', entry: (cmd) => ({ name: 'warden', ...command(cmd) }) }),
  json('copilot', '.copilot/hooks/warden.json', {
    shape: 'flat', container: 'hooks', rootDefaults: { version: 1 }, entry: (cmd) => ({ type: 'command', bash: cmd }),
  }),
  json('openhands', '.openhands/hooks.json', { shape: 'nested', container: 'hooks', entry: command }, {
    notes: () => ['OpenHands reads ~/.openhands/hooks.json only in projects without their own .openhands/hooks.json.'],
  }),
  // Antigravity's hooks.json holds named hook groups; Warden owns the "warden" group.
  json('antigravity', '.gemini/config/hooks.json', {
    shape: 'nested', container: 'warden', containerDefaults: { enabled: true }, matcher: '*', entry: command,
  }, { events: ['PreToolUse', 'PostToolUse', 'PostInvocation', 'Stop'], notes: () => [BEST_GUESS('Antigravity')] }),
  {
    connector: 'opencode',
    file: '.config/opencode/plugins/warden.js',
    events: registryEvents('opencode'),
    install: installOpencodePlugin,
    remove: removeOpencodePlugin,
    installed: opencodePluginInstalled,
    notes: () => ['Restart opencode to load the plugin.'],
  },
  {
    connector: 'hermes',
    file: '.hermes/config.yaml',
    // Hermes' own event names (the registry lists the Claude Code names for this connector).
    events: ['on_session_start', 'pre_llm_call', 'pre_tool_call', 'post_tool_call', 'post_llm_call', 'on_session_end'],
    install: installHermesConfig,
    remove: removeHermesConfig,
    installed: hermesConfigInstalled,
    notes: () => ['Hermes asks once per hook before running it (or set hooks_auto_accept: true in config.yaml).'],
  },
  json('omnigent', '.omnigent/settings.json', { shape: 'nested', container: 'hooks', matcher: '*', entry: command }, {
    notes: () => [BEST_GUESS('Omnigent')],
  }),
];

const byConnector = new Map(AGENTS.map((a) => [a.connector, a]));

export function agentHooks(connector: string): AgentHooks | undefined {
  return byConnector.get(connector);
}

export function agentConfigPath(agent: AgentHooks, userHome: string): string {
  return join(userHome, agent.file);
}
