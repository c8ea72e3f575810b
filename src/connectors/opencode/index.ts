// opencode plugin events.
// Source: opencode plugins, https://opencode.ai/docs/plugins (mirror www.mintlify.com/anomalyco/opencode/plugins and
// the plugin API page): plugins are in-process JS hooks, so Warden's plugin forwards each call as
// {event, sessionID, callID, tool, args, output, directory}: "tool.execute.before" (input {tool, sessionID, callID},
// output {args}; throwing an Error blocks the call and the message reaches the model), "tool.execute.after" (output
// {title, output, metadata}, which the plugin may replace), "chat.message" (output {message, parts}), and bus events
// such as "session.idle" ({type, properties {sessionID}}). The answer is read by that plugin: {decision: "block",
// reason} makes it throw Error(reason) (before a tool or message) or replace the tool output with the reason;
// {toast: {variant: "warning", message}} is passed to opencode's client.tui.showToast. tool.execute.before has no
// ask, so confirmation is answered as a block.
import { decodedOnly, gate, hooked, type HookAgent, type HookEventSpec } from '../definition.js';
import { json, notice } from '../native/answers.js';
import { phaseOf, readPayload } from '../native/payload.js';
import type { JsonObject } from '../../util/json.js';
import { outputText, toolArgs } from '../native/tool-data.js';
import { hookEvent, id, obj, str } from '../native/values.js';
import { installOpencodePlugin, opencodePluginInstalled, removeOpencodePlugin } from '../setup/opencode-plugin.js';

// The installed events are the ones Warden's plugin (setup/opencode-plugin.ts) forwards.
const EVENTS: Readonly<Record<string, HookEventSpec>> = {
  'chat.message': gate('prompt'),
  'tool.execute.before': gate('pre_tool'),
  'tool.execute.after': hooked('post_tool'),
  'session.idle': hooked('session'),
  'session.created': decodedOnly('session'),
  'session.deleted': decodedOnly('session'),
  'session.error': decodedOnly('session'),
  'session.compacted': decodedOnly('session'),
};

/** The text parts of a chat message. */
function promptText(parts: unknown): string | undefined {
  if (!Array.isArray(parts)) return undefined;
  const texts = parts
    .map((part: unknown) => obj(part))
    .filter((part): part is JsonObject => part?.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text as string);
  return texts.length > 0 ? texts.join('\n') : undefined;
}

function toolOutput(output: unknown): string | undefined {
  const result = obj(output);
  return outputText(result && typeof result.output === 'string' ? result.output : output);
}

export const opencode: HookAgent = {
  kind: 'hook',
  name: 'opencode',
  description: 'opencode plugin events',
  telemetry: ['hooks'],
  events: EVENTS,
  decode(payload) {
    const { p, event } = readPayload(payload, ['event', 'type']);
    const phase = phaseOf(EVENTS, event);
    return hookEvent({
      event,
      phase,
      session_id: str(p.sessionID) ?? str(obj(p.properties)?.sessionID),
      tool: str(p.tool),
      tool_input: toolArgs(p.args),
      tool_output: phase === 'post_tool' ? toolOutput(p.output) : undefined,
      tool_call_id: id(p.callID),
      prompt: phase === 'prompt' ? promptText(p.parts) : undefined,
      cwd: str(p.directory),
    });
  },
  render(event, { action, reason }) {
    if (action === 'allow') return { exit_code: 0 };
    if (action === 'alert') return json({ toast: { variant: 'warning', message: reason } });
    if (event.phase === 'pre_tool' || event.phase === 'prompt' || event.phase === 'post_tool') {
      return json({ decision: 'block', reason });
    }
    return notice({ action, reason });
  },
  refusal: (reason) => ({ stdout: { decision: 'block', reason }, stderr: reason, exit_code: 2 }),
  harness: { package: 'opencode-ai', version: '1.18.33', bin: 'opencode' },
  setup: {
    file: '.config/opencode/plugins/warden.js',
    install: installOpencodePlugin,
    remove: removeOpencodePlugin,
    installed: opencodePluginInstalled,
    notes: () => ['Restart opencode to load the plugin.'],
  },
};
