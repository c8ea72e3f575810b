// OpenAI Responses API (`/v1/responses`): `input` is a string or a list of items (messages, tool calls and
// their outputs), the answer is a list of output items, and the stream is typed SSE events
// (`event: <type>` plus `data:` with the same `type`).
import { openAIErrorBody } from './openai-chat.js';
import type { ProviderFormat, RequestView, ResponseView, StreamDecoder, StreamDelta, StreamEvent, ToolCall } from './types.js';
import { asArray, asInteger, asObject, asString, isObject, parseJson, type JsonObject } from '../../util/json.js';
import { randomHex, unixSeconds } from './answer-identity.js';
import { contentText, joinText, newestTurnText, type Speaker, type TurnPiece } from './inspected-text.js';
import { emptyDelta, sseEvent } from './streaming.js';
import { toolCallFromArguments } from './tool-calls.js';

const INPUT_TEXT_PARTS = ['input_text', 'text'];
const TOOL_OUTPUT_PARTS = ['input_text', 'output_text', 'text'];

function speakerOf(item: unknown): Speaker {
  const { role, type } = asObject(item);
  if (role === 'user') return 'user';
  // Tool calls (`function_call`, `custom_tool_call`, `web_search_call`, ...) and reasoning are model output too.
  if (role === 'assistant' || type === 'reasoning' || (typeof type === 'string' && type.endsWith('_call'))) return 'model';
  return 'other';
}

function piecesOf(item: unknown): TurnPiece[] {
  const { role, type, content, output } = asObject(item);
  if (role === 'user') return [{ kind: 'userText', text: contentText(content, INPUT_TEXT_PARTS) }];
  // `function_call_output`, `custom_tool_call_output`, ...: a string or a list of input parts.
  if (typeof type === 'string' && type.endsWith('_call_output')) return [{ kind: 'toolResult', text: contentText(output, TOOL_OUTPUT_PARTS) }];
  return [];
}

function request(body: unknown): RequestView {
  const root = asObject(body);
  const text = typeof root.input === 'string' ? root.input : newestTurnText(asArray(root.input), speakerOf, piecesOf);
  return { model: asString(root.model), stream: root.stream === true, text };
}

/** A tool call output item, or undefined for other items. Custom tools take free text, not JSON. */
function toolCallOf(item: JsonObject): ToolCall | undefined {
  const name = asString(item.name) ?? '';
  if (item.type === 'function_call') return toolCallFromArguments(name, asString(item.arguments) ?? '');
  if (item.type === 'custom_tool_call') return toolCallFromArguments(name, asString(item.input) ?? '');
  return undefined;
}

function response(body: unknown): ResponseView {
  const texts: string[] = [];
  const toolCalls: ToolCall[] = [];
  for (const rawItem of asArray(asObject(body).output)) {
    const item = asObject(rawItem);
    if (item.type === 'message') texts.push(contentText(item.content, ['output_text']));
    const call = toolCallOf(item);
    if (call) toolCalls.push(call);
  }
  return { text: joinText(texts), toolCalls };
}

interface ResponseIdentity {
  id: string;
  createdAt: number;
  model: string;
}

function messageItem(message: string): JsonObject {
  return {
    type: 'message',
    id: `msg_warden_${randomHex()}`,
    status: 'completed',
    role: 'assistant',
    content: [{ type: 'output_text', text: message, annotations: [] }],
  };
}

/** A `response` object as the API returns it; a blocked one is `incomplete` for `content_filter`. */
function responseObject(identity: ResponseIdentity, status: 'in_progress' | 'incomplete', output: JsonObject[]): JsonObject {
  return {
    id: identity.id,
    object: 'response',
    created_at: identity.createdAt,
    status,
    error: null,
    incomplete_details: status === 'incomplete' ? { reason: 'content_filter' } : null,
    instructions: null,
    model: identity.model,
    output,
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
    usage:
      status === 'in_progress'
        ? null
        : { input_tokens: 0, input_tokens_details: { cached_tokens: 0 }, output_tokens: 0, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 0 },
  };
}

const END_EVENTS = new Set(['response.completed', 'response.incomplete', 'response.failed', 'error']);
const LIFECYCLE_EVENTS = new Set(['response.created', 'response.queued', 'response.in_progress']);

class ResponsesDecoder implements StreamDecoder {
  private identity: ResponseIdentity | undefined;
  private lastSequence = -1;
  /** Output items announced so far: the block message becomes the next one. */
  private outputItems = 0;
  /** Tool calls and text parts that got deltas: a `.done` for one that got none carries its whole content. */
  private readonly streamedArguments = new Set<number>();
  private readonly streamedTextParts = new Set<string>();

