// OpenAI Chat Completions (`/v1/chat/completions`), the format most providers copy: Groq, Mistral, DeepSeek,
// xAI, OpenRouter, Together, Perplexity and Azure OpenAI (`/openai/deployments/<name>/chat/completions`).
// Also home of the OpenAI-style error body, which the Responses and generic formats share.
import type { ProviderFormat, RequestView, ResponseView, StreamDecoder, StreamDelta, StreamEvent, ToolCall } from './types.js';
import { asArray, asInteger, asObject, asString, isObject, parseJson, type JsonObject } from '../../util/json.js';
import { randomHex, unixSeconds } from './answer-identity.js';
import { contentText, joinText, newestTurnText, type Speaker, type TurnPiece } from './inspected-text.js';
import { emptyDelta, FinishTracker, sseEvent } from './streaming.js';
import { toolCallFromArguments } from './tool-calls.js';

const TEXT_PARTS = ['text'];

/**
 * Streamed tool calls are keyed by `choiceIndex * CHOICE_STRIDE + toolIndex`: with `n > 1` every choice numbers
 * its calls from 0, and one flat key space keeps them apart (choice 0 keeps the provider's own indexes).
 */
const CHOICE_STRIDE = 1000;

function speakerOf(message: unknown): Speaker {
  const role = asString(asObject(message).role);
  if (role === 'user') return 'user';
  if (role === 'assistant') return 'model';
  return 'other';
}

function piecesOf(message: unknown): TurnPiece[] {
  const { role, content } = asObject(message);
  const text = contentText(content, TEXT_PARTS);
  if (role === 'user') return [{ kind: 'userText', text }];
  // `function` is the pre-tools name for a tool result; older clients still send it.
  if (role === 'tool' || role === 'function') return [{ kind: 'toolResult', text }];
  return [];
}

/** Azure names the deployment in the path and may leave `model` out of the body. */
function azureDeployment(path: string): string | undefined {
  const match = /\/openai\/deployments\/([^/?]+)\//.exec(path);
  if (match?.[1] === undefined) return undefined;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return match[1]; // a malformed %-escape: the name as written
  }
}

function request(body: unknown, path: string): RequestView {
  const root = asObject(body);
  return {
    model: asString(root.model) ?? azureDeployment(path),
    stream: root.stream === true,
    text: newestTurnText(asArray(root.messages), speakerOf, piecesOf),
  };
}

function toolCallsOf(message: JsonObject): ToolCall[] {
  const calls: ToolCall[] = [];
  for (const call of asArray(message.tool_calls)) {
    const fn = asObject(asObject(call).function);
    calls.push(toolCallFromArguments(asString(fn.name) ?? '', asString(fn.arguments) ?? ''));
  }
  // The legacy single `function_call` (before `tools`).
  if (isObject(message.function_call)) {
    const fn = message.function_call;
    calls.push(toolCallFromArguments(asString(fn.name) ?? '', asString(fn.arguments) ?? ''));
  }
  return calls;
}

function response(body: unknown): ResponseView {
  const texts: string[] = [];
  const toolCalls: ToolCall[] = [];
  // Every choice is read: with `n > 1` the client may use any of them.
  for (const choice of asArray(asObject(body).choices)) {
    const message = asObject(asObject(choice).message);
    texts.push(contentText(message.content, TEXT_PARTS));
    toolCalls.push(...toolCallsOf(message));
  }
  return { text: joinText(texts), toolCalls };
}

class OpenAIChatDecoder implements StreamDecoder {
  private id: string | undefined;
  private model: string | undefined;
  private created: number | undefined;
  private chunksSeen = false;
  private readonly openToolCalls = new Map<number, Set<number>>();
  private readonly choices = new FinishTracker();

  constructor(private readonly requestView: RequestView) {}

  decode(event: StreamEvent): StreamDelta {
    const delta = emptyDelta();
    const data = event.data.trim();
    if (data === '[DONE]') return { ...delta, end: true };
    const chunk = parseJson(data);
    if (!isObject(chunk)) return delta; // keep-alives, comments, garbage: no text
    this.remember(chunk);
    const texts: string[] = [];
    let finishedHere = false;
    for (const [position, rawChoice] of asArray(chunk.choices).entries()) {
      const choice = asObject(rawChoice);
      const choiceIndex = asInteger(choice.index) ?? position;
      this.choices.seen(choiceIndex);
      const choiceDelta = asObject(choice.delta);
      texts.push(contentText(choiceDelta.content, TEXT_PARTS));
      this.readToolFragments(choiceIndex, choiceDelta, delta);
      // Some compatible servers send `finish_reason: ""` on every chunk; only a real reason finishes.
      if (typeof choice.finish_reason === 'string' && choice.finish_reason !== '') {
        delta.closedToolCalls.push(...this.closeChoice(choiceIndex));
        this.choices.finish(choiceIndex);
        finishedHere = true;
      }
    }
    delta.text = texts.join('');
    delta.end = finishedHere && this.choices.allFinished;
    return delta;
  }

