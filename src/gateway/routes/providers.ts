// The provider registry on the sidecar (spec document 1 "Provider registry"): the same ProviderRegistry object
// the guardrail proxy forwards with (src/proxy/providers.ts), so a reload through either listener serves both.
// Unlike the proxy's GET, the sidecar's needs the gateway token, as every sidecar route does.
import Type from 'typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { loadConfigFile } from '../../config/load.js';
import { WardenError } from '../../errors.js';
import type { ProviderRegistry } from '../../proxy/providers.js';
import type { GatewayContext } from '../context.js';

const ReloadAnswer = Type.Object({ status: Type.Literal('reloaded'), providers: Type.Integer(), loaded_at: Type.String() });

export function providerRoutes(fastify: FastifyInstance, ctx: GatewayContext, registry: ProviderRegistry): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  // GET also answers HEAD (Fastify exposeHeadRoutes).
  app.get('/v1/config/providers', async () => {
    const { providers, status } = registry.list();
    return { providers, ...status };
  });

  app.post('/v1/config/providers/reload', { schema: { response: { 200: ReloadAnswer } } }, async () => {
    const result = registry.reload(() => loadConfigFile(ctx.settings.path).config);
    if (!result.ok) throw new WardenError('WARDEN_ERR_PROVIDERS_RELOAD', `reload refused, registry unchanged: ${result.error}`, { statusCode: 422 });
    const { providers, status } = registry.list();
    return { status: 'reloaded' as const, providers: providers.length, loaded_at: status.loaded_at };
  });
}
