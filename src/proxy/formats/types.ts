// What the proxy needs to know of one provider's wire format: where the text to inspect sits in a request and
// in an answer, how a streamed answer's events add up, and how to say "blocked" so that provider's clients
// (the official SDKs included) read it as an ordinary answer. Pure data shaping: no HTTP, no I/O.

export type FormatName = 'openai-chat' | 'openai-responses' | 'anthropic' | 'gemini' | 'ollama' | 'generic';

/** A tool call the model asked for, assembled (streamed argument fragments joined). */
export interface ToolCall {
  name: string;
  /** The arguments parsed from JSON; undefined when they are not a JSON object (then `raw` is inspected). */
  args: Record<string, unknown> | undefined;
  /** The arguments as the model wrote them. */
  raw: string;
}

/** The part of a request the guardrail inspects: the newest user turn and the tool results sent with it. */
export interface RequestView {
  model: string | undefined;
  stream: boolean;
  /** Text of the last user turn and of tool results after the last assistant turn, joined by newlines. */
  text: string;
}

export interface ResponseView {
  text: string;
  toolCalls: ToolCall[];
}

/** One event of a streamed answer: an SSE event (`event` name and `data`), or one NDJSON line (`data` only). */
export interface StreamEvent {
  event?: string;
  data: string;
}

/** What one stream event adds to the answer. */
export interface StreamDelta {
  /** Output text appended by this event ('' when none). */
  text: string;
  /** Tool-call fragments, keyed by the provider's index of the call within the answer. */
  toolCalls: { index: number; name?: string; argumentsDelta?: string }[];
  /** This event ends one or more tool calls (their arguments are complete): the indexes. */
  closedToolCalls: number[];
  /** This event ends the answer (finish reason, message_stop, done: true, [DONE]). */
  end: boolean;
}

/** Per-stream state: decodes events in order and, on a block, writes the tail that ends the stream. */
export interface StreamDecoder {
  decode(event: StreamEvent): StreamDelta;
  /** Bytes to send after the events already forwarded: the block message as the answer's last output and a
   *  well-formed end of stream in this provider's streaming format (for OpenAI chat `data: [DONE]`).
   *  The tail continues exactly the events given to `decode` on this decoder (Anthropic block indexes,
   *  Responses output indexes and sequence numbers are counted from them): a caller that decodes events it
   *  then withholds must take the tail from a decoder that was given only the events it sent. */
  blockTail(message: string): string;
}

export interface ProviderFormat {
  readonly name: FormatName;
  /** Reads a parsed JSON request body (never throws on odd shapes: missing parts read as empty). */
  request(body: unknown, path: string): RequestView;
  /** Reads a parsed JSON, non-streamed answer (Gemini may answer a JSON array of chunks). */
  response(body: unknown): ResponseView;
  streamDecoder(request: RequestView): StreamDecoder;
  /** A complete non-streamed answer carrying `message` as the assistant's output, marked as filtered
   *  (OpenAI chat: `chat.completion`, `finish_reason: "content_filter"`). */
  blockResponse(message: string, request: RequestView): unknown;
  /** The provider's error body for `status` (OpenAI `{error: {message, type, code}}`, Anthropic
   *  `{type: "error", error: {type, message}}`, Gemini `{error: {code, message, status}}`). */
  errorBody(status: number, message: string): unknown;
}
