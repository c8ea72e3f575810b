// opencode has no command hooks: its hooks are JavaScript plugins loaded from ~/.config/opencode/plugins/
// (opencode docs, https://opencode.ai/docs/plugins). Warden installs one small plugin file of its own that runs the
// hook script for each event, with the payload src/connectors/opencode/index.ts decodes
// ({event, sessionID, callID, tool, args, output, parts, directory}), and applies the answer.
import { AgentConfigError } from './config-file.js';
import { hookArgv, isWardenCommand, type HookTarget } from './hook-command.js';

const MARKER = '// Warden hook bridge for opencode';

/** The plugin's source: it runs the same hook command as other agents (the sh one where setup installs it). */
function pluginSource(target: HookTarget): string {
  const [program, ...args] = hookArgv(target);
  return `${MARKER}: written by \`warden setup opencode\`, removed by \`warden setup opencode --undo\`.
// Every event runs Warden's hook script; its answer {decision: "block", reason} (or exit code 2) stops a tool call or
// a message, or replaces a finished tool's output; {toast} shows a warning. See docs/hooks.md in the warden package.
import { spawn } from 'node:child_process';

const PROGRAM = ${JSON.stringify(program)};
const ARGS = ${JSON.stringify(args)};
// When the script cannot even start, the fail mode chosen at setup decides.
const FAIL_CLOSED = ${JSON.stringify(target.failMode === 'closed')};

function runHook(event, payload) {
  return new Promise((resolve) => {
    const child = spawn(PROGRAM, [...ARGS, '--event', event], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', (err) => resolve({ code: FAIL_CLOSED ? 2 : 0, answer: {}, stderr: 'Warden hook script did not start: ' + err.message }));
    child.on('close', (code) => {
      let answer = {};
      try {
        answer = stdout.trim() ? JSON.parse(stdout) : {};
      } catch {
        answer = {};
      }
      resolve({ code, answer, stderr: stderr.trim() });
    });
    child.stdin.on('error', () => {});
    child.stdin.end(JSON.stringify({ event, ...payload }));
  });
}

const blocked = (result) => result.code === 2 || result.answer.decision === 'block';
const reasonOf = (result) => result.answer.reason || result.stderr || 'Blocked by Warden';

export const WardenPlugin = async ({ client, directory }) => {
  const apply = async (result) => {
    if (result.answer.toast) await client?.tui?.showToast?.({ body: result.answer.toast })?.catch?.(() => {});
    return result;
  };
  return {
    'tool.execute.before': async (input, output) => {
      const result = await apply(await runHook('tool.execute.before', { sessionID: input.sessionID, callID: input.callID, tool: input.tool, args: output.args, directory }));
      if (blocked(result)) throw new Error(reasonOf(result));
    },
    'tool.execute.after': async (input, output) => {
      const result = await apply(await runHook('tool.execute.after', { sessionID: input.sessionID, callID: input.callID, tool: input.tool, args: input.args, output, directory }));
      if (blocked(result)) output.output = reasonOf(result);
    },
    'chat.message': async (input, output) => {
      const result = await apply(await runHook('chat.message', { sessionID: input.sessionID, parts: output.parts, directory }));
      if (blocked(result)) throw new Error(reasonOf(result));
    },
    event: async ({ event }) => {
      if (event.type === 'session.idle') await apply(await runHook('session.idle', { sessionID: event.properties?.sessionID, directory }));
    },
  };
};
`;
}

/** The plugin file is Warden's alone; a different file at its path is someone else's and is left alone. */
export function installOpencodePlugin(text: string | undefined, _events: readonly string[], target: HookTarget): string {
  if (text !== undefined && !opencodePluginInstalled(text)) {
    throw new AgentConfigError("exists and is not Warden's plugin; move it away and run setup again");
  }
  return pluginSource(target);
}

export function removeOpencodePlugin(text: string): string | null {
  return opencodePluginInstalled(text) ? null : text;
}

export function opencodePluginInstalled(text: string): boolean {
  return text.startsWith(MARKER) && isWardenCommand(text);
}
