// JSON over HTTP for the analyzers that call out (reputation, osv, llm, ai_guard, meta), over undici.
// Every call is a lookup, retried on 429/502/503/504 and dropped connections as retry.ts declares; it has one
// deadline for all its attempts and follows the scan's abort signal; a failure becomes a ServiceError whose message
// names the service, the endpoint (origin and path only: no credentials, no query) and what went wrong, with
// the caller's key and anything secret-shaped masked out of any response excerpt, since the message ends up
// in the scan result's analyzers_failed.
import { request } from 'undici';
import { envVar, type EnvSource } from '../../config/env.js';
import { SCANNER_LIMITS } from '../limits.js';
import { maskSecrets } from '../snippet.js';
import { WardenError } from '../../errors.js';
import { lookupDispatcher } from './retry.js';

/** A hostile or broken endpoint must not make the scanner buffer without bound. */
const MAX_RESPONSE_BYTES = SCANNER_LIMITS.maxServiceAnswerBytes;
const MAX_ERROR_EXCERPT = 200;

/** An analyzer's remote service failed; `status` is the service's answer, not one Warden answers with. */
export class ServiceError extends WardenError {
  /** The HTTP status when the service answered, undefined when it could not be reached or timed out. */
  constructor(message: string, readonly status?: number) {
    super('WARDEN_ERR_SCAN_SERVICE_FAILED', message);
  }
}

/** The deadline of one lookup, retries included: SKILL_SCANNER_HTTP_TIMEOUT_MS (its default is in the env schema). */
export function httpTimeoutMs(env: EnvSource): number {
  return envVar(env, 'SKILL_SCANNER_HTTP_TIMEOUT_MS')!;
}

/** The variables naming an analyzer's service (their defaults, where they have one, are in the env schema). */
type ServiceUrlVariable = 'SKILL_SCANNER_OSV_URL' | 'SKILL_SCANNER_REPUTATION_URL' | 'SKILL_SCANNER_LLM_BASE_URL' | 'AI_GUARD_URL';

/**
 * An http(s) base URL from the environment. The value itself never appears in the error: an operator may have
 * put a token in it.
 */
export function serviceUrl(env: EnvSource, envName: ServiceUrlVariable): URL {
  const text = envVar(env, envName);
  if (!text) throw new Error(`${envName} is not set`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`${envName} is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${envName} must be an http or https URL`);
  return url;
}

/** `path` appended to the base URL's own path, so `https://host/prefix` + `/v1/x` is `https://host/prefix/v1/x`. */
export function joinUrl(base: URL, path: string): URL {
  const joined = new URL(base.href);
  joined.pathname = `${base.pathname.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
  return joined;
}

export interface JsonRequest {
  /** Names the service in error messages: `OSV`, `LLM`… */
  service: string;
  method: 'GET' | 'POST';
  url: URL;
  body?: unknown;
  /** Sent as `Authorization: Bearer …` and masked out of every error message. */
  bearer?: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

const where = (url: URL) => `${url.origin}${url.pathname}`;

/** Sends the request and returns the parsed JSON answer of a 2xx response; throws ServiceError otherwise. */
export async function requestJson(req: JsonRequest): Promise<unknown> {
  const deadline = AbortSignal.timeout(req.timeoutMs);
  const signal = req.signal ? AbortSignal.any([req.signal, deadline]) : deadline;
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'warden-skill-scanner' };
  if (req.body !== undefined) headers['content-type'] = 'application/json';
  if (req.bearer) headers.authorization = `Bearer ${req.bearer}`;
  const fail = (what: string, status?: number) => new ServiceError(`${req.service} request to ${where(req.url)} ${what}`, status);
  const transportFailure = (err: unknown) => {
    if (deadline.aborted) return fail(`timed out after ${req.timeoutMs} ms`);
    if (req.signal?.aborted) return fail('was cancelled');
    const code = (err as { code?: unknown }).code;
    return fail(`failed: could not reach the service (${typeof code === 'string' ? code : 'connection failed'})`);
  };

  let response: Awaited<ReturnType<typeof request>>;
  try {
    response = await request(req.url, {
      method: req.method,
      headers,
      body: req.body === undefined ? undefined : JSON.stringify(req.body),
      signal,
      dispatcher: lookupDispatcher,
    });
  } catch (err) {
    throw transportFailure(err);
  }

  let text: string;
  try {
    text = await readBounded(response.body, response.statusCode < 300 ? MAX_RESPONSE_BYTES : 16 * 1024);
  } catch (err) {
    if (err instanceof ServiceError) throw fail(`failed: ${err.message}`, response.statusCode);
    throw transportFailure(err);
  }
  if (response.statusCode < 200 || response.statusCode >= 300) {
    throw fail(`failed: HTTP ${response.statusCode}${excerpt(text, req.bearer)}`, response.statusCode);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw fail('failed: the answer is not valid JSON', response.statusCode);
  }
}

async function readBounded(body: AsyncIterable<Buffer | string> & { destroy(): void }, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += buffer.length;
    if (size > limit) {
      body.destroy();
      // An error answer only feeds an excerpt, so a long one is cut rather than refused.
      if (limit < MAX_RESPONSE_BYTES) break;
      throw new ServiceError(`the answer is larger than ${limit} bytes`);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A one-line excerpt of an error body, with the caller's key and secret-shaped tokens masked. */
function excerpt(text: string, bearer: string | undefined): string {
  let line = text.replace(/\s+/g, ' ').trim();
  if (bearer) line = line.split(bearer).join('****');
  line = maskSecrets(line);
  if (!line) return '';
  return `: ${line.length > MAX_ERROR_EXCERPT ? `${line.slice(0, MAX_ERROR_EXCERPT - 1)}…` : line}`;
}

/** `fn` over `items` with at most `limit` calls in flight; results in input order; the first failure rejects. */
export async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    // After a failure the others finish what they hold but start nothing new: the answer is already an error.
    while (next < items.length && !failed) {
      const index = next++;
      try {
        results[index] = await fn(items[index]!, index);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
