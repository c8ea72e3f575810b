import type { FastifyInstance } from 'fastify';
import { connectorMode } from '../../connectors/modes.js';
import { activeConnectors } from '../../connectors/registry.js';
import type { GatewayContext } from '../context.js';
import { healthBody } from './health.js';

export function statusRoutes(app: FastifyInstance, ctx: GatewayContext): void {
  app.get('/status', async () => {
    const { config, paths, sha256, path } = ctx.settings;
    const modes = activeConnectors(config).map((c) => connectorMode(c, config));
    return {
      ...healthBody(ctx),
      runtime: { pid: process.pid, data_dir: paths.home, node: process.version },
      provenance: { binary_version: ctx.version, config_path: path, config_sha256: sha256 },
      connector_mode: modes[0],
      connector_modes: modes,
      // The upstream agent gateway's hello (its version, our role and scopes; never its device token).
      ...(ctx.upstream?.client.hello ? { gateway_hello: ctx.upstream.client.hello } : {}),
    };
  });
}
