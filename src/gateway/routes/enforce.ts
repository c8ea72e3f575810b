// The /enforce routes (spec document 1 "Enforcement lists"): the operator blocks and allows skills, MCP servers,
// plugins and tools. Thin: the lists live in config.yaml and are edited by policy/lists.ts; a change is applied
// to the running settings, recorded as an audit row, and only then answered.
import Type from 'typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ASSET_TYPES, AssetReason, AssetSourcePath, assetEntryFields, oneOf, type AssetType } from '../../config/schema.js';
import { listEntries, putEntry, removeEntry, type AssetEntry, type ListChange } from '../../policy/lists.js';
import { callerClient } from '../caller-data.js';
import type { GatewayContext } from '../context.js';
import { applyWrittenSection } from '../reload.js';

const TargetType = oneOf(ASSET_TYPES, { description: 'What the entry names: `skill`, `mcp` (server), `plugin` or `tool`.' });
// The entry fields keep config.yaml's bounds; the reason is optional without the config's default.
const { name: Name, connector: Connector } = assetEntryFields;

const BlockBody = Type.Object(
  { target_type: TargetType, name: Name, connector: Connector, reason: Type.Optional(AssetReason) },
  { additionalProperties: false },
);
const AllowBody = Type.Object(
  { target_type: TargetType, name: Name, connector: Connector, reason: Type.Optional(AssetReason), source_path_contains: Type.Optional(AssetSourcePath) },
  { additionalProperties: false },
);

const Entry = Type.Object({ name: Type.String(), connector: Type.Optional(Type.String()), reason: Type.String(), source_path_contains: Type.Optional(Type.String()) });
const ListName = oneOf(['denied', 'allowed'] as const);

const ChangeAnswer = Type.Object({
  status: oneOf(['added', 'updated', 'removed'] as const),
  target_type: TargetType,
  list: ListName,
  entry: Entry,
  moved_from: Type.Optional(ListName),
  upstream: Type.Optional(oneOf(['enabled', 'disabled', 'not connected', 'failed'] as const, {
    description: 'For a skill or plugin: what the upstream agent gateway was asked. A block disables it there and an ' +
      'allow enables it; `not connected` when no upstream client exists, `failed` (with `upstream_error`) when the ' +
      'call failed. The list change is made either way.',
  })),
  upstream_error: Type.Optional(Type.String()),
});

const ListQuery = Type.Object({ target_type: Type.Optional(TargetType) }, { additionalProperties: false });
const ListAnswer = Type.Object({ entries: Type.Array(Type.Object({ target_type: TargetType, ...Entry.properties })) });

/** Asset types whose block and allow are also asked of the upstream agent gateway (disable and enable). */
const UPSTREAM_ENABLED: ReadonlySet<AssetType> = new Set(['skill', 'plugin']);

/** Asks the upstream gateway to enable or disable a skill or plugin; the list change stands whatever it answers. */
async function askUpstream(ctx: GatewayContext, type: AssetType, name: string, enabled: boolean) {
  if (!UPSTREAM_ENABLED.has(type)) return {};
  if (!ctx.upstream) return { upstream: 'not connected' as const };
  try {
    await (type === 'skill' ? ctx.upstream.setSkillEnabled(name, enabled) : ctx.upstream.setPluginEnabled(name, enabled));
    return { upstream: enabled ? 'enabled' as const : 'disabled' as const };
  } catch (err) {
    return { upstream: 'failed' as const, upstream_error: (err as Error).message };
  }
}

export function enforceRoutes(fastify: FastifyInstance, ctx: GatewayContext): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  /** Applies a written change to the running config and records it; resolves once the audit row is committed. */
  const commit = async (request: FastifyRequest, action: string, type: AssetType, change: ListChange, why?: string) => {
    applyWrittenSection(ctx, change.config, 'asset_policy');
    const { entry, list, status, moved_from } = change;
    await ctx.audit.append({
      action,
      target: `${type}:${entry.name}`,
      actor: callerClient(request),
      severity: 'INFO',
      connector: entry.connector,
      details: `${type} "${entry.name}" ${status === 'removed' ? 'removed from' : `${status} in`} asset_policy.${type}.${list}` +
        (moved_from ? ` (moved from ${moved_from})` : '') + (why ? `: ${why}` : ''),
      structured: { target_type: type, list, status, entry, ...(moved_from ? { moved_from } : {}), ...(why ? { why } : {}) },
    });
    return { status, target_type: type, list, entry, ...(moved_from ? { moved_from } : {}) };
  };

  app.post('/enforce/block', { schema: { body: BlockBody, response: { 200: ChangeAnswer } } }, async (request) => {
    const { target_type: type, ...fields } = request.body;
    const answer = await commit(request, 'enforce-block', type, putEntry(ctx.settings.path, type, 'denied', entryOf(fields)));
    return { ...answer, ...(await askUpstream(ctx, type, fields.name, false)) };
  });

  app.delete('/enforce/block', { schema: { body: BlockBody, response: { 200: ChangeAnswer } } }, async (request) => {
    // The reason of a removal is why it was lifted: it goes to the audit row (the entry keeps its own reason).
    const { target_type: type, name, connector, reason } = request.body;
    return commit(request, 'enforce-unblock', type, removeEntry(ctx.settings.path, type, 'denied', { name, ...(connector ? { connector } : {}) }), reason);
  });

  app.post('/enforce/allow', { schema: { body: AllowBody, response: { 200: ChangeAnswer } } }, async (request) => {
    const { target_type: type, ...fields } = request.body;
    const answer = await commit(request, 'enforce-allow', type, putEntry(ctx.settings.path, type, 'allowed', entryOf(fields)));
    return { ...answer, ...(await askUpstream(ctx, type, fields.name, true)) };
  });

  app.get('/enforce/blocked', { schema: { querystring: ListQuery, response: { 200: ListAnswer } } }, async (request) => ({
    entries: listEntries(ctx.settings.config, 'denied', request.query.target_type),
  }));

  app.get('/enforce/allowed', { schema: { querystring: ListQuery, response: { 200: ListAnswer } } }, async (request) => ({
    entries: listEntries(ctx.settings.config, 'allowed', request.query.target_type),
  }));
}

function entryOf(fields: { name: string; connector?: string; reason?: string; source_path_contains?: string }): AssetEntry {
  return { ...fields, reason: fields.reason ?? '' };
}