  private remember(chunk: JsonObject): void {
    this.chunksSeen = true;
    this.id ??= asString(chunk.id);
    this.model ??= asString(chunk.model);
    this.created ??= asInteger(chunk.created);
  }

  private readToolFragments(choiceIndex: number, choiceDelta: JsonObject, delta: StreamDelta): void {
    const fragments = asArray(choiceDelta.tool_calls).map((fragment, position) => ({ fragment: asObject(fragment), position }));
    if (isObject(choiceDelta.function_call)) fragments.push({ fragment: { function: choiceDelta.function_call }, position: 0 });
    for (const { fragment, position } of fragments) {
      // Some OpenAI-compatible servers send whole calls without `index`: their place in the list stands in.
      const key = choiceIndex * CHOICE_STRIDE + (asInteger(fragment.index) ?? position);
      const fn = asObject(fragment.function);
      const name = asString(fn.name);
      const argumentsDelta = asString(fn.arguments);
      this.openToolCalls.set(choiceIndex, (this.openToolCalls.get(choiceIndex) ?? new Set<number>()).add(key));
      delta.toolCalls.push({ index: key, ...(name ? { name } : {}), ...(argumentsDelta ? { argumentsDelta } : {}) });
    }
  }

  /** A finish reason on a choice ends all of its calls: OpenAI sends no per-call end marker. */
  private closeChoice(choiceIndex: number): number[] {
    const keys = [...(this.openToolCalls.get(choiceIndex) ?? [])];
    this.openToolCalls.delete(choiceIndex);
    return keys;
  }

  blockTail(message: string): string {
    const chunk = {
      id: this.id ?? `chatcmpl-warden-${randomHex()}`,
      object: 'chat.completion.chunk',
      created: this.created ?? unixSeconds(),
      model: this.model ?? this.requestView.model ?? 'warden',
      choices: [
        {
          index: 0,
          // The role comes with a stream's first chunk; if nothing went out yet, this chunk is the first.
          delta: this.chunksSeen ? { content: message } : { role: 'assistant', content: message },
          logprobs: null,
          finish_reason: 'content_filter',
        },
      ],
    };
    return `${sseEvent(chunk)}data: [DONE]\n\n`;
  }
}

function blockResponse(message: string, requestView: RequestView): unknown {
  return {
    id: `chatcmpl-warden-${randomHex()}`,
    object: 'chat.completion',
    created: unixSeconds(),
    model: requestView.model ?? 'warden',
    choices: [{ index: 0, message: { role: 'assistant', content: message, refusal: null }, logprobs: null, finish_reason: 'content_filter' }],
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  };
}

/** OpenAI's error `type` (and `code` where OpenAI sets a well-known one) for an HTTP status. */
function openAIErrorKind(status: number): { type: string; code: string | null } {
  switch (status) {
    case 400:
    case 413:
      return { type: 'invalid_request_error', code: null };
    case 401:
      return { type: 'authentication_error', code: 'invalid_api_key' };
    case 403:
      return { type: 'permission_error', code: null };
    case 404:
      return { type: 'not_found_error', code: null };
    case 429:
      return { type: 'rate_limit_error', code: 'rate_limit_exceeded' };
    case 502:
    case 504:
      return { type: 'upstream_error', code: null };
    case 503:
      return { type: 'service_unavailable', code: null };
    default:
      return { type: status >= 500 ? 'server_error' : 'invalid_request_error', code: null };
  }
}

/** `{error: {message, type, param, code}}`, the body OpenAI and its imitators send with a failed status. */
export function openAIErrorBody(status: number, message: string): unknown {
  const { type, code } = openAIErrorKind(status);
  return { error: { message, type, param: null, code } };
}

export const openAIChat: ProviderFormat = {
  name: 'openai-chat',
  request,
  response,
  streamDecoder: (requestView) => new OpenAIChatDecoder(requestView),
  blockResponse,
  errorBody: openAIErrorBody,
};
