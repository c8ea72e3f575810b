// Requests to the LLM provider, over undici's pooled keep-alive agent (DESIGN.md: undici for upstream HTTP).
// Failures become the proxy's answers: no connection → 502, no progress within llm.timeout_ms → 504.
import { Agent, type Dispatcher } from 'undici';
import { WardenError } from '../errors.js';

export interface UpstreamRequest {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: Buffer | undefined;
  signal: AbortSignal;
}

/** The model provider could not be reached (502) or did not answer in time (504). */
export class UpstreamFailure extends WardenError {
  declare readonly statusCode: 502 | 504;
  constructor(statusCode: 502 | 504, message: string) {
    super(statusCode === 504 ? 'WARDEN_ERR_PROXY_UPSTREAM_TIMEOUT' : 'WARDEN_ERR_PROXY_UPSTREAM_FAILED', message, { statusCode });
  }
}

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

/** What went wrong talking to the upstream, as a status and a message safe to show (no credentials in it). */
export function upstreamFailure(err: unknown): UpstreamFailure {
  if (err instanceof UpstreamFailure) return err;
  const code = (err as { code?: string }).code ?? '';
  if (TIMEOUT_CODES.has(code)) return new UpstreamFailure(504, 'the upstream provider did not answer in time');
  return new UpstreamFailure(502, `the upstream provider could not be reached (${code || 'connection failed'})`);
}

export class Upstream {
  private readonly agent: Agent;

  constructor(timeoutMs: number) {
    this.agent = new Agent({
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      connect: { timeout: Math.min(timeoutMs, 10_000) },
      keepAliveTimeout: 30_000,
    });
  }

  async send(request: UpstreamRequest): Promise<Dispatcher.ResponseData> {
    try {
      return await this.agent.request({
        origin: request.url.origin,
        path: request.url.pathname + request.url.search,
        method: request.method as Dispatcher.HttpMethod,
        headers: request.headers,
        body: request.body,
        signal: request.signal,
      });
    } catch (err) {
      throw upstreamFailure(err);
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
