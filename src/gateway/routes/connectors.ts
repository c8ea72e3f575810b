import Type from 'typebox';
import type { FastifyInstance } from 'fastify';
import { activeConnectors, BUILTIN_CONNECTORS } from '../../connectors/registry.js';
import type { GatewayContext } from '../context.js';

const ConnectorsBody = Type.Object({
  connectors: Type.Array(Type.Object({
    name: Type.String(),
    description: Type.String(),
    source: Type.String(),
    hook_capable: Type.Boolean(),
    hook_events: Type.Array(Type.String()),
    tool_inspection_mode: Type.String(),
    llm_traffic: Type.String(),
    active: Type.Boolean(),
    primary: Type.Boolean(),
  })),
});

export function connectorRoutes(app: FastifyInstance, ctx: GatewayContext): void {
  app.get('/v1/connectors', { schema: { response: { 200: ConnectorsBody } } }, async () => {
    const active = activeConnectors(ctx.settings.config).map((c) => c.name);
    return {
      connectors: BUILTIN_CONNECTORS.map((c) => ({
        name: c.name,
        description: c.description,
        source: c.source,
        hook_capable: c.hook_events.length > 0,
        hook_events: c.hook_events,
        tool_inspection_mode: c.tool_inspection_mode,
        llm_traffic: c.llm_traffic,
        active: active.includes(c.name),
        primary: active[0] === c.name,
      })),
    };
  });
}
