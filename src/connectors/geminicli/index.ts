// Google Gemini CLI hooks (settings.json).
// Source: Gemini CLI hooks reference, https://geminicli.com/docs/hooks/reference (google-gemini/gemini-cli,
// docs/hooks/reference.md): base input session_id, transcript_path, cwd, hook_event_name, timestamp; BeforeTool
// {tool_name, tool_input, mcp_context}; AfterTool adds tool_response {llmContent, returnDisplay, error};
// BeforeAgent {prompt}; AfterAgent {prompt, prompt_response, stop_hook_active}; AfterModel {llm_request,
// llm_response {candidates[].content.parts}}; answers `decision` ("deny"/"block" stops the tool, rejects the turn,
// replaces the tool result or retries the response) with `reason` sent to the agent, and `systemMessage` shown to the
// user; exit code 2 blocks with stderr as the reason. BeforeTool also accepts decision "ask" (HookDecision =
// 'ask'|'block'|'deny'|'approve'|'allow' in packages/core/src/hooks/types.ts; the scheduler shows the user a
// confirmation carrying systemMessage).
import { decodedOnly, gate, hooked, type HookAgent, type HookEventSpec } from '../definition.js';
import { exit2, json } from '../native/answers.js';
import { phaseOf, readPayload } from '../native/payload.js';
import { isObject, type JsonObject } from '../../util/json.js';
import { outputText, toolArgs } from '../native/tool-data.js';
import { hookEvent, obj, str } from '../native/values.js';
import { commandEntry, jsonHookFile } from '../setup/json-hooks.js';
import { installJsonObject } from '../setup/otel-settings.js';

const EVENTS: Readonly<Record<string, HookEventSpec>> = {
  SessionStart: hooked('session'),
  BeforeAgent: gate('prompt'),
  // The request about to go to the model: recorded, not inspected (its prompt already passed BeforeAgent).
  BeforeModel: hooked('other'),
  AfterModel: hooked('response'),
  BeforeTool: gate('pre_tool'),
  AfterTool: hooked('post_tool'),
  AfterAgent: hooked('response'),
  SessionEnd: hooked('session'),
  Notification: decodedOnly('session'),
  PreCompress: decodedOnly('session'),
};

/** Text of an LLMResponse: the string parts of every candidate. */
function responseText(llmResponse: unknown): string | undefined {
  const candidates = obj(llmResponse)?.candidates;
  if (!Array.isArray(candidates)) return undefined;
  const parts = candidates.flatMap((c: unknown) => {
    const p = obj(obj(c)?.content)?.parts;
    return Array.isArray(p) ? p.filter((part): part is string => typeof part === 'string') : [];
  });
  return parts.length > 0 ? parts.join('') : undefined;
}

function toolResult(response: JsonObject): string | undefined {
  return outputText(response.llmContent ?? response.returnDisplay ?? response.error);
}

export const geminicli: HookAgent = {
  kind: 'hook',
  name: 'geminicli',
  description: 'Google Gemini CLI hooks',
  telemetry: ['hooks', 'otel'],
  events: EVENTS,
  decode(payload) {
    const { p, event } = readPayload(payload, ['hook_event_name']);
    const phase = phaseOf(EVENTS, event);
    const response = obj(p.tool_response);
    return hookEvent({
      event,
      phase,
      session_id: str(p.session_id),
      tool: str(p.tool_name),
      tool_input: toolArgs(p.tool_input),
      tool_output: response && toolResult(response),
      tool_succeeded: response && !(isObject(response.error) || str(response.error)),
      prompt: phase === 'prompt' ? str(p.prompt) : undefined,
      response: event === 'AfterModel' ? responseText(p.llm_response) : str(p.prompt_response),
      cwd: str(p.cwd),
    });
  },
  render(event, { action, reason }) {
    if (action === 'allow') return { exit_code: 0 };
    if (action === 'alert') return json({ systemMessage: reason });
    switch (event.phase) {
      case 'pre_tool':
        return json(action === 'confirm' ? { decision: 'ask', reason, systemMessage: reason } : { decision: 'deny', reason });
      case 'prompt':
      case 'post_tool':
      case 'response':
        return json({ decision: 'deny', reason });
      default:
        return json({ systemMessage: reason });
    }
  },
  refusal: exit2,
  harness: { package: '@google/gemini-cli', version: '0.61.0', bin: 'gemini' },
  setup: jsonHookFile('.gemini/settings.json', { shape: 'nested', container: 'hooks', entry: (cmd) => ({ name: 'warden', ...commandEntry(cmd) }) }),
  // Gemini CLI's `telemetry` settings (its docs/telemetry.md): OTLP over HTTP to a local endpoint, prompts not logged.
  // It has no setting for headers, and its source authenticates with the gateway token over loopback (spec
  // "Authentication" 7), which Warden does not copy into another file.
  otelSetup: {
    file: '.gemini/settings.json',
    scoped: false,
    install: (text, target) => installJsonObject(text, 'telemetry', {
      enabled: true, target: 'local', otlpEndpoint: target.endpoint, otlpProtocol: 'http', logPrompts: false,
    }),
    notes: [
      'Gemini CLI sends no headers from its settings: start it with OTEL_EXPORTER_OTLP_HEADERS="Authorization=Bearer <gateway token>,X-Warden-Source=geminicli,X-Warden-Client=geminicli" (the gateway token is WARDEN_GATEWAY_TOKEN in $WARDEN_HOME/.env).',
    ],
  },
};
