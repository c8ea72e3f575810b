// /api/v1/fleet (spec document 2), mounted only when fleet.enabled: its own bearer tokens (admin or tenant),
// tenant scoping on every route, and the device registration and key routes. Thin: the work is in src/fleet.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { isLoopbackAddress } from '../../config/bind.js';
import type { FleetCaller } from '../../fleet/auth.js';
import type { FleetContext } from '../../fleet/context.js';
import { WardenError } from '../../errors.js';
import { errorAnswer } from '../plugins/errors.js';
import { FleetUnavailable } from '../../fleet/devices.js';
import { parseCompositeId, type DeviceAddress } from '../../fleet/ids.js';
import { compilePolicy, PolicyCompileError } from '../../fleet/device-policy/compile.js';
import { pushPolicy } from '../../fleet/device-policy/push.js';
import { EMERGENCY_COMMANDS } from '../../fleet/emergency.js';
import { publishEmergency } from '../../fleet/emergency-publish.js';
import { PROMETHEUS_CONTENT_TYPE } from '../../fleet/metrics.js';
import { HASH, pushThreatIntel } from '../../fleet/threat-intel.js';
import { oneOf } from '../../config/schema.js';
import { isProfile, PROFILE_LIMITS } from '../../fleet/device-policy/schema.js';
import { bearerToken } from '../../util/bearer.js';
import { acceptNoBody, NO_BODY_LIMIT } from '../plugins/no-body.js';

export const FLEET_PREFIX = '/api/v1/fleet';

