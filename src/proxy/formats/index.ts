// Picks the wire format for a request path. The proxy serves many providers behind one listener, and the
// path is the one thing every provider's clients set the same way, so the choice is made from it alone.
import { anthropic } from './anthropic.js';
import { gemini } from './gemini.js';
import { generic } from './generic.js';
import { ollama } from './ollama.js';
import { openAIChat } from './openai-chat.js';
import { openAIResponses } from './openai-responses.js';
import type { ProviderFormat } from './types.js';

export type { FormatName, ProviderFormat, RequestView, ResponseView, StreamDecoder, StreamDelta, StreamEvent, ToolCall } from './types.js';
export { anthropic, gemini, generic, ollama, openAIChat, openAIResponses };

export function formatForPath(path: string): ProviderFormat {
  // The query string (`?alt=sse`, Azure's `?api-version=`) and a trailing slash say nothing about the format.
  const route = path.replace(/[?#].*$/s, '').replace(/\/+$/, '');
  if (route.includes(':generateContent') || route.includes(':streamGenerateContent')) return gemini;
  if (route.endsWith('/chat/completions')) return openAIChat;
  if (route.endsWith('/responses')) return openAIResponses;
  if (route.endsWith('/messages')) return anthropic;
  if (route.endsWith('/api/chat') || route.endsWith('/api/generate')) return ollama;
  return generic;
}
