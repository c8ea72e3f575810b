// How `warden sandbox` talks to the running gateway's sandbox API: the local gateway's address and token
// (local-gateway.ts), the CSRF client header, JSON bodies, and the sandbox error body turned into an
// operator error carrying the stable WARDEN_ERR_SANDBOX_* code (so the CLI prints one line).
import { WardenError } from '../errors.js';
import { SANDBOX_API_CODES, type SandboxApiCode } from '../sandbox/errors.js';
import { describeFetchError, localGateway, type LocalGateway } from './local-gateway.js';

const PREFIX = '/api/v1/sandbox';
/** Creating a sandbox may build its harness image first. */
const TIMEOUT_MS = 300_000;

export class SandboxClient {
  readonly gateway: LocalGateway;

  constructor(env: NodeJS.ProcessEnv = process.env) {
    this.gateway = localGateway(env);
    this.gateway.headers['x-warden-client'] = 'warden-sandbox';
  }

  async call<T = Record<string, unknown>>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${this.gateway.url}${PREFIX}${path}`, {
        method,
        headers: { ...this.gateway.headers, ...(method === 'GET' ? {} : { 'content-type': 'application/json' }) },
        ...(method === 'GET' ? {} : { body: JSON.stringify(body ?? {}) }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (err) {
      throw new WardenError('WARDEN_ERR_SANDBOX_UNAVAILABLE', `gateway not reachable at ${this.gateway.url}: ${describeFetchError(err)} (start it with: warden start)`);
    }
    const text = await response.text();
    let answer: Record<string, unknown> = {};
    try {
      answer = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
    } catch {
      // Not JSON: reported below with the status.
    }
    if (!response.ok) {
      const apiCode = String(answer.code ?? '');
      const code = apiCode in SANDBOX_API_CODES ? SANDBOX_API_CODES[apiCode as SandboxApiCode].code : 'WARDEN_ERR_SANDBOX_INTERNAL';
      const message = typeof answer.error === 'string' ? answer.error : `HTTP ${response.status}`;
      throw new WardenError(code, `${message}${typeof answer.detail === 'string' ? ` (${answer.detail})` : ''}`);
    }
    return answer as T;
  }
}

export const path = (name: string, action = ''): string => `/sandboxes/${encodeURIComponent(name)}${action === '' ? '' : `/${action}`}`;
