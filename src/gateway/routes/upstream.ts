// The upstream agent gateway bridge routes (spec document 1 "Asset enable and disable, inventory, config
// bridge"): skill and plugin enablement, the skill inventory, the tools catalog and config patches are asked
// of the connected upstream gateway (src/upstream/); GET /mcps reads the active connector's own configuration.
// 503 when no upstream client exists, 502 when the call fails or the connection is down or drops mid-call.
// None of them writes config.yaml or touches files on disk.
import Type from 'typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { connectorMcpServers } from '../../scanners/mcp/connector-servers.js';
import { homeOf } from '../../scanners/paths.js';
import { UpstreamNotConfiguredError } from '../../upstream/errors.js';
import type { UpstreamBridge } from '../../upstream/index.js';
import type { GatewayContext } from '../context.js';

const Key = (description: string) => Type.String({ minLength: 1, maxLength: 256, description });
const SkillBody = Type.Object({ skillKey: Key('The skill\'s key in the upstream gateway (`skillKey` of GET /skills).') }, { additionalProperties: false });
const PluginBody = Type.Object({ pluginId: Key('The plugin\'s id in the upstream gateway (`plugins.entries.<id>`).') }, { additionalProperties: false });
const SkillAnswer = Type.Object({ status: Type.Union([Type.Literal('disabled'), Type.Literal('enabled')]), skillKey: Type.String() });
const PluginAnswer = Type.Object({ status: Type.Union([Type.Literal('disabled'), Type.Literal('enabled')]), pluginId: Type.String() });
const PatchBody = Type.Object(
  {
    path: Type.String({ minLength: 1, maxLength: 1024, description: 'Dot-separated path in the upstream gateway\'s configuration, e.g. `tools.profile`.' }),
    value: Type.Unknown({ description: 'The JSON value merged at that path (config.patch semantics: objects merge).' }),
  },
  { additionalProperties: false },
);
const Upstream = Type.Unknown({ description: 'The upstream gateway\'s answer payload, as it sent it.' });
const PatchAnswer = Type.Object({ status: Type.Literal('patched'), path: Type.String(), upstream: Upstream });
const McpEntry = Type.Object({
  name: Type.String(),
  command: Type.Optional(Type.String()),
  args: Type.Array(Type.String()),
  url: Type.Optional(Type.String()),
  source: Type.Optional(Type.String({ description: 'The configuration file the entry was read from.' })),
});

export function upstreamRoutes(fastify: FastifyInstance, ctx: GatewayContext): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const bridge = (): UpstreamBridge => {
    if (!ctx.upstream) throw new UpstreamNotConfiguredError();
    return ctx.upstream;
  };

  for (const enabled of [false, true]) {
    const status = enabled ? 'enabled' as const : 'disabled' as const;
    const verb = enabled ? 'enable' : 'disable';
    app.post(`/skill/${verb}`, { schema: { body: SkillBody, response: { 200: SkillAnswer } } }, async (request) => {
      await bridge().setSkillEnabled(request.body.skillKey, enabled);
      return { status, skillKey: request.body.skillKey };
    });
    app.post(`/plugin/${verb}`, { schema: { body: PluginBody, response: { 200: PluginAnswer } } }, async (request) => {
      await bridge().setPluginEnabled(request.body.pluginId, enabled);
      return { status, pluginId: request.body.pluginId };
    });
  }

  app.get('/skills', { schema: { response: { 200: Upstream } } }, async () => bridge().skillsStatus());
  app.get('/tools/catalog', { schema: { response: { 200: Upstream } } }, async () => bridge().toolsCatalog());

  app.post('/config/patch', { schema: { body: PatchBody, response: { 200: PatchAnswer } } }, async (request) => {
    const { path, value } = request.body;
    return { status: 'patched' as const, path, upstream: await bridge().patchConfig(path, value) };
  });

  app.get('/mcps', { schema: { response: { 200: Type.Array(McpEntry) } } }, async () =>
    connectorMcpServers(ctx.settings.config.guardrail.connector, homeOf(ctx.settings.env)));
}
