// Which address the sidecar listens on (spec, "What the service does" item 4).
import { isIP } from 'node:net';
import type { Config } from './schema.js';

export function sidecarBindAddress(config: Config): string {
  if (config.gateway.api_bind !== '') return config.gateway.api_bind;
  // Legacy standalone sandbox hosts served the sidecar on the guardrail host; keep that until cleanup.
  const inherited = config.guardrail.host;
  if (config.openshell.mode === 'standalone' && inherited !== '' && inherited !== 'localhost') return inherited;
  return '127.0.0.1';
}

export function isLoopbackAddress(host: string): boolean {
  if (host === 'localhost' || host === '::1') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host.toLowerCase().startsWith('::ffff:127.');
}

/** The address a local client should connect to for a listener bound to `bind`. */
export function connectAddress(bind: string): string {
  if (bind === '0.0.0.0' || bind === '') return '127.0.0.1';
  if (bind === '::') return '::1';
  return bind;
}

export function httpUrl(host: string, port: number): string {
  return `http://${isIP(host) === 6 ? `[${host}]` : host}:${port}`;
}
