import Type from 'typebox';
import type { FastifyInstance } from 'fastify';
import { connectorMode } from '../../connectors/modes.js';
import { activeConnectors } from '../../connectors/registry.js';
import { dataDirIdentity } from '../../config/data-dir-identity.js';
import type { GatewayContext } from '../context.js';
import { OpenObject } from './answers.js';
import { healthBody, HealthBody } from './health.js';

const ConnectorModeBody = OpenObject(
  { connector: Type.String(), mode: Type.String(), enforcement_surface: Type.String() },
  'how a connector is enforced (spec "Connector mode")',
);
const StatusBody = Type.Object({
  ...HealthBody.properties,
  runtime: Type.Object({ pid: Type.Integer(), data_dir: Type.String(), data_dir_id: Type.String({ description: 'what POST /api/v1/admin/shutdown asks for' }), node: Type.String() }),
  provenance: Type.Object({ binary_version: Type.String(), config_path: Type.String(), config_sha256: Type.String() }),
  connector_mode: Type.Optional(ConnectorModeBody),
  connector_modes: Type.Array(ConnectorModeBody),
  gateway_hello: Type.Optional(Type.Record(Type.String(), Type.Unknown(), {
    description: "the upstream agent gateway's hello while connected (its version, Warden's role and scopes; never a device token)",
  })),
});

export function statusRoutes(app: FastifyInstance, ctx: GatewayContext): void {
  app.get('/status', { schema: { response: { 200: StatusBody } } }, async () => {
    const { config, paths, sha256, path } = ctx.settings;
    const modes = activeConnectors(config).map((c) => connectorMode(c, config));
    return {
      ...healthBody(ctx),
      runtime: { pid: process.pid, data_dir: paths.home, data_dir_id: dataDirIdentity(paths.home), node: process.version },
      provenance: { binary_version: ctx.version, config_path: path, config_sha256: sha256 },
      connector_mode: modes[0],
      connector_modes: modes,
      // The upstream agent gateway's hello (its version, our role and scopes; never its device token).
      ...(ctx.upstream?.client.hello ? { gateway_hello: ctx.upstream.client.hello } : {}),
    };
  });
}
