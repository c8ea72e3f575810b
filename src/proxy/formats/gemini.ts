// Google Gemini `generateContent` / `streamGenerateContent` (Generative Language API and Vertex AI paths such
// as `/v1beta/models/<model>:streamGenerateContent?alt=sse`). The model is named in the path, not the body;
// turns are `contents[]` with role user/model and `parts`; a stream is SSE `data:` chunks, each a whole
// GenerateContentResponse, and a function call always arrives whole inside one chunk.
import type { ProviderFormat, RequestView, ResponseView, StreamDecoder, StreamDelta, StreamEvent, ToolCall } from './types.js';
import { asArray, asInteger, asObject, asString, isObject, parseJson, type JsonObject } from '../../util/json.js';
import { collectStrings, joinText, newestTurnText, type Speaker, type TurnPiece } from './inspected-text.js';
import { emptyDelta, FinishTracker, sseEvent } from './streaming.js';
import { argumentsText, toolCallFromValue } from './tool-calls.js';

function speakerOf(content: unknown): Speaker {
  const role = asObject(content).role;
  // `role` may be left out for a single-turn request; then the content is the user's.
  if (role === 'user' || role === undefined) return 'user';
  if (role === 'model') return 'model';
  return 'other'; // 'function': function responses in older requests
}

/** Text the model wrote while thinking (`thought: true`) is not the answer; everything else with text is. */
function partText(part: JsonObject): string | undefined {
  return part.thought === true ? undefined : asString(part.text);
}

function piecesOf(content: unknown): TurnPiece[] {
  const pieces: TurnPiece[] = [];
  for (const rawPart of asArray(asObject(content).parts)) {
    const part = asObject(rawPart);
    const text = partText(part);
    if (text !== undefined) pieces.push({ kind: 'userText', text });
    // The response is an arbitrary JSON object; its string values are what a tool could have smuggled in.
    if (isObject(part.functionResponse)) pieces.push({ kind: 'toolResult', text: joinText(collectStrings(part.functionResponse.response)) });
  }
  return pieces;
}

function modelFromPath(path: string): string | undefined {
  return /models\/([^/:?]+):/i.exec(path)?.[1];
}

function request(body: unknown, path: string): RequestView {
  const root = asObject(body);
  return {
    model: modelFromPath(path),
    stream: path.includes(':streamGenerateContent'),
    text: newestTurnText(asArray(root.contents), speakerOf, piecesOf),
  };
}

/** A non-streamed answer is one response, or (from the non-SSE stream endpoint) a JSON array of chunks. */
function chunksOf(body: unknown): JsonObject[] {
  return (Array.isArray(body) ? body : [body]).filter(isObject);
}

function candidatesOf(chunk: JsonObject): { index: number; candidate: JsonObject }[] {
  return asArray(chunk.candidates).map((candidate, position) => {
    const object = asObject(candidate);
    return { index: asInteger(object.index) ?? position, candidate: object };
  });
}

function partsOf(candidate: JsonObject): JsonObject[] {
  return asArray(asObject(candidate.content).parts).filter(isObject);
}

function response(body: unknown): ResponseView {
  // Chunks of one candidate continue each other's text; separate candidates are separate answers.
  const textByCandidate = new Map<number, string>();
  const toolCalls: ToolCall[] = [];
  for (const chunk of chunksOf(body)) {
    for (const { index, candidate } of candidatesOf(chunk)) {
      for (const part of partsOf(candidate)) {
        const text = partText(part);
        if (text !== undefined) textByCandidate.set(index, (textByCandidate.get(index) ?? '') + text);
        if (isObject(part.functionCall)) toolCalls.push(toolCallFromValue(asString(part.functionCall.name) ?? '', part.functionCall.args));
      }
    }
  }
  return { text: joinText([...textByCandidate.values()]), toolCalls };
}

function blockedAnswer(message: string, modelVersion: string, responseId?: string): JsonObject {
  return {
    candidates: [{ content: { role: 'model', parts: [{ text: message }] }, finishReason: 'SAFETY', index: 0 }],
    usageMetadata: { promptTokenCount: 0, candidatesTokenCount: 0, totalTokenCount: 0 },
    modelVersion,
    ...(responseId === undefined ? {} : { responseId }),
  };
}

class GeminiDecoder implements StreamDecoder {
  private modelVersion: string | undefined;
  private responseId: string | undefined;
  /** Gemini does not number function calls; they are numbered here in order of arrival. */
  private nextToolCall = 0;
  private readonly candidates = new FinishTracker();

  constructor(private readonly requestView: RequestView) {}

  decode(event: StreamEvent): StreamDelta {
    const delta = emptyDelta();
    let finishedHere = false;
    let promptBlocked = false;
    for (const chunk of chunksOf(parseJson(event.data))) {
      this.modelVersion ??= asString(chunk.modelVersion);
      this.responseId ??= asString(chunk.responseId);
      const candidates = candidatesOf(chunk);
      // A blocked prompt is answered with promptFeedback and no candidates: nothing more will come.
      if (candidates.length === 0 && asString(asObject(chunk.promptFeedback).blockReason)) promptBlocked = true;
      for (const { index, candidate } of candidates) {
        this.candidates.seen(index);
        for (const part of partsOf(candidate)) this.readPart(part, delta);
        if (typeof candidate.finishReason === 'string' && candidate.finishReason !== '') {
          this.candidates.finish(index);
          finishedHere = true;
        }
      }
    }
    delta.end = promptBlocked || (finishedHere && this.candidates.allFinished);
    return delta;
  }

  private readPart(part: JsonObject, delta: StreamDelta): void {
    const text = partText(part);
    if (text !== undefined) delta.text += text;
    if (!isObject(part.functionCall)) return;
    // Whole call in one part: announced and closed by the same delta.
    const index = this.nextToolCall++;
    delta.toolCalls.push({ index, name: asString(part.functionCall.name) ?? '', argumentsDelta: argumentsText(part.functionCall.args) });
    delta.closedToolCalls.push(index);
  }

  blockTail(message: string): string {
    // Gemini streams have no end marker: the SAFETY finish reason and the connection closing end them.
    return sseEvent(blockedAnswer(message, this.modelVersion ?? this.requestView.model ?? 'warden', this.responseId));
  }
}

function blockResponse(message: string, requestView: RequestView): unknown {
  return blockedAnswer(message, requestView.model ?? 'warden');
}

/** Google's canonical status name for an HTTP status. */
function googleStatus(status: number): string {
  switch (status) {
    case 401:
      return 'UNAUTHENTICATED';
    case 403:
      return 'PERMISSION_DENIED';
    case 404:
      return 'NOT_FOUND';
    case 429:
      return 'RESOURCE_EXHAUSTED';
    case 502:
    case 503:
      return 'UNAVAILABLE';
    case 504:
      return 'DEADLINE_EXCEEDED';
    default:
      // 400 and 413 included: a request the gateway will not take as sent.
      return status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT';
  }
}

function errorBody(status: number, message: string): unknown {
  return { error: { code: status, message, status: googleStatus(status) } };
}

export const gemini: ProviderFormat = {
  name: 'gemini',
  request,
  response,
  streamDecoder: (requestView) => new GeminiDecoder(requestView),
  blockResponse,
  errorBody,
};