const U16 = Type.Integer({ minimum: 0, maximum: 0xffff });
const Address = { tenant_id: U16, fleet_id: U16, device_id: Type.Integer({ minimum: 1, maximum: 0xffffffff }) };
const RegisterBody = Type.Object(
  {
    ...Address,
    hw_profile: Type.Optional(Type.String({ maxLength: 128 })),
    fw_version: Type.Optional(Type.String({ maxLength: 64 })),
    policy_version: Type.Optional(U16),
    capabilities: Type.Optional(Type.Integer({ minimum: 0, maximum: 0xff })),
    force_reregister: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
const BatchBody = Type.Object({ devices: Type.Array(Type.Object(Address, { additionalProperties: false }), { minItems: 1, maxItems: 10_000 }) }, { additionalProperties: false });
const IdParams = Type.Object({ id: Type.String({ maxLength: 32 }) });
const PushBody = Type.Object(
  { tenant_id: U16, fleet_id: U16, policy_yaml: Type.String({ minLength: 1, maxLength: 512 * 1024 }), profile: Type.Optional(Type.String({ maxLength: 32 })) },
  { additionalProperties: false },
);
const VersionsQuery = Type.Object({ tenant_id: Type.Optional(Type.String()), fleet_id: Type.Optional(Type.String()) });
const u16Of = (text: string | undefined) => (text !== undefined && /^(0|[1-9][0-9]{0,4})$/.test(text) && Number(text) <= 0xffff ? Number(text) : undefined);
const EmergencyBody = Type.Object({ tenant_id: U16, fleet_id: U16, command: oneOf(EMERGENCY_COMMANDS) }, { additionalProperties: false });
const ThreatIntelBody = Type.Object(
  { revoke_allow_hashes: Type.Optional(Type.Array(Type.String({ maxLength: 128 }), { maxItems: 10_000 })), emergency: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
const SimulateBody = Type.Object(
  { policy_yaml: Type.String({ minLength: 1, maxLength: 512 * 1024 }), profile: Type.Optional(Type.String({ maxLength: 32 })) },
  { additionalProperties: false },
);

declare module 'fastify' {
  interface FastifyRequest {
    fleetCaller?: FleetCaller;
  }
}

// Codes of the fleet answers this file writes more than once (docs/errors.md).
const INVALID = 'WARDEN_ERR_REQUEST_INVALID';
const TENANT_FORBIDDEN = 'WARDEN_ERR_AUTH_TENANT_FORBIDDEN';
const ADMIN_REQUIRED = 'WARDEN_ERR_AUTH_ADMIN_REQUIRED';
const DEVICE_NOT_FOUND = 'WARDEN_ERR_FLEET_DEVICE_NOT_FOUND';
const ROTATED_TOO_SOON = 'WARDEN_ERR_FLEET_ROTATED_TOO_SOON';

const mayReach = (caller: FleetCaller, tenantId: number) => caller.role === 'admin' || caller.tenant_id === tenantId;
const actorOf = (caller: FleetCaller) => (caller.role === 'admin' ? 'fleet-admin' : `fleet-tenant-${caller.tenant_id}`);

export function fleetRoutes(fastify: FastifyInstance, fleet: FleetContext): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.addHook('onRequest', (request, reply, done) => {
    const caller = fleet.auth.identify(bearerToken(request.headers.authorization));
    if (!caller) return void reply.code(401).header('www-authenticate', 'Bearer').send({ error: 'missing or invalid fleet API token', code: 'WARDEN_ERR_AUTH_FLEET_TOKEN' });
    request.fleetCaller = caller;
    done();
  });
  app.setErrorHandler((error: FastifyError | WardenError, request, reply) => {
    if (error instanceof FleetUnavailable) return reply.code(503).send({ error: 'fleet store or credential audit unavailable; nothing was changed, retry later', code: error.code });
    const { status, body, unexpected } = errorAnswer(error);
    if (unexpected) request.log.error({ err: error }, 'fleet request failed');
    // Spec document 2: a request that fails its schema is 'invalid request', the problem in `detail`.
    if ('validation' in error && error.validation) return reply.code(400).send({ error: 'invalid request', code: body.code, detail: error.message });
    return reply.code(status).send(body);
  });

  /** Keys are secrets: they travel in clear over plain HTTP only on loopback, unless TLS is terminated before us. */
  const keyChannelRefused = (request: FastifyRequest, reply: FastifyReply) => {
    if (fleet.trustedTlsProxy || isLoopbackAddress(request.socket.localAddress ?? '')) return false;
    void reply.code(403).send({ error: 'device keys are not delivered over plain HTTP beyond loopback', code: 'WARDEN_ERR_FLEET_KEY_CHANNEL', detail: 'serve the API behind TLS and set fleet.trusted_tls_proxy' });
    return true;
  };
  const deviceParam = (id: string, caller: FleetCaller, reply: FastifyReply): DeviceAddress | undefined => {
    const address = parseCompositeId(id);
    if (!address) return void reply.code(400).send({ error: 'invalid device id: a decimal uint64 composite id is expected', code: INVALID });
    if (!mayReach(caller, address.tenant_id)) return void reply.code(403).send({ error: 'token not authorized for this tenant', code: TENANT_FORBIDDEN });
    return address;
  };

  app.get('/devices', async (request) => {
    const caller = request.fleetCaller!;
    const devices = await fleet.devices.list(caller.role === 'tenant' ? caller.tenant_id : undefined);
    const count = (status: string) => devices.filter((d) => d.status === status).length;
    return { devices, summary: { total: devices.length, online: count('online'), offline: count('offline'), degraded: count('degraded'), lockdown: count('lockdown') } };
  });

  app.post('/devices', { schema: { body: RegisterBody } }, async (request, reply) => {
    if (!mayReach(request.fleetCaller!, request.body.tenant_id)) return reply.code(403).send({ error: 'token not authorized for this tenant', code: TENANT_FORBIDDEN });
    if (keyChannelRefused(request, reply)) return reply;
    const result = await fleet.devices.register(request.body, actorOf(request.fleetCaller!));
    if (result.status === 409) return reply.code(409).send({ error: result.error, code: 'WARDEN_ERR_FLEET_DEVICE_CONFLICT' });
    return reply.code(result.status).send({ device: result.device, device_key: result.device_key });
  });

  app.get('/devices/:id', { schema: { params: IdParams } }, async (request, reply) => {
    const address = deviceParam(request.params.id, request.fleetCaller!, reply);
    if (!address) return reply;
    const device = await fleet.devices.get(address);
    return device ?? reply.code(404).send({ error: 'device not found', code: DEVICE_NOT_FOUND });
  });

  // The two routes without a body, in their own encapsulated instance so an empty JSON body is accepted there
  // only (they inherit the token check and the error handler above).
  app.register(async (instance) => {
    acceptNoBody(instance);
    const noBody = instance.withTypeProvider<TypeBoxTypeProvider>();
    const options = { bodyLimit: NO_BODY_LIMIT };

    noBody.post('/devices/:id/rotate-key', { ...options, schema: { params: IdParams } }, async (request, reply) => {
      const address = deviceParam(request.params.id, request.fleetCaller!, reply);
      if (!address) return reply;
      if (keyChannelRefused(request, reply)) return reply;
      const result = await fleet.devices.rotateKey(address, actorOf(request.fleetCaller!));
      if (result.status !== 200) {
        if (result.status === 429) reply.header('retry-after', '60');
        return reply.code(result.status).send({ error: result.error, code: result.status === 429 ? ROTATED_TOO_SOON : DEVICE_NOT_FOUND });
      }
      return { device_id: result.device_id, device_key: result.device_key, status: 'rotated' };
    });

    noBody.post('/token/rotate', options, async (request, reply) => {
      if (request.fleetCaller!.role !== 'admin') return reply.code(403).send({ error: 'admin token required', code: ADMIN_REQUIRED });
      const token = fleet.auth.rotate();
      if (!token) return reply.code(429).header('retry-after', '60').send({ error: 'the API token can be rotated once per minute', code: ROTATED_TOO_SOON });
      return { token, note: 'in memory only: update WARDEN_FLEET_API_TOKEN before the next restart' };
    });
  });

  app.post('/policy/push', { schema: { body: PushBody } }, async (request, reply) => {
    if (!mayReach(request.fleetCaller!, request.body.tenant_id)) return reply.code(403).send({ error: 'token not authorized for this tenant', code: TENANT_FORBIDDEN });
    const result = await pushPolicy(fleet, request.body);
    return reply.code(result.status).send(result.body);
  });

  app.get('/policy/versions', { schema: { querystring: VersionsQuery } }, async (request, reply) => {
    const tenant = u16Of(request.query.tenant_id);
    const fleetId = u16Of(request.query.fleet_id);
    if (tenant === undefined || fleetId === undefined) return reply.code(400).send({ error: 'tenant_id and fleet_id (uint16) are required', code: INVALID });
    if (!mayReach(request.fleetCaller!, tenant)) return reply.code(403).send({ error: 'token not authorized for this tenant', code: TENANT_FORBIDDEN });
    return { tenant_id: tenant, fleet_id: fleetId, versions: await fleet.store.listPolicyVersions(tenant, fleetId) };
  });

  app.post('/policy/emergency', { schema: { body: EmergencyBody } }, async (request, reply) => {
    const { tenant_id: tenant, fleet_id: fleetId, command } = request.body;
    if (!mayReach(request.fleetCaller!, tenant)) return reply.code(403).send({ error: 'token not authorized for this tenant', code: TENANT_FORBIDDEN });
    const result = await publishEmergency(fleet, tenant, fleetId, command);
    return reply.code(result.status).send(result.body);
  });

  app.post('/policy/simulate', { schema: { body: SimulateBody } }, async (request, reply) => {
    const profile = request.body.profile ?? 'standard';
    if (!isProfile(profile)) return reply.code(400).send({ error: `unsupported profile "${profile}"`, code: INVALID, detail: `use one of ${Object.keys(PROFILE_LIMITS).join(', ')}` });
    let compiled;
    try {
      compiled = compilePolicy(request.body.policy_yaml);
    } catch (err) {
      if (err instanceof PolicyCompileError) return reply.code(422).send({ error: 'policy cannot be compiled', code: err.code, detail: err.message });
      throw err;
    }
    return {
      blob_size: compiled.blob.length,
      payload_len: compiled.payloadLength,
      canary_baseline: compiled.canaryBaseline,
      fits_target_profile: compiled.blob.length <= PROFILE_LIMITS[profile],
      status: 'simulated',
    };
  });

  app.post('/threat-intel/push', { schema: { body: ThreatIntelBody } }, async (request, reply) => {
    // The verdict cache and the device caches it flushes are shared by every tenant: admin only.
    if (request.fleetCaller!.role !== 'admin') return reply.code(403).send({ error: 'admin token required', code: ADMIN_REQUIRED });
    const hashes = request.body.revoke_allow_hashes ?? [];
    const bad = hashes.find((h) => !HASH.test(h));
    if (bad !== undefined) return reply.code(400).send({ error: 'invalid hash', code: INVALID, detail: 'each hash is 64 hex digits (a 32-byte SHA-256)' });
    const result = await pushThreatIntel(fleet, hashes, request.body.emergency ?? false);
    return reply.code(result.status).send(result.body);
  });

  app.get('/health', async (request) => {
    const caller = request.fleetCaller!;
    const devices = await fleet.devices.list(caller.role === 'tenant' ? caller.tenant_id : undefined);
    const count = (status: string) => devices.filter((d) => d.status === status).length;
    const versions: Record<string, number> = {};
    for (const d of devices) versions[d.policy_version] = (versions[d.policy_version] ?? 0) + 1;
    const summary = { total_devices: devices.length, online: count('online'), offline: count('offline'), degraded: count('degraded'), lockdown: count('lockdown'), policy_versions: versions };
    // A tenant sees its own fleet only; the cache statistics are the gateway's, so they stay with the admin.
    if (caller.role === 'tenant') return { fleet: summary };
    return { fleet: summary, cache_hits: fleet.cache.hits, cache_misses: fleet.cache.misses, cache_size: fleet.cache.size };
  });

  app.get('/metrics', async (request, reply) => {
    if (request.fleetCaller!.role !== 'admin') return reply.code(403).send({ error: 'admin token required', code: ADMIN_REQUIRED });
    return reply.type(PROMETHEUS_CONTENT_TYPE).send(await fleet.metrics.registry.metrics());
  });

  app.post('/devices/decommission-batch', { schema: { body: BatchBody } }, async (request, reply) => {
    const caller = request.fleetCaller!;
    const result = await fleet.devices.decommissionBatch(request.body.devices, (a) => mayReach(caller, a.tenant_id), actorOf(caller));
    return reply.code(result.status).send(result.body);
  });
}
