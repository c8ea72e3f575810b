// How the CLI reaches the local gateway: the address the running gateway recorded in $WARDEN_HOME/gateway.json
// (or, when none runs, the one config.yaml names) and the token from the same sources the gateway reads.
import { connectAddress, httpUrl, sidecarBindAddress } from '../config/bind.js';
import { loadSettings, type Settings } from '../config/settings.js';
import { runningGateway } from '../gateway/process-record.js';

export interface LocalGateway {
  settings: Settings;
  url: string;
  headers: Record<string, string>;
}

export function localGateway(env: NodeJS.ProcessEnv = process.env): LocalGateway {
  const settings = loadSettings({ env });
  const running = runningGateway(settings.paths.pidFile);
  const url = running?.sidecar ?? httpUrl(connectAddress(sidecarBindAddress(settings.config)), settings.config.gateway.api_port);
  const headers: Record<string, string> = { 'x-warden-client': 'warden-cli' };
  if (settings.token) headers.authorization = `Bearer ${settings.token.token}`;
  return { settings, url, headers };
}

export async function getJson(gateway: LocalGateway, path: string, timeoutMs = 3000): Promise<unknown> {
  const response = await fetch(`${gateway.url}${path}`, { headers: gateway.headers, signal: AbortSignal.timeout(timeoutMs) });
  const body = (await response.json().catch(() => ({}))) as { error?: string };
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}${body.error ? `: ${body.error}` : ''}`);
  return body;
}

/** The gateway's answer to a POST: its status and its JSON body (`{}` when the body is not JSON). */
export interface PostAnswer<T extends object> {
  ok: boolean;
  status: number;
  body: Partial<T>;
}

/** A POST to the gateway with `body` as JSON (none when undefined). Throws when the gateway cannot be reached
 *  (describeFetchError names why). */
export async function postJson<T extends object>(gateway: LocalGateway, path: string, body?: unknown, timeoutMs = 10_000): Promise<PostAnswer<T>> {
  const response = await fetch(`${gateway.url}${path}`, {
    method: 'POST',
    headers: { ...gateway.headers, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  return { ok: response.ok, status: response.status, body: (await response.json().catch(() => ({}))) as Partial<T> };
}

/** The message of a failed fetch, with the network cause that undici hides in `cause`. */
export function describeFetchError(err: unknown): string {
  const error = err as Error & { cause?: { code?: string; message?: string } };
  return error.cause?.code ?? error.cause?.message ?? error.message;
}
