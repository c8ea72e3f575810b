// Ollama's native API: `/api/chat` (messages in, `message` out, tool calls with object arguments) and
// `/api/generate` (`prompt` in, `response` out). Streams are NDJSON, one JSON object a line, ending with a
// `done: true` line, and Ollama streams unless the request says `stream: false`.
import type { ProviderFormat, RequestView, ResponseView, StreamDecoder, StreamDelta, StreamEvent, ToolCall } from './types.js';
import { asArray, asObject, asString, isObject, parseJson, type JsonObject } from '../../util/json.js';
import { newestTurnText, type Speaker, type TurnPiece } from './inspected-text.js';
import { emptyDelta } from './streaming.js';
import { argumentsText, toolCallFromValue } from './tool-calls.js';

function speakerOf(message: unknown): Speaker {
  const role = asObject(message).role;
  if (role === 'user') return 'user';
  if (role === 'assistant') return 'model';
  return 'other';
}

function piecesOf(message: unknown): TurnPiece[] {
  const { role, content } = asObject(message);
  const text = asString(content) ?? '';
  if (role === 'user') return [{ kind: 'userText', text }];
  if (role === 'tool') return [{ kind: 'toolResult', text }];
  return [];
}

function request(body: unknown, path: string): RequestView {
  const root = asObject(body);
  // /api/generate takes one prompt; it is the newest (and only) user turn. `system` is not inspected.
  const text = path.includes('/api/generate') ? (asString(root.prompt) ?? '') : newestTurnText(asArray(root.messages), speakerOf, piecesOf);
  return { model: asString(root.model), stream: root.stream !== false, text };
}

function toolCallsOf(message: JsonObject): ToolCall[] {
  return asArray(message.tool_calls).map((call) => {
    const fn = asObject(asObject(call).function);
    return toolCallFromValue(asString(fn.name) ?? '', fn.arguments);
  });
}

/** The answer's text: `message.content` from /api/chat, `response` from /api/generate. */
function answerText(line: JsonObject): string {
  return asString(asObject(line.message).content) ?? asString(line.response) ?? '';
}

function response(body: unknown): ResponseView {
  const root = asObject(body);
  return { text: answerText(root), toolCalls: toolCallsOf(asObject(root.message)) };
}

type Endpoint = 'chat' | 'generate' | 'unknown';

/**
 * The final line of an answer carrying `message`. The endpoint is not part of RequestView, so when it is not
 * known both `message` (chat) and `response` (generate) are set: each client reads its own field and ignores
 * the other.
 */
function finalLine(message: string, model: string, createdAt: string, endpoint: Endpoint): JsonObject {
  return {
    model,
    created_at: createdAt,
    ...(endpoint === 'generate' ? {} : { message: { role: 'assistant', content: message } }),
    ...(endpoint === 'chat' ? {} : { response: message }),
    done: true,
    done_reason: 'stop',
  };
}

class OllamaDecoder implements StreamDecoder {
  private model: string | undefined;
  private endpoint: Endpoint = 'unknown';
  /** Ollama sends each tool call whole and unnumbered; they are numbered here in order of arrival. */
  private nextToolCall = 0;

  constructor(private readonly requestView: RequestView) {}

  decode(event: StreamEvent): StreamDelta {
    const delta = emptyDelta();
    const line = parseJson(event.data);
    if (!isObject(line)) return delta;
    this.model ??= asString(line.model);
    if (this.endpoint === 'unknown') {
      if (isObject(line.message)) this.endpoint = 'chat';
      else if (typeof line.response === 'string') this.endpoint = 'generate';
    }
    delta.text = answerText(line);
    for (const call of asArray(asObject(line.message).tool_calls)) {
      const fn = asObject(asObject(call).function);
      const index = this.nextToolCall++;
      delta.toolCalls.push({ index, name: asString(fn.name) ?? '', argumentsDelta: argumentsText(fn.arguments) });
      delta.closedToolCalls.push(index);
    }
    // An `error` line is Ollama's way of failing mid-stream; nothing follows it.
    delta.end = line.done === true || line.error !== undefined;
    return delta;
  }

  blockTail(message: string): string {
    const model = this.model ?? this.requestView.model ?? 'warden';
    return `${JSON.stringify(finalLine(message, model, new Date().toISOString(), this.endpoint))}\n`;
  }
}

function blockResponse(message: string, requestView: RequestView): unknown {
  return finalLine(message, requestView.model ?? 'warden', new Date().toISOString(), 'unknown');
}

export const ollama: ProviderFormat = {
  name: 'ollama',
  request,
  response,
  streamDecoder: (requestView) => new OllamaDecoder(requestView),
  blockResponse,
  // Ollama's own errors are `{"error": "<message>"}`.
  errorBody: (_status, message) => ({ error: message }),
};
