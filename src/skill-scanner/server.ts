// The warden-skill-scanner HTTP server (spec document 3). OpenAPI comes from the route schemas; /docs (Swagger
// UI) and /redoc are served from installed packages, never a CDN, so the server works offline.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import cors from '@fastify/cors';
import multipart from '@fastify/multipart';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger, type FastifyError, type FastifyInstance } from 'fastify';
import { isLoopbackAddress } from '../config/bind.js';
import { capConnectionsPerIp, slowClientTimeouts } from '../util/connection-limits.js';
import { AGENT_SKILL_FOLDERS, envRoots, homeOf, rootsOf } from '../scanners/paths.js';
import { BatchStore } from './batches.js';
import { SKILL_SCANNER_LIMITS } from './limits.js';
import type { ScannerContext } from './context.js';
import { ScanPool } from '../scanners/pool/pool.js';
import { batchRoutes } from './routes/batch.js';
import { infoRoutes } from './routes/info.js';
import { scanRoutes } from './routes/scan.js';
import { MAX_UPLOAD_BYTES, uploadRoutes } from './routes/upload.js';

export interface ScannerOptions {
  env: Record<string, string | undefined>;
  /** The address the server listens on: on loopback, requests must name a loopback Host (see below). */
  host?: string;
  version: string;
  logger: FastifyBaseLogger | false;
  workers?: number;
  corsOrigins?: string[];
  /** Further folders scans may read (--allow-root). */
  allowRoots?: string[];
}

/**
 * Where this server's scans may read. It has no authentication, so never everywhere:
 * SKILL_SCANNER_ALLOWED_ROOTS when set, else its working directory and the user's agent skill folders; plus
 * the --allow-root folders either way.
 */
function scannerRoots(env: Record<string, string | undefined>, allowRoots: readonly string[] = [], cwd = process.cwd()): string[] {
  return rootsOf([...(envRoots(env) ?? [cwd, ...AGENT_SKILL_FOLDERS]), ...allowRoots], homeOf(env));
}

const require = createRequire(import.meta.url);
const REDOC_SCRIPT = join(dirname(require.resolve('redoc/package.json')), 'bundles', 'redoc.standalone.js');
const REDOC_PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>warden-skill-scanner API</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><redoc spec-url="/openapi.json"></redoc><script src="/redoc/redoc.standalone.js"></script></body></html>`;

export async function buildScannerServer(options: ScannerOptions): Promise<{ app: FastifyInstance; context: ScannerContext }> {
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    bodyLimit: SKILL_SCANNER_LIMITS.maxJsonBodyBytes,
    ajv: { customOptions: { removeAdditional: false } },
    ...slowClientTimeouts(),
  });
  capConnectionsPerIp(app.server);
  const context: ScannerContext = {
    pool: new ScanPool(options.workers, true), batches: new BatchStore(), env: options.env, roots: scannerRoots(options.env, options.allowRoots), version: options.version,
  };
  app.addHook('onClose', () => context.pool.close());

  // The API has no authentication (spec document 3) and reads local paths. On loopback, a Host header naming
  // anything but a loopback name is a DNS-rebinding attempt by a web page: refuse it.
  if (options.host === undefined || isLoopbackAddress(options.host)) {
    app.addHook('onRequest', (request, reply, done) => {
      const host = (request.headers.host ?? '').replace(/:\d+$/, '').replace(/^\[(.*)\]$/, '$1').toLowerCase();
      if (host === '' || isLoopbackAddress(host)) return done();
      void reply.code(400).send({ detail: 'unexpected Host header for a server bound to loopback' });
    });
  }
  if (options.corsOrigins && options.corsOrigins.length > 0) await app.register(cors, { origin: options.corsOrigins });
  await app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 20, fieldSize: 8192 } });
  await app.register(swagger, {
    openapi: { info: { title: 'warden-skill-scanner', version: options.version, description: 'Scan agent skills before installing them.' } },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) request.log.error({ err: error }, 'scanner request failed');
    const detail = status >= 500 ? 'internal error' : error.validation ? `invalid request: ${error.message}` : error.message;
    return reply.code(status).send({ detail });
  });
  app.setNotFoundHandler((request, reply) => void reply.code(404).send({ detail: `no route ${request.method} ${request.url.split('?')[0]}` }));

  infoRoutes(app, context);
  scanRoutes(app, context);
  uploadRoutes(app, context);
  batchRoutes(app, context);
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  app.get('/redoc', { schema: { hide: true } }, async (_request, reply) => reply.type('text/html').send(REDOC_PAGE));
  const redocScript = readFileSync(REDOC_SCRIPT);
  app.get('/redoc/redoc.standalone.js', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('application/javascript').header('cache-control', 'public, max-age=86400').send(redocScript),
  );
  await app.ready();
  return { app, context };
}
