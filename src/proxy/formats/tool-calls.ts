// A tool call as the formats hand it to the guardrail, built from the two ways providers send arguments: a
// JSON string (OpenAI, Responses, streamed Anthropic input) or a JSON value (Anthropic `input`, Gemini
// `args`, Ollama `arguments`). Arguments that do not parse keep their raw text and no parsed object.
import { isObject, parseJson } from '../../util/json.js';
import type { ToolCall } from './types.js';

/** A tool call whose arguments arrive as a JSON string. */
export function toolCallFromArguments(name: string, raw: string): ToolCall {
  const parsed = parseJson(raw);
  return { name, raw, args: isObject(parsed) ? parsed : undefined };
}

/** A tool call whose arguments arrive as a JSON value. */
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
