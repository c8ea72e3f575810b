// Builds the upstream agent gateway bridge from the settings, or nothing when it is not configured (the
// bridged routes then answer 503). Exists when `gateway.upstream_enabled` is on or the primary connector is
// `openclaw` (a proxy connector: the agent's own gateway is what the bridge talks to).
import { join } from 'node:path';
import type { Settings } from '../config/settings.js';
import { connectAddress, httpUrl } from '../config/bind.js';
import { UpstreamBridge } from './bridge.js';
import { UpstreamGatewayClient, type UpstreamClientOptions } from './client.js';
import { loadDeviceIdentity } from './device-identity.js';

export { UpstreamBridge } from './bridge.js';

function upstreamConfigured(settings: Settings): boolean {
  return settings.config.gateway.upstream_enabled || settings.config.guardrail.connector === 'openclaw';
}

/** The bridge with its client started (it connects and reconnects in the background), or undefined. */
export function openUpstream(settings: Settings, version: string, log: UpstreamClientOptions['log']): UpstreamBridge | undefined {
  if (!upstreamConfigured(settings)) return undefined;
  const { gateway } = settings.config;
  const url = httpUrl(connectAddress(gateway.host), gateway.port).replace(/^http/, 'ws');
  const identity = loadDeviceIdentity(gateway.device_key_file || join(settings.paths.home, 'upstream-device.pem'));
  const token = gateway.upstream_token_env ? (settings.env[gateway.upstream_token_env] ?? '') : '';
  const client = new UpstreamGatewayClient({ url, token, identity, clientVersion: version, log });
  client.start();
  return new UpstreamBridge(client);
}
