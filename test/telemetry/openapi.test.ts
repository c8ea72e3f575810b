// The sidecar's OpenAPI document is complete: every route Fastify registers (collected with an onRoute hook
// while the sidecar is built) appears in /openapi.json with its method, except the documentation routes
// themselves; and on a non-loopback bind the document asks for the gateway token.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { RouteOptions } from 'fastify';
import { AuditStore } from '../../src/audit/store.js';
import { HookInspector } from '../../src/connectors/hook-inspection.js';
import { HookTokens } from '../../src/connectors/hook-tokens.js';
import { HealthRegistry } from '../../src/gateway/health.js';
import { createLogger, prepare } from '../../src/gateway/runtime.js';
import { buildSidecar } from '../../src/gateway/server.js';
import { GatewayMetrics } from '../../src/telemetry/metrics.js';
import { tempHome } from '../helpers/home.js';
import { openTelemetry } from '../../src/telemetry/context.js';

const TOKEN = 'openapi-test-token-0123456789';

async function sidecar(config?: string) {
  const home = tempHome(config, { WARDEN_GATEWAY_TOKEN: TOKEN });
  const audit = new AuditStore(join(home.dir, 'audit.db'));
  const prepared = prepare(home.env);
  const routes: RouteOptions[] = [];
  const app = await buildSidecar(
    {
      settings: prepared.settings, audit, health: new HealthRegistry(), inspector: prepared.inspector,
      hookInspector: new HookInspector(prepared.inspector), hookTokens: new HookTokens(prepared.settings.paths.hooksDir),
      policy: prepared.policy, version: 'test', startedAt: new Date(), metrics: new GatewayMetrics(),
      lifecycle: { requestRestart: () => {}, requestShutdown: () => {} },
      telemetry: openTelemetry({ home: home.dir, auditDb: join(home.dir, 'audit.db'), retentionDays: 30, storePromptText: false, maxBodyBytes: 1 << 20 }),
    },
    createLogger('silent'),
    { onRoute: (route) => void routes.push(route) },
  );
  return {
    app, routes,
    async close() {
      await app.close();
      await audit.close();
      home.remove();
    },
  };
}

/** Fastify's `/a/:b` as OpenAPI's `/a/{b}`. */
const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

describe('sidecar OpenAPI document', () => {
  it('lists every registered route, each with its answer described', async () => {
    const s = await sidecar();
    try {
      const answer = await s.app.inject({ method: 'GET', url: '/openapi.json' });
      assert.equal(answer.statusCode, 200, 'public on a loopback bind');
      const doc = answer.json<{ paths: Record<string, Record<string, { responses?: Record<string, unknown> }>> }>();
      const missing: string[] = [];
      const unanswered: string[] = [];
      for (const route of s.routes) {
        if (route.url.startsWith('/docs') || route.url === '/openapi.json') continue; // the documentation itself
        const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter((m) => m !== 'HEAD');
        for (const method of methods) {
          const operation = doc.paths[openApiPath(route.url)]?.[method.toLowerCase()];
          if (!operation) missing.push(`${method} ${route.url}`);
          // @fastify/swagger fills in a bare `200: Default Response` for a route without answers: that does not count.
          else if (!Object.entries(operation.responses ?? {}).some(([status, answer]) => status.startsWith('2') && (answer as { content?: unknown }).content)) {
            unanswered.push(`${method} ${route.url}`);
          }
        }
      }
      assert.ok(s.routes.length > 20, 'the hook collected the routes');
      assert.deepEqual(missing, [], 'every route is in the document');
      assert.deepEqual(unanswered, [], 'every route describes its answer');
    } finally {
      await s.close();
    }
  });

  it('needs the gateway token on a non-loopback bind', async () => {
    const s = await sidecar('config_version: 9\ngateway:\n  api_port: 0\n  api_bind: 0.0.0.0\nguardrail:\n  port: 0\n');
    try {
      assert.equal((await s.app.inject({ method: 'GET', url: '/openapi.json' })).statusCode, 401);
      assert.equal((await s.app.inject({ method: 'GET', url: '/docs/json' })).statusCode, 401);
      const ok = await s.app.inject({ method: 'GET', url: '/openapi.json', headers: { authorization: `Bearer ${TOKEN}` } });
      assert.equal(ok.statusCode, 200);
    } finally {
      await s.close();
    }
  });
});
