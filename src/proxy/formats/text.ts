// Small helpers shared by the wire formats: narrowing unknown JSON without throwing, picking the inspected
// turns out of a conversation, bounded string collection, tool-call argument parsing and SSE framing.
// Every reader here treats a missing or oddly typed field as empty: a hostile or malformed body must read as
// "nothing to inspect here", never crash the proxy.
import { randomBytes } from 'node:crypto';
import type { StreamDelta, ToolCall } from './types.js';

export type JsonObject = Record<string, unknown>;

/** A plain JSON object (not an array, not null). */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function asObject(value: unknown): JsonObject {
  return isObject(value) ? value : {};
}

export function asArray(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A non-negative integer (indexes, sequence numbers, timestamps), else undefined. */
export function asInteger(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/** JSON.parse that answers undefined instead of throwing. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Joins the inspected pieces with newlines; empty pieces add nothing (not even a blank line). */
export function joinText(pieces: readonly string[]): string {
  return pieces.filter((piece) => piece !== '').join('\n');
}

/**
 * The text of a message `content` that is either a string or a list of typed parts: the `text` of every part
 * whose `type` is one of `partTypes` (images, audio and files carry nothing to read), joined by newlines.
 */
export function contentText(content: unknown, partTypes: readonly string[]): string {
  if (typeof content === 'string') return content;
  const texts: string[] = [];
  for (const part of asArray(content)) {
    if (!isObject(part)) continue;
    const text = asString(part.text);
    if (text !== undefined && partTypes.includes(asString(part.type) ?? '')) texts.push(text);
  }
  return joinText(texts);
}

/** Who spoke a conversation item, as far as "the newest turn" is concerned. */
export type Speaker = 'user' | 'model' | 'other';

/** A piece of an item: text the user wrote, or a tool result sent back to the model. */
export interface TurnPiece {
  kind: 'userText' | 'toolResult';
  text: string;
}

/**
 * The text the guardrail inspects on the way in: the text of the last user item, and the tool results in the
 * items after the last model item, in conversation order. Earlier history was inspected when it was new;
 * reading it again on every turn would re-flag (and re-pay for) the same content each time.
 */
export function newestTurnText<T>(items: readonly T[], speaker: (item: T) => Speaker, pieces: (item: T) => TurnPiece[]): string {
  let lastUser = -1;
  let lastModel = -1;
  items.forEach((item, index) => {
    const who = speaker(item);
    if (who === 'user') lastUser = index;
    else if (who === 'model') lastModel = index;
  });
  const texts: string[] = [];
  items.forEach((item, index) => {
    for (const piece of pieces(item)) {
      if (piece.kind === 'userText' ? index === lastUser : index > lastModel) texts.push(piece.text);
    }
  });
  return joinText(texts);
}

/** Bounds for reading a body whose shape is unknown: deep or huge structures are read only in part. */
export const STRING_COLLECTION_LIMITS = { maxDepth: 8, maxStrings: 2000 } as const;

/**
 * Every string value in `value`, depth first, in document order: strings inside at most `maxDepth` nested
 * arrays/objects, and at most `maxStrings` of them. Object keys are not collected (they are schema, not text).
 */
export function collectStrings(value: unknown, limits: { maxDepth: number; maxStrings: number } = STRING_COLLECTION_LIMITS): string[] {
  const found: string[] = [];
  const visit = (node: unknown, depth: number): void => {
    if (found.length >= limits.maxStrings) return;
    if (typeof node === 'string') {
      found.push(node);
      return;
    }
    if (typeof node !== 'object' || node === null || depth >= limits.maxDepth) return;
    const children = Array.isArray(node) ? node : Object.values(node);
    for (const child of children) visit(child, depth + 1);
  };
  visit(value, 0);
  return found;
}

/** A tool call whose arguments arrive as a JSON string (OpenAI, Responses, streamed Anthropic input). */
export function toolCallFromArguments(name: string, raw: string): ToolCall {
  const parsed = parseJson(raw);
  return { name, raw, args: isObject(parsed) ? parsed : undefined };
}

/** A tool call whose arguments arrive as a JSON value (Anthropic `input`, Gemini `args`, Ollama `arguments`). */
export function toolCallFromValue(name: string, value: unknown): ToolCall {
  if (typeof value === 'string') return toolCallFromArguments(name, value);
  // A call without arguments (a tool that takes none) reads as an empty object.
  if (value === undefined || value === null) return { name, raw: '{}', args: {} };
  return { name, raw: JSON.stringify(value), args: isObject(value) ? value : undefined };
}

/** Arguments as the text fragment a stream delta carries (objects serialised, strings as sent). */
export function argumentsText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '{}';
  return JSON.stringify(value);
}

export function emptyDelta(): StreamDelta {
  return { text: '', toolCalls: [], closedToolCalls: [], end: false };
}

export function randomHex(bytes = 12): string {
  return randomBytes(bytes).toString('hex');
}

export function unixSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** One SSE event; JSON.stringify escapes newlines, so the payload always fits on one `data:` line. */
export function sseEvent(payload: unknown, eventName?: string): string {
  const nameLine = eventName === undefined ? '' : `event: ${eventName}\n`;
  return `${nameLine}data: ${JSON.stringify(payload)}\n\n`;
}

/**
 * Tracks which streamed answers (OpenAI choices, Gemini candidates) are still running: the stream ends when
 * every answer seen so far has a finish reason, so a second choice is not cut off by the first one's end.
 */
export class FinishTracker {
  private readonly running = new Set<number>();
  private readonly finished = new Set<number>();

  seen(index: number): void {
    if (!this.finished.has(index)) this.running.add(index);
  }

  finish(index: number): void {
    this.running.delete(index);
    this.finished.add(index);
  }

  get allFinished(): boolean {
    return this.finished.size > 0 && this.running.size === 0;
  }
}
