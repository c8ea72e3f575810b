// Anthropic Messages (`/v1/messages`): `messages` whose content is a string or a list of blocks (tool results
// are `tool_result` blocks in a user message), answers as content blocks, and a typed SSE stream
// (message_start, content_block_start/delta/stop, message_delta, message_stop). The SDK rebuilds the message
// from those events and rejects a second message_start, so the block tail follows the stream's own state.
import type { ProviderFormat, RequestView, ResponseView, StreamDecoder, StreamDelta, StreamEvent, ToolCall } from './types.js';
import { asArray, asInteger, asObject, asString, isObject, parseJson, type JsonObject } from '../../util/json.js';
import { randomHex } from './answer-identity.js';
import { contentText, joinText, newestTurnText, type Speaker, type TurnPiece } from './inspected-text.js';
import { emptyDelta, sseEvent } from './streaming.js';
import { toolCallFromValue } from './tool-calls.js';

const TEXT_PARTS = ['text'];

function speakerOf(message: unknown): Speaker {
  const role = asObject(message).role;
  if (role === 'user') return 'user';
  if (role === 'assistant') return 'model';
  return 'other';
}

/** A user message's text blocks and tool results, in block order. */
function piecesOf(message: unknown): TurnPiece[] {
  const { role, content } = asObject(message);
  if (role !== 'user') return [];
  if (typeof content === 'string') return [{ kind: 'userText', text: content }];
  const pieces: TurnPiece[] = [];
  for (const rawBlock of asArray(content)) {
    const block = asObject(rawBlock);
    if (block.type === 'text') pieces.push({ kind: 'userText', text: asString(block.text) ?? '' });
    else if (block.type === 'tool_result') pieces.push({ kind: 'toolResult', text: contentText(block.content, TEXT_PARTS) });
  }
  return pieces;
}

function request(body: unknown): RequestView {
  const root = asObject(body);
  return { model: asString(root.model), stream: root.stream === true, text: newestTurnText(asArray(root.messages), speakerOf, piecesOf) };
}

function response(body: unknown): ResponseView {
  const texts: string[] = [];
  const toolCalls: ToolCall[] = [];
  for (const rawBlock of asArray(asObject(body).content)) {
    const block = asObject(rawBlock);
    if (block.type === 'text') texts.push(asString(block.text) ?? '');
    else if (block.type === 'tool_use') toolCalls.push(toolCallFromValue(asString(block.name) ?? '', block.input));
  }
  return { text: joinText(texts), toolCalls };
}

function messageObject(id: string, model: string, content: JsonObject[], stopReason: string | null): JsonObject {
  return {
    id,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: { input_tokens: 0, output_tokens: 0 },
  };
}

class AnthropicDecoder implements StreamDecoder {
  private messageStarted = false;
  /** The content block between its start and stop, if any: the tail must close it before adding its own. */
  private openBlock: number | undefined;
  private nextBlockIndex = 0;
  private readonly toolBlocks = new Set<number>();

  constructor(private readonly requestView: RequestView) {}

  decode(event: StreamEvent): StreamDelta {
    const delta = emptyDelta();
    const payload = parseJson(event.data);
    if (!isObject(payload)) return delta;
    const type = asString(payload.type) ?? event.event ?? '';
    const index = asInteger(payload.index) ?? 0;
    switch (type) {
      case 'message_start':
        this.messageStarted = true;
        break;
      case 'content_block_start':
        this.startBlock(index, asObject(payload.content_block), delta);
        break;
      case 'content_block_delta': {
        const blockDelta = asObject(payload.delta);
        if (blockDelta.type === 'text_delta') delta.text = asString(blockDelta.text) ?? '';
        else if (blockDelta.type === 'input_json_delta') delta.toolCalls.push({ index, argumentsDelta: asString(blockDelta.partial_json) ?? '' });
        break;
      }
      case 'content_block_stop':
        if (this.openBlock === index) this.openBlock = undefined;
        if (this.toolBlocks.delete(index)) delta.closedToolCalls.push(index);
        break;
      case 'message_stop':
      case 'error':
        delta.end = true;
        break;
    }
    return delta;
  }

  private startBlock(index: number, block: JsonObject, delta: StreamDelta): void {
    this.openBlock = index;
    this.nextBlockIndex = Math.max(this.nextBlockIndex, index + 1);
    if (block.type === 'text') {
      delta.text = asString(block.text) ?? '';
    } else if (block.type === 'tool_use') {
      this.toolBlocks.add(index);
      // The input normally starts as {} and arrives as input_json_delta; a non-empty one is part of the call.
      const input = asObject(block.input);
      const initial = Object.keys(input).length > 0 ? JSON.stringify(input) : undefined;
      delta.toolCalls.push({ index, name: asString(block.name) ?? '', ...(initial ? { argumentsDelta: initial } : {}) });
    }
  }

  blockTail(message: string): string {
    const events: string[] = [];
    const emit = (payload: JsonObject): void => {
      events.push(sseEvent(payload, String(payload.type)));
    };
    if (!this.messageStarted) {
      const model = this.requestView.model ?? 'warden';
      emit({ type: 'message_start', message: messageObject(`msg_warden_${randomHex()}`, model, [], null) });
    }
    if (this.openBlock !== undefined) emit({ type: 'content_block_stop', index: this.openBlock });
    const index = this.nextBlockIndex;
    emit({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
    emit({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: message } });
    emit({ type: 'content_block_stop', index });
    // The SDK copies usage.output_tokens from message_delta, so usage must be there.
    emit({ type: 'message_delta', delta: { stop_reason: 'refusal', stop_sequence: null }, usage: { output_tokens: 0 } });
    emit({ type: 'message_stop' });
    this.messageStarted = true;
    this.openBlock = undefined;
    this.nextBlockIndex = index + 1;
    return events.join('');
  }
}

function blockResponse(message: string, requestView: RequestView): unknown {
  return messageObject(`msg_warden_${randomHex()}`, requestView.model ?? 'warden', [{ type: 'text', text: message }], 'refusal');
}

/** Anthropic's error `type` for an HTTP status (docs: "HTTP errors"). */
function anthropicErrorType(status: number): string {
  switch (status) {
    case 400:
      return 'invalid_request_error';
    case 401:
      return 'authentication_error';
    case 403:
      return 'permission_error';
    case 404:
      return 'not_found_error';
    case 413:
      return 'request_too_large';
    case 429:
      return 'rate_limit_error';
    case 504:
      return 'timeout_error';
    case 529:
      return 'overloaded_error';
    default:
      // Anthropic uses invalid_request_error for other 4xx statuses.
      return status >= 500 ? 'api_error' : 'invalid_request_error';
  }
}

function errorBody(status: number, message: string): unknown {
  return { type: 'error', error: { type: anthropicErrorType(status), message } };
}

export const anthropic: ProviderFormat = {
  name: 'anthropic',
  request,
  response,
  streamDecoder: (requestView) => new AnthropicDecoder(requestView),
  blockResponse,
  errorBody,
};