  constructor(private readonly requestView: RequestView) {}

  decode(event: StreamEvent): StreamDelta {
    const delta = emptyDelta();
    const payload = parseJson(event.data);
    if (!isObject(payload)) return delta;
    const type = asString(payload.type) ?? event.event ?? '';
    const outputIndex = asInteger(payload.output_index) ?? 0;
    const textPart = `${outputIndex}:${asInteger(payload.content_index) ?? 0}`;
    this.lastSequence = Math.max(this.lastSequence, asInteger(payload.sequence_number) ?? -1);
    if (LIFECYCLE_EVENTS.has(type)) this.remember(asObject(payload.response));
    switch (type) {
      case 'response.output_item.added': {
        this.outputItems = Math.max(this.outputItems, outputIndex + 1);
        const item = asObject(payload.item);
        const call = toolCallOf(item);
        if (call) {
          if (call.raw !== '') this.streamedArguments.add(outputIndex);
          delta.toolCalls.push({ index: outputIndex, name: call.name, ...(call.raw ? { argumentsDelta: call.raw } : {}) });
        }
        break;
      }
      case 'response.output_text.delta':
        delta.text = asString(payload.delta) ?? '';
        this.streamedTextParts.add(textPart);
        break;
      case 'response.output_text.done':
        if (!this.streamedTextParts.has(textPart)) delta.text = asString(payload.text) ?? '';
        break;
      case 'response.function_call_arguments.delta':
      case 'response.custom_tool_call_input.delta':
        this.streamedArguments.add(outputIndex);
        delta.toolCalls.push({ index: outputIndex, argumentsDelta: asString(payload.delta) ?? '' });
        break;
      case 'response.function_call_arguments.done':
      case 'response.custom_tool_call_input.done': {
        const whole = asString(payload.arguments) ?? asString(payload.input);
        if (!this.streamedArguments.has(outputIndex) && whole) delta.toolCalls.push({ index: outputIndex, argumentsDelta: whole });
        delta.closedToolCalls.push(outputIndex);
        break;
      }
    }
    delta.end = END_EVENTS.has(type);
    return delta;
  }

  private remember(response: JsonObject): void {
    const id = asString(response.id);
    if (id === undefined || this.identity) return;
    this.identity = { id, createdAt: asInteger(response.created_at) ?? unixSeconds(), model: asString(response.model) ?? this.requestView.model ?? 'warden' };
  }

  blockTail(message: string): string {
    const events: string[] = [];
    const emit = (type: string, fields: JsonObject): void => {
      this.lastSequence += 1;
      events.push(sseEvent({ type, sequence_number: this.lastSequence, ...fields }, type));
    };
    let identity = this.identity;
    if (!identity) {
      // Clients build the answer from `response.created` onwards; a stream blocked before it needs one.
      identity = { id: `resp_warden_${randomHex()}`, createdAt: unixSeconds(), model: this.requestView.model ?? 'warden' };
      emit('response.created', { response: responseObject(identity, 'in_progress', []) });
    }
    const item = messageItem(message);
    const itemId = item.id;
    const outputIndex = this.outputItems;
    const part = { type: 'output_text', text: '', annotations: [] };
    // The message goes out the way the API streams one, so clients that render deltas show it too.
    emit('response.output_item.added', { output_index: outputIndex, item: { ...item, status: 'in_progress', content: [] } });
    emit('response.content_part.added', { item_id: itemId, output_index: outputIndex, content_index: 0, part });
    emit('response.output_text.delta', { item_id: itemId, output_index: outputIndex, content_index: 0, delta: message, logprobs: [] });
    emit('response.output_text.done', { item_id: itemId, output_index: outputIndex, content_index: 0, text: message, logprobs: [] });
    emit('response.content_part.done', { item_id: itemId, output_index: outputIndex, content_index: 0, part: { ...part, text: message } });
    emit('response.output_item.done', { output_index: outputIndex, item });
    // The final response holds only the block message: partial output streamed before the block is dropped.
    emit('response.incomplete', { response: responseObject(identity, 'incomplete', [item]) });
    this.outputItems += 1;
    return events.join('');
  }
}

function blockResponse(message: string, requestView: RequestView): unknown {
  const identity = { id: `resp_warden_${randomHex()}`, createdAt: unixSeconds(), model: requestView.model ?? 'warden' };
  return responseObject(identity, 'incomplete', [messageItem(message)]);
}

export const openAIResponses: ProviderFormat = {
  name: 'openai-responses',
  request,
  response,
  streamDecoder: (requestView) => new ResponsesDecoder(requestView),
  blockResponse,
  errorBody: openAIErrorBody,
};
