// The model call shared by the LLM judge and the meta reviewer: one OpenAI-compatible chat completion asking
// for JSON that follows a schema, the provider-reported token usage added to the scan, and the answer parsed
// even when a model ignores response_format and wraps its JSON in prose or a code fence.
//
// Environment: SKILL_SCANNER_LLM_API_KEY (required), SKILL_SCANNER_LLM_BASE_URL (default
// https://api.openai.com/v1; `/chat/completions` is appended), SKILL_SCANNER_LLM_MODEL (default gpt-4o-mini),
// and the per-call deadline SKILL_SCANNER_LLM_TIMEOUT_MS, else SKILL_SCANNER_HTTP_TIMEOUT_MS, else 60 s (not the
// lookups' 10 s: a model reading a 60 KB skill routinely takes longer than that).
import { AnalyzerUnavailable, type AnalyzerContext } from '../types.js';
import { envVar } from '../../config/env.js';
import { joinUrl, requestJson, serviceUrl } from './http.js';

export const DEFAULT_LLM_TIMEOUT_MS = 60_000;

export interface LlmConfig {
  endpoint: URL;
  apiKey: string;
  model: string;
  timeoutMs: number;
}

/** The model settings from the environment; AnalyzerUnavailable (HTTP 400 on /scan) without a key. */
export function llmConfig(env: AnalyzerContext['env'], analyzer: string): LlmConfig {
  const apiKey = envVar(env, 'SKILL_SCANNER_LLM_API_KEY');
  if (!apiKey) throw new AnalyzerUnavailable(`the ${analyzer} analyzer needs SKILL_SCANNER_LLM_API_KEY`);
  let base: URL;
  try {
    base = serviceUrl(env, 'SKILL_SCANNER_LLM_BASE_URL');
  } catch (err) {
    throw new AnalyzerUnavailable(`the ${analyzer} analyzer cannot be built: ${(err as Error).message}`);
  }
  return {
    endpoint: joinUrl(base, '/chat/completions'),
    apiKey,
    model: envVar(env, 'SKILL_SCANNER_LLM_MODEL')!,
    timeoutMs: envVar(env, 'SKILL_SCANNER_LLM_TIMEOUT_MS') ?? envVar(env, 'SKILL_SCANNER_HTTP_TIMEOUT_MS', { fallback: DEFAULT_LLM_TIMEOUT_MS })!,
  };
}

export interface JsonChat {
  system: string;
  user: string;
  /** Name and JSON schema for `response_format: {type: 'json_schema'}` (strict mode). */
  schemaName: string;
  schema: Record<string, unknown>;
}

/**
 * The first JSON object in `text` that parses: the whole text, else each `{` in turn up to its matching `}`
 * (strings honoured), so prose or a ```json fence around the object does not matter.
 */
export function extractJsonObject(text: string): Record<string, unknown> | undefined {
  const asObject = (value: unknown) => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined);
  try {
    return asObject(JSON.parse(text));
  } catch {
    // not bare JSON: look inside
  }
  for (let start = text.indexOf('{'); start !== -1; start = text.indexOf('{', start + 1)) {
    let depth = 0;
    let inString = false;
    for (let i = start; i < text.length; i++) {
      const ch = text[i];
      if (inString) {
        if (ch === '\\') i++;
        else if (ch === '"') inString = false;
      } else if (ch === '"') inString = true;
      else if (ch === '{') depth++;
      else if (ch === '}' && --depth === 0) {
        try {
          const found = asObject(JSON.parse(text.slice(start, i + 1)));
          if (found) return found;
        } catch {
          // balanced but not JSON (e.g. a code sample in prose): try the next `{`
        }
        break;
      }
    }
  }
  return undefined;
}

const tokens = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : 0);

/** Sends one chat completion; returns the JSON object the model answered with, or throws. */
export async function chatJson(config: LlmConfig, chat: JsonChat, ctx: AnalyzerContext): Promise<Record<string, unknown>> {
  const answer = await requestJson({
    service: 'LLM', method: 'POST', url: config.endpoint, bearer: config.apiKey, timeoutMs: config.timeoutMs, signal: ctx.signal,
    // No temperature: some models accept only their default, and consensus runs need the default's variety.
    body: {
      model: config.model,
      messages: [{ role: 'system', content: chat.system }, { role: 'user', content: chat.user }],
      response_format: { type: 'json_schema', json_schema: { name: chat.schemaName, strict: true, schema: chat.schema } },
    },
  });
  const body = (answer ?? {}) as { usage?: Record<string, unknown>; choices?: { message?: { content?: unknown; refusal?: unknown } }[] };
  // Tokens were spent whatever the content turns out to be, so usage is counted before it is judged.
  if (body.usage && typeof body.usage === 'object') {
    const input = tokens(body.usage.prompt_tokens);
    const output = tokens(body.usage.completion_tokens);
    ctx.addUsage({ input_tokens: input, output_tokens: output, total_tokens: tokens(body.usage.total_tokens) || input + output });
  }
  const message = Array.isArray(body.choices) ? body.choices[0]?.message : undefined;
  if (typeof message?.refusal === 'string' && message.refusal) throw new Error('the LLM refused to answer');
  if (typeof message?.content !== 'string') throw new Error('the LLM answer has no message content');
  const parsed = extractJsonObject(message.content);
  if (!parsed) throw new Error('the LLM answer holds no JSON object');
  return parsed;
}
