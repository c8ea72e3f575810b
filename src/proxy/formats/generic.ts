// The fallback for a JSON API the proxy does not know: without a schema, every string value in the body is
// text to inspect (bounded, so a huge or deeply nested body costs a fixed amount), no tool calls are
// recognised, and a block is an OpenAI-style error object, the closest thing to a common convention.
import { openAIErrorBody } from './openai-chat.js';
import type { ProviderFormat, RequestView, ResponseView, StreamDecoder, StreamDelta, StreamEvent } from './types.js';
import { asObject, asString, parseJson } from '../../util/json.js';
import { collectStrings } from './inspected-text.js';
import { emptyDelta, sseEvent } from './streaming.js';

/** All string values, one a line. History is included: without knowing the shape, turns cannot be told apart. */
function allText(body: unknown): string {
  return collectStrings(body).join('\n');
}

function request(body: unknown): RequestView {
  const root = asObject(body);
  return { model: asString(root.model), stream: root.stream === true, text: allText(body) };
}

function response(body: unknown): ResponseView {
  return { text: allText(body), toolCalls: [] };
}

function blockedError(message: string): unknown {
  return { error: { message, type: 'content_filter' } };
}

class GenericDecoder implements StreamDecoder {
  decode(event: StreamEvent): StreamDelta {
    const delta = emptyDelta();
    const data = event.data.trim();
    // `[DONE]` is the most common end marker among OpenAI-like streams; otherwise the connection's close ends.
    if (data === '[DONE]') return { ...delta, end: true };
    const payload = parseJson(data);
    delta.text = payload === undefined ? event.data : allText(payload);
    return delta;
  }

  blockTail(message: string): string {
    return sseEvent(blockedError(message));
  }
}

export const generic: ProviderFormat = {
  name: 'generic',
  request,
  response,
  streamDecoder: () => new GenericDecoder(),
  blockResponse: (message) => blockedError(message),
  errorBody: openAIErrorBody,
};
